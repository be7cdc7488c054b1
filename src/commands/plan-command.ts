// What `install` and `repair` share: the plan options from flags, the one chooser, a confirmation, the
// runner under the lock with a plain or JSON-lines reporter, and a log file whose path is printed on failure.
import { saidYes } from '../plan/runner.js';
import { commandsText } from '../i18n/commands.js';
import { stepsText } from '../i18n/steps.js';
import { closeSync, mkdirSync } from 'node:fs';
import { createPrivateFile, freshPrivateFolder, lineWriter, openNamedLog, privateFolder } from '../trust/write.js';
import { forJson } from '../redact.js';
import { safetyText } from '../i18n/safety.js';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CommandContext } from '../io/context.js';
import { envConsent, packageConsent } from '../env/index.js';
import { EXIT, UsageError } from '../errors.js';
import { choosePlan, runChosenPlan, type ChosenPlan, type PlanMachine, type PlanRequest } from '../plan/choose.js';
import type { PlanContext } from '../plan/context.js';
import type { InputNeed, RunnerEvent } from '../plan/events.js';
import { jsonLinesReporter, plainReporter } from '../io/reporters.js';
import { loadRedistCatalog, type RedistCatalog } from '../redist/catalog.js';
import { seedCache } from '../bundle/seed.js';
import { useBundle, type BundleUse } from '../bundle/use.js';
import type { RouteId } from '../routes/index.js';
import { resolveCacheDir } from '../fetch/index.js';

/** `--from DIR`: the bundle opened and every file re-hashed (a refusal changes nothing), or undefined without the flag. */
export async function bundleFromFlag(ctx: CommandContext, asked: { tf?: string; route?: RouteId }, options: { seedCache?: boolean } = {}): Promise<BundleUse | undefined> {
  const dir = ctx.values.from;
  if (typeof dir !== 'string' || !dir) return undefined;
  const used = await useBundle(dir, { catalog: ctx.catalog(), redist: loadRedistCatalog(ctx.globals.catalog), os: ctx.host.os, ...asked });
  // A repair refetches through a service of its own (the redist repair): it finds the bundle's archives where it looks first.
  if (options.seedCache && ctx.values['dry-run'] !== true) await seedCache(used.bundle, resolveCacheDir(ctx.globals.cacheDir), (f) => f.endsWith('-archive.tar.xz') || f.endsWith('-archive.zip'));
  return used;
}

/** The plan options every install and repair flag sets (the TF version aside). */
export function planOptionsFromFlags(ctx: CommandContext, command: string, fromBundle?: BundleUse): PlanRequest['options'] {
  const v = ctx.values;
  const connections = v.connections === undefined ? undefined : Number(v.connections);
  if (connections !== undefined && (!Number.isInteger(connections) || connections < 1 || connections > 16)) throw new UsageError(commandsText.badConnections);
  return {
    cudaRoot: ctx.globals.cudaRoot,
    cacheDir: ctx.globals.cacheDir,
    mirror: ctx.globals.mirror,
    connections,
    allowUnverified: Boolean(v['allow-unverified']),
    overrideCompilerCheck: Boolean(v['override-compiler-check']),
    cudnnArchive: typeof v['cudnn-archive'] === 'string' ? path.resolve(v['cudnn-archive']) : fromBundle?.bundle.cudnnArchive,
    downloadsDir: typeof v.downloads === 'string' ? v.downloads : undefined,
    yes: Boolean(v.yes),
    configureEnv: envConsent({ flag: v['configure-env'] as string | undefined, yes: Boolean(v.yes), tty: false }),
    // Never from --yes: asked in a terminal, else left to the user unless the flag says yes.
    packageManager: packageConsent({ flag: v['package-manager'] as string | undefined, tty: askable(ctx) }),
    command,
    ...(fromBundle ? { bundle: fromBundle.bundle, pinRelease: fromBundle.pinRelease } : {}),
  };
}

/** The catalogs and machine the chooser works against; the redist catalog is read only when a route needs it. */
export function planMachine(ctx: CommandContext): PlanMachine {
  let redist: RedistCatalog | undefined;
  return { catalog: ctx.catalog(), host: ctx.host, redist: () => (redist ??= loadRedistCatalog(ctx.globals.catalog)) };
}

