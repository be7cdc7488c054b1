// What `install` and `repair` share: the plan context from flags, a confirmation, the runner with
// a plain or JSON-lines reporter, and a log file whose path is printed on failure.
import { commandsText } from '../i18n/commands.js';
import { closeSync, mkdirSync } from 'node:fs';
import { createPrivateFile, freshPrivateFolder, lineWriter, openNamedLog, privateFolder } from '../private-file.js';
import { redactCredentials } from '../redact.js';
import { safetyText } from '../i18n/safety.js';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CommandContext } from '../cli/context.js';
import { envConsent } from '../env/index.js';
import { EXIT, UsageError } from '../errors.js';
import { createPlanContext, type PlanContext } from '../plan/context.js';
import type { RunnerEvent } from '../plan/events.js';
import { jsonLinesReporter, plainReporter } from '../cli/reporters.js';
import { runPlan, type Step } from '../plan/runner.js';
import { withLock } from '../lock/index.js';

export function planContextFromFlags(ctx: CommandContext, tf: string, command: string): PlanContext {
  const v = ctx.values;
  const connections = v.connections === undefined ? undefined : Number(v.connections);
  if (connections !== undefined && (!Number.isInteger(connections) || connections < 1 || connections > 16)) throw new UsageError(commandsText.badConnections);
  return createPlanContext(ctx.catalog(), ctx.host, {
    tf,
    cudaRoot: ctx.globals.cudaRoot,
    cacheDir: ctx.globals.cacheDir,
    mirror: ctx.globals.mirror,
    connections,
    allowUnverified: Boolean(v['allow-unverified']),
    overrideCompilerCheck: Boolean(v['override-compiler-check']),
    cudnnArchive: typeof v['cudnn-archive'] === 'string' ? path.resolve(v['cudnn-archive']) : undefined,
    downloadsDir: typeof v.downloads === 'string' ? v.downloads : undefined,
    yes: Boolean(v.yes),
    configureEnv: envConsent({ flag: v['configure-env'] as string | undefined, yes: Boolean(v.yes), tty: false }),
    command,
  });
}

/**
 * The run log, opened so nothing planted can redirect it: --log FILE never through a link or into
 * someone else's file; the default timestamped one created new (a name taken is never reused), in a
 * private temp folder instead when the cache's log folder is a link or others can write it.
 */
function openRunLog(ctx: CommandContext, plan: PlanContext): { file: string; fd: number } {
  const named = ctx.globals.log;
  try {
    if (named !== undefined) {
      mkdirSync(path.dirname(named), { recursive: true });
      return { file: named, fd: openNamedLog(named) };
    }
    mkdirSync(plan.logDir, { recursive: true, mode: 0o700 });
    const dir = privateFolder(plan.logDir) ? plan.logDir : freshPrivateFolder('cudawiz-log-');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    for (let i = 0; ; i++) {
      const file = path.join(dir, `cudawiz-${stamp}${i ? `-${process.pid}-${i}` : ''}.log`);
      try {
        return { file, fd: createPrivateFile(file) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 5) throw error;
      }
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new UsageError(safetyText.logRefused(e.path ?? named ?? plan.logDir, e.code ?? e.message), safetyText.logRefusedFix);
  }
}

async function confirm(ctx: CommandContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export async function runPlanCommand(ctx: CommandContext, plan: PlanContext, steps: Step<PlanContext>[]): Promise<number> {
  const { file: logFile, fd } = openRunLog(ctx, plan);
  try {
    return await runLogged(ctx, plan, steps, logFile, lineWriter(fd));
  } finally {
    closeSync(fd);
  }
}

async function runLogged(ctx: CommandContext, plan: PlanContext, steps: Step<PlanContext>[], logFile: string, writeLine: (line: string) => void): Promise<number> {
  const dryRun = Boolean(ctx.values['dry-run']);
  const log = (line: string) => writeLine(`${new Date().toISOString()} ${line}`);
  log(`cudawiz ${ctx.positionals.join(' ')} tf=${plan.tf} os=${plan.os} toolkit=${plan.toolkitDir}`);
  const report = ctx.out.json ? jsonLinesReporter((l) => ctx.io.stdout.write(`${redactCredentials(l)}\n`)) : plainReporter(ctx.out, { verbose: ctx.globals.verbose });
  const onEvent = (e: RunnerEvent) => {
    log(JSON.stringify(e));
    report(e);
  };

  if (!dryRun && !plan.yes) {
    // Show what would happen, then ask — or, without a terminal, name the flag and stop.
    const preview: RunnerEvent[] = [];
    await runPlan(steps, plan, { signal: ctx.signal, dryRun: true, onEvent: (e) => preview.push(e) });
    const todo = preview.find((e): e is Extract<RunnerEvent, { type: 'plan' }> => e.type === 'plan')?.steps.filter((s) => !s.done && s.id !== 'preflight' && s.id !== 'verify') ?? [];
    if (todo.length > 0) {
      if (!ctx.io.stdin.isTTY || ctx.out.json) {
        for (const e of preview) if (e.type === 'plan') report(e);
        const message = commandsText.changesMachine(todo.map((s) => s.title));
        if (ctx.out.json) report({ type: 'result', ok: false, exitCode: EXIT.needsUser, message });
        else ctx.out.error(`cudawiz: ${message}`);
        return EXIT.needsUser;
      }
      for (const e of preview) if (e.type === 'plan') report(e);
      if (!(await confirm(ctx, commandsText.goAhead))) return EXIT.needsUser;
    }
  }

  // One run per toolkit: a second install/repair on it stops here (exit 3) and names the pid holding it.
  const run = () => runPlan(steps, plan, { signal: ctx.signal, dryRun, onEvent });
  const result = dryRun ? await run() : await withLock(plan.toolkitDir, run, { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) });
  if (!result.ok && !ctx.out.json) ctx.out.error(`Log: ${logFile}`);
  return result.exitCode;
}
