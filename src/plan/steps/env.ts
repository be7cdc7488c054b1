// Making TF's libraries findable, once for every toolkit route: plan the changes (the env module
// says what, where and whether root can), ask or take --configure-env, apply them with a journal
// rollback reads. The installer route plans for the machine; the redist route for this user only.
// "Already done" is what a terminal opened now would load (newShellMisses), never "the plan has no
// change it may make": a plan that can only show lines (sudo, for a folder outside the home folder)
// shows them and waits (exit 3), and one that can neither change nor find fails (exit 1).
import { requireInstallPermission } from '../../cuda/elevation.js';
import { applyEnvChanges, envLinesToRunYourself, prepareEnvPlan } from '../../env/index.js';
import type { EnvChange, EnvPlan } from '../../env/types.js';
import { CudawizError } from '../../errors.js';
import { fetchText } from '../../i18n/fetch.js';
import { planText } from '../../i18n/plan.js';
import { stepsText } from '../../i18n/steps.js';
import { newShellMisses } from '../../verify/new-shell-loader.js';
import type { PlanContext } from '../context.js';
import { NeedsInput, type Step, type StepDone } from '../runner.js';
import { acceptConsent, byConsent } from './consent.js';

type Applied = Awaited<ReturnType<typeof applyEnvChanges>>;

export interface EnvRoute<C extends PlanContext> {
  title(): string;
  /**
   * For this user only, whoever runs it and wherever the toolkit is (the redist route): the user's own
   * env script + rc line, no system file, no lines only root can run. Chosen over "run these lines as
   * an administrator" for a folder outside the home folder: the script needs no administrator wherever
   * the folder is, and the route promises none — so the install finishes, findable in a new shell.
   */
  userOnly?: boolean;
  question(targets: string, cuda: string): string;
  /** The summary when --configure-env no leaves it to the user. */
  leftAsIs(): string;
  /** The summary and evidence once the changes are made. */
  applied(plan: EnvPlan, r: Applied): StepDone;
}

/** What the run throws for a refusal (a name cudawiz cannot sort ahead, a toolkit path unsafe to write), and what the plan says will stop it. */
const refused = (plan: EnvPlan) => new CudawizError(plan.refusals.map((r) => r.reason).join('\n'), { code: 'env-refused', fix: plan.refusals[0].fix });

export function envStep<C extends PlanContext>(route: EnvRoute<C>): Step<C> {
  const planFor = (ctx: C) => envPlanFor(ctx, route.userOnly ? { elevated: false, forUser: true } : {});
  // Lines only root can run are not "done": the loader does not find the libraries until they are.
  const needsRoot = (plan: EnvPlan) => plan.changes.length === 0 && plan.manual.length > 0;
  // Linux: what a new shell's loader takes, as the doctor resolves it. Windows' plan already judges
  // the saved PATH new processes get (windows-plan.ts), so it is not asked twice.
  const misses = (ctx: C) => (ctx.os === 'linux' ? newShellMisses(ctx.host, ctx.toolkitDir, ctx.req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file)) : Promise.resolve([]));
  return {
    id: 'configure-env',
    get title() {
      return route.title();
    },
    async check(ctx) {
      const { plan } = await planFor(ctx);
      if (plan.refusals.length > 0) return { done: false, reason: fetchText.envWillStop(plan.refusals[0].reason), stop: refused(plan) };
      if (needsRoot(plan)) return { done: false, reason: fetchText.loaderNeedsRoot(ctx.toolkitDir) };
      if (plan.changes.length > 0) return { done: false, reason: planText.envChanges(plan.changes.length, plan.changes.map(describeEnvChange)) };
      const missing = await misses(ctx);
      if (missing.length > 0) return { done: false, reason: stepsText.newShellMisses(ctx.toolkitDir, missing) };
      return { done: true, reason: stepsText.loaderFinds };
    },
    async run(ctx, io) {
      const { plan, places } = await planFor(ctx);
      // A refusal (a name cudawiz cannot sort ahead, a toolkit path unsafe to write) is said, not skipped as done.
      if (plan.refusals.length > 0) throw refused(plan);
      if (needsRoot(plan)) {
        for (const l of plan.manual) io.log(l);
        if (ctx.configureEnv === 'no') return { summary: stepsText.leftAsIs, evidence: plan.manual };
        throw new NeedsInput({ kind: 'elevation', message: `${fetchText.loaderNeedsRoot(ctx.toolkitDir)}:\n  ${plan.manual.join('\n  ')}`, fix: plan.manual.join('\n') });
      }
      if (plan.changes.length === 0) {
        // Nothing to write and nothing to show: done only if a new shell really finds them here.
        const missing = await misses(ctx);
        if (missing.length === 0) return { summary: stepsText.nothingToChange };
        throw new CudawizError(stepsText.newShellMisses(ctx.toolkitDir, missing), { code: 'env-not-findable', fix: plan.notes.join('\n') || stepsText.doctorShowsDetails });
      }
      // On Windows the change is the PATH itself: asked in those words ("Add CUDA 10.1 to the PATH for all users?").
      const windowsPath = plan.changes.length > 0 && plan.changes.every((c) => c.kind === 'windows-path');
      const question = windowsPath ? stepsText.envQuestionPath(ctx.cuda, plan.changes.some((c) => c.target === 'Machine')) : route.question(plan.changes.map((c) => c.target).join(', '), ctx.cuda);
      return byConsent(ctx.configureEnv, 'configureEnv', {
        question,
        lines: envLinesToRunYourself(plan),
        leftSummary: route.leftAsIs(),
        async apply() {
          const r = await applyEnvChanges(plan.changes, { host: ctx.host, journalFile: places.journalFile });
          if (!r.ok) throw new CudawizError(stepsText.couldNotChange(r.failed?.change.target, r.failed?.message ?? ''), { fix: r.failed?.fix ?? envLinesToRunYourself(plan).join('\n') });
          return route.applied(plan, r);
        },
      }, io);
    },
    changesMachine: true,
    accept: acceptConsent('configureEnv'),
  };
}

/** One change as the plan names it: the file it writes, the PATH it edits, or the command it runs. */
export function describeEnvChange(c: EnvChange): string {
  if (c.kind === 'ldconfig') return planText.envRunLdconfig;
  if (c.kind === 'windows-path') return planText.envWindowsPath(c.target);
  return c.target;
}

/**
 * What making the libraries findable would change. `elevated: false` plans for the user only (the
 * redist route); `toolkitDir` names the toolkit that must come first where it is not the route's own.
 */
export async function envPlanFor(ctx: PlanContext, options: { elevated?: boolean; forUser?: boolean; toolkitDir?: string; rerunCommand?: string } = {}) {
  const facts = ctx.facts ?? (await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog }));
  return prepareEnvPlan({
    host: ctx.host,
    tf: ctx.tf,
    cuda: ctx.cuda,
    toolkitDir: options.toolkitDir ?? ctx.toolkitDir,
    requiredFiles: ctx.req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file),
    toolkits: facts.toolkits.filter((t) => t.majorMinor).map((t) => ({ version: t.majorMinor!, dir: t.path })),
    elevated: options.elevated ?? (await requireInstallPermission(ctx.host, ctx.toolkitDir, ctx.command).catch(() => undefined))?.elevated ?? false,
    root: ctx.host.fsRoot,
    forUser: options.forUser,
    rerunCommand: options.rerunCommand,
  });
}