/**
 * The run log, opened so nothing planted can redirect it: --log FILE never through a link or into
 * someone else's file; the default timestamped one created new (a name taken is never reused), in a
 * private temp folder instead when the cache's log folder is a link or others can write it.
 */
function openRunLog(ctx: CommandContext, plan: PlanContext): { file: string; fd: number } {
  const named = ctx.globals.log;
  // A folder that cannot be made (a file in the way, no permission, a full disk) is said as such, as every
  // other write is; only opening the log file itself can be a planted link or someone else's file.
  mkdirSync(named !== undefined ? path.dirname(named) : plan.logDir, named !== undefined ? { recursive: true } : { recursive: true, mode: 0o700 });
  try {
    if (named !== undefined) return { file: named, fd: openNamedLog(named) };
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

/** A question can be asked: a terminal on stdin, and no --json stream for a script to read. */
export const askable = (ctx: CommandContext) => Boolean(ctx.io.stdin.isTTY) && !ctx.out.json;

export async function confirm(ctx: CommandContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  try {
    return saidYes(await rl.question(`${question} [y/N] `));
  } finally {
    rl.close();
  }
}

/** The chooser's plan for a command's request (flags → request → plan). */
export function choosePlanFor(ctx: CommandContext, request: PlanRequest): ChosenPlan {
  return choosePlan(planMachine(ctx), request);
}

/** Every plan command's run, whatever the route: confirm what changes, then the plan under the lock. */
export async function runPlanCommand(ctx: CommandContext, chosen: ChosenPlan): Promise<number> {
  const { file: logFile, fd } = openRunLog(ctx, chosen.ctx);
  try {
    return await runLogged(ctx, chosen, logFile, lineWriter(fd));
  } finally {
    closeSync(fd);
  }
}

async function runLogged(ctx: CommandContext, chosen: ChosenPlan, logFile: string, writeLine: (line: string) => void): Promise<number> {
  const plan = chosen.ctx;
  const dryRun = Boolean(ctx.values['dry-run']);
  const log = (line: string) => writeLine(`${new Date().toISOString()} ${line}`);
  log(`cudawiz ${ctx.positionals.join(' ')} tf=${plan.tf} os=${plan.os} toolkit=${plan.toolkitDir}`);
  const report = ctx.out.json ? jsonLinesReporter((l) => ctx.io.stdout.write(`${forJson(l)}\n`)) : plainReporter(ctx.out, { verbose: ctx.globals.verbose });
  const onEvent = (e: RunnerEvent) => {
    log(JSON.stringify(e));
    report(e);
  };

  if (!dryRun && !plan.yes) {
    // Show what would happen, then ask — or, without a terminal, name the flag and stop.
    const preview: RunnerEvent[] = [];
    await chosen.run({ signal: ctx.signal, dryRun: true, onEvent: (e) => preview.push(e) });
    const planned = preview.find((e): e is Extract<RunnerEvent, { type: 'plan' }> => e.type === 'plan');
    // A plan that will stop is not offered (no "Go ahead?", no "pass --yes"): its stop and fix are said, exit 1, nothing changed.
    if (planned?.stop) {
      report(planned);
      report({ type: 'result', ok: false, exitCode: EXIT.problems, message: stepsText.notStarted });
      return EXIT.problems;
    }
    // What changes the machine is each step's own word (the plan event carries it), never a list of ids.
    const todo = planned?.steps.filter((s) => !s.done && s.changesMachine !== false) ?? [];
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

  // One run per toolkit (venv): a second install/repair on it stops here (exit 3) and names the pid holding it.
  // A step's yes/no question (the package manager's) is asked in a terminal; headless it waits on the user (exit 3).
  const ask = askable(ctx) ? async (need: InputNeed) => (need.kind === 'confirm' ? ((await confirm(ctx, need.question)) ? 'yes' : 'no') : undefined) : undefined;
  const result = await runChosenPlan(chosen, { signal: ctx.signal, dryRun, onEvent, ask }, { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) });
  if (!result.ok && !ctx.out.json) ctx.out.error(`Log: ${logFile}`);
  return result.exitCode;
}
