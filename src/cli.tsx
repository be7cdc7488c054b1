// argv → the wizard (TTY) or a headless command. Nothing else lives here.
// The program starts in src/bin.ts; main() is also what tests call in-process. Start-up: only light
// modules are imported statically here, so --help and usage errors answer before the catalog (zod),
// the command runner (execa) or the UI (ink) load; bench/startup.mjs measures this.
import { randomBytes } from 'node:crypto';
import { closeSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepsText } from './i18n/steps.js';
import pkg from '../package.json' with { type: 'json' };
import { parseArgv, readArgvLoosely } from './cli/args.js';
import { COMMAND_MODULES } from './cli/commands.js';
import type { CommandIO } from './io/context.js';
import { commandHelp, mainHelp } from './cli/help.js';
import { hostOs } from './platform.js';
import { createOutput, unicodeSafe } from './io/output.js';
import { createPrivateFile } from './trust/write.js';
import { forJson, forTerminal, redactCredentials } from './redact.js';
import { isCommandName } from './cli/spec.js';
import { CudawizError, EXIT } from './errors.js';
import { describeFsError } from './fs-errors.js';
import { cliText } from './i18n/cli.js';
import { setLang, setValueStyle } from './i18n/localized.js';
import type { Host } from './host.js';

export interface MainOptions {
  io?: CommandIO;
  host?: Host;
  signal?: AbortSignal;
}

/**
 * The details of an unexpected error, in a new file of the temp folder only this user can read
 * (created exclusively, never through a planted link), credentials redacted; undefined where it cannot be written.
 */
function writeCrashReport(details: string, argv: readonly string[]): string | undefined {
  const file = join(tmpdir(), `cudawiz-error-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${randomBytes(4).toString('hex')}.txt`);
  try {
    const fd = createPrivateFile(file);
    try {
      writeSync(fd, redactCredentials(`cudawiz ${pkg.version} on ${process.platform} ${process.arch}, Node ${process.version}\ncudawiz ${argv.join(' ')}\n\n${details}\n`));
    } finally {
      closeSync(fd);
    }
    return file;
  } catch {
    return undefined;
  }
}

export function reportError(raw: unknown, io: CommandIO, json: boolean, argv: readonly string[] = []): number {
  // A filesystem error (full disk, read-only, no permission…) is the machine's state, not a bug: say it with its fix.
  const error = describeFsError(raw);
  if (error instanceof CudawizError) {
    if (json) {
      io.stdout.write(forJson(`${JSON.stringify({ error: { code: error.code ?? 'error', message: error.message, fix: error.fix ?? null, ...error.options.details } }, null, 2)}\n`));
    }
    // Its own lines stay lines, indented under it: nothing a flag or file carried can start a line of its own.
    const said = (text: string) => forTerminal(text).replace(/\n/g, '\n    ');
    io.stderr.write(`cudawiz: ${said(error.message)}\n${error.fix ? `  → ${said(error.fix)}\n` : ''}`);
    return error.exitCode;
  }
  // A bug of ours: one line for the user, the stack in a file for the report (never on the screen).
  const e = error as Error;
  const message = (e instanceof Error ? e.message : String(error)).split('\n')[0];
  const report = writeCrashReport(e instanceof Error ? (e.stack ?? e.message) : String(error), argv);
  if (json) io.stdout.write(forJson(`${JSON.stringify({ error: { code: 'internal', message, fix: null, report: report ?? null } }, null, 2)}\n`));
  io.stderr.write(forTerminal(`cudawiz: ${stepsText.unexpected(message)}\n  → ${stepsText.reportIt(report)}\n`));
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
  // What argv says before it is known to be valid: a usage error is then said in that language and form.
  const loose = readArgvLoosely(argv, options.host?.env ?? process.env);
  setLang(loose.json ? 'en' : loose.lang); // set on every call: main() is also called in-process, run after run
  setValueStyle(loose.json ? 'json' : 'plain');
  try {
    if (loose.help) {
      io.stdout.write(`${loose.command && isCommandName(loose.command) ? commandHelp(loose.command, options.host?.os ?? hostOs()) : mainHelp()}\n`);
      return EXIT.ok;
    }
    // Modules start loading as soon as it is known that they are needed, so their loads overlap.
    const hostReady = options.host ? Promise.resolve(options.host) : import('./host.js').then((m) => m.realHost());
    const wizard = loose.command === undefined;
    const interactive = wizard && Boolean(io.stdin.isTTY && io.stdout.isTTY);
    // Ink colours through chalk, which reads FORCE_COLOR (not NO_COLOR) when it loads: say it first.
    if (interactive && (process.env.NO_COLOR !== undefined || loose.noColor)) process.env.FORCE_COLOR = '0';
    const firstFrameReady = interactive ? import('./cli/first-frame.js') : undefined;
    const modulesReady = loose.command && isCommandName(loose.command) ? Promise.all([COMMAND_MODULES[loose.command](), import('./cli/catalog.js')]) : undefined;
    modulesReady?.catch(() => undefined); // awaited below; a usage error may return before that
    const host = await hostReady;
    const parsed = parseArgv(argv, host.env, Boolean(io.stdout.isTTY));
    if (parsed.version) {
      io.stdout.write(`${pkg.version}\n`);
      return EXIT.ok;
    }
    if (!parsed.command) {
      setLang(parsed.globals.lang);
      // Ink draws what the screens give it, with no output edge: values in messages are escaped as they are made.
      setValueStyle('screen');
      if (!firstFrameReady) {
        io.stderr.write(
          `${cliText.wizardNeedsTerminal}\n${cliText.wizardHeadless}\n` +
            '      cudawiz requirements --tf 2.10\n' +
            '      cudawiz doctor --json\n' +
            '      cudawiz install --tf 2.10 --cudnn-archive FILE --yes\n' +
            `${cliText.wizardSeeHelp}\n`,
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
    setLang(parsed.globals.json ? 'en' : parsed.globals.lang);
    setValueStyle(parsed.globals.json ? 'json' : 'plain');
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
      const [mod, { prepareCatalog }] = await (modulesReady ?? Promise.all([COMMAND_MODULES[parsed.command](), import('./cli/catalog.js')]));
      const catalog = await prepareCatalog(parsed.globals.catalog);
      return await mod.run({ values: parsed.values, positionals: parsed.positionals, globals: parsed.globals, host, io, out, catalog, signal: controller.signal });
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  } catch (error) {
    return reportError(error, io, loose.json, argv);
  }
}
