// argv → the wizard (TTY) or a headless command. Nothing else lives here.
// The program starts in src/bin.ts; main() is also what tests call in-process. Start-up: only light
// modules are imported statically here, so --help and usage errors answer before the catalog (zod),
// the command runner (execa) or the UI (ink) load; bench/startup.mjs measures this.
import pkg from '../package.json' with { type: 'json' };
import { parseCommandArgs } from './cli/args.js';
import { COMMANDS } from './cli/commands.js';
import type { CommandIO } from './cli/context.js';
import { commandHelp, mainHelp } from './cli/help.js';
import { createOutput, unicodeSafe } from './cli/output.js';
import { CudawizError, EXIT, UsageError } from './errors.js';
import { setLang } from './i18n/localized.js';
import type { Host } from './host.js';

export interface MainOptions {
  io?: CommandIO;
  host?: Host;
  signal?: AbortSignal;
}

function reportError(error: unknown, io: CommandIO, json: boolean): number {
  if (error instanceof CudawizError) {
    if (json) {
      io.stdout.write(`${JSON.stringify({ error: { code: error.code ?? 'error', message: error.message, fix: error.fix ?? null, ...error.options.details } }, null, 2)}\n`);
    }
    io.stderr.write(`cudawiz: ${error.message}\n${error.fix ? `  → ${error.fix}\n` : ''}`);
    return error.exitCode;
  }
  const e = error as Error;
  io.stderr.write(`cudawiz: unexpected error: ${e?.stack ?? String(error)}\n  → Please report this at https://github.com/cudawiz/cudawiz/issues with the command you ran.\n`);
  return EXIT.problems;
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  // stdin is touched only by what reads it (the wizard, `explain -`): setting it up costs start-up time.
  const io: CommandIO = options.io ?? {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
  };
  const [first, ...rest] = argv;
  const wantsJson = argv.includes('--json');
  setLang('en'); // until the flags are read; main() is also called in-process, run after run
  try {
    if (first === '--version' || first === '-v') {
      io.stdout.write(`${pkg.version}\n`);
      return EXIT.ok;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      io.stdout.write(`${rest[0] && COMMANDS[rest[0]] ? commandHelp(rest[0]) : mainHelp()}\n`);
      return EXIT.ok;
    }
    // Modules start loading as soon as it is known that they are needed, so their loads overlap.
    const hostReady = options.host ? Promise.resolve(options.host) : import('./host.js').then((m) => m.realHost());
    if (first === undefined || first.startsWith('-')) {
      const interactive = Boolean(io.stdin.isTTY && io.stdout.isTTY);
      // Ink colours through chalk, which reads FORCE_COLOR (not NO_COLOR) when it loads: say it first.
      if (interactive && (process.env.NO_COLOR !== undefined || argv.includes('--no-color'))) process.env.FORCE_COLOR = '0';
      const firstFrameReady = interactive ? import('./cli/first-frame.js') : undefined;
      const host = await hostReady;
      const parsed = parseCommandArgs(argv, {}, host.env, Boolean(io.stdout.isTTY));
      setLang(parsed.globals.lang);
      if (!firstFrameReady) {
        io.stderr.write(
          'cudawiz: the wizard needs an interactive terminal.\n' +
            '  → Headless, run the same steps with flags, e.g.:\n' +
            '      cudawiz requirements --tf 2.10\n' +
            '      cudawiz doctor --json\n' +
            '      cudawiz install --tf 2.10 --cudnn-archive FILE --yes\n' +
            '    (cudawiz --help lists every command)\n',
        );
        return EXIT.usage;
      }
      // The first frame goes up before the UI starts loading (its loading would hold the frame back).
      // With an overlay, which is validated first and may end the run with an error, Ink draws it.
      const { drawFirstFrame } = await firstFrameReady;
      const firstFrame = parsed.globals.catalog ? undefined : drawFirstFrame(io.stdout, parsed.globals.lang, host.env);
      const { startWizard } = await import('./wizard.js');
      return await startWizard({ globals: parsed.globals, host, io, firstFrame });
    }
    const entry = COMMANDS[first];
    if (!entry) throw new UsageError(`Unknown command "${first}".`, `Commands: ${Object.keys(COMMANDS).join(', ')} (cudawiz --help)`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${commandHelp(first)}\n`);
      return EXIT.ok;
    }
    const modulesReady = Promise.all([entry.load(), import('./cli/catalog.js')]);
    modulesReady.catch(() => undefined); // awaited below; a usage error may return before that
    const host = await hostReady;
    const parsed = parseCommandArgs(rest, entry.options, host.env, Boolean(io.stdout.isTTY));
    setLang(parsed.globals.json ? 'en' : parsed.globals.lang);
    const out = createOutput({
      stdout: io.stdout,
      stderr: io.stderr,
      json: parsed.globals.json,
      color: parsed.globals.color,
      unicode: unicodeSafe(host.env),
    });
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    if (!options.signal) process.once('SIGINT', onSigint);
    else options.signal.addEventListener('abort', onSigint, { once: true });
    try {
      const [mod, { prepareCatalog }] = await modulesReady;
      const catalog = await prepareCatalog(parsed.globals.catalog);
      return await mod.run({ ...parsed, host, io, out, catalog, signal: controller.signal });
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  } catch (error) {
    return reportError(error, io, wantsJson);
  }
}
