// The preflight step, once: look at the machine as the doctor does for this TF, stop on the blockers
// (defined once, in doctor/blockers.ts) before any big download, then the route's own checks.
import { blockersIn, SETUP_BLOCKERS } from '../../doctor/blockers.js';
import { diagnose } from '../../doctor/diagnose.js';
import type { Finding } from '../../doctor/finding.js';
import { CudawizError } from '../../errors.js';
import { bundleText } from '../../i18n/bundle.js';
import { cliText } from '../../i18n/cli.js';
import { stepsText } from '../../i18n/steps.js';
import type { MachineFacts } from '../../probe/types.js';
import type { PlanContext } from '../context.js';
import { rootLoaderFolderStop } from '../../trust/loader-folder.js';
import { ownUid } from '../../trust/ownership.js';
import type { Step, StepDone } from '../runner.js';

export interface PreflightRoute<C extends PlanContext, L> {
  title(): string;
  /** The finding ids that stop this route (default: the setup blockers). */
  blockers?: readonly string[];
  /** The Python the machine is looked at with (the pip route: its venv's); the machine's own when absent. */
  python?(ctx: C): string;
  /** A stop the route knows before probing anything (no GPU build of this TF on native Windows). */
  before?(ctx: C): { reason: string; error: CudawizError } | undefined;
  /** The route's own look beside the blockers (the redist release this driver can run). */
  look(ctx: C, facts: MachineFacts): L;
  /** What the plan shows when nothing blocks. */
  ready(ctx: C, look: L): string;
  /** The route's own stop once no blocker does (no redist release this driver runs): said in the plan, thrown by the run. */
  refuse?(ctx: C, look: L): CudawizError | undefined;
  /**
   * The toolkit folder this route lays down and then hands to programs (a system loader file, or root's
   * own env script): as root, one another user could change stops the plan here, before a byte is laid (#37 R1/R2).
   */
  laysToolkitIn?(ctx: C): string;
  /** Once nothing blocks: the route's own checks and what it settles, and the step's summary. `shown`: the blocker checks that ran. */
  passed(ctx: C, facts: MachineFacts, look: L, shown: Finding[]): Promise<StepDone>;
}

/** A blocker check as an evidence line: "✓ NVIDIA driver 535.54 …". */
export const blockerLines = (shown: Finding[]) => shown.map((f) => stepsText.findingLine(f.status, f.title));

/** What stops the run: every blocker in one line, the first one's fix. */
function blockedBy(blocking: Finding[]): CudawizError {
  const first = blocking[0];
  return new CudawizError(cliText.semicolons(blocking.map((f) => f.title)), { fix: first.fix ?? undefined, code: `preflight-${first.id}` });
}

/** As root, a toolkit folder someone else could change is not laid down to be handed to programs (unless --configure-env no hands it to none). */
async function othersFolderStop<C extends PlanContext>(ctx: C, dir?: string): Promise<CudawizError | undefined> {
  if (!dir || ctx.os !== 'linux' || ownUid() !== 0 || ctx.configureEnv === 'no') return undefined;
  return rootLoaderFolderStop(dir);
}

export function preflightStep<C extends PlanContext, L>(route: PreflightRoute<C, L>): Step<C> {
  const blockers = route.blockers ?? SETUP_BLOCKERS;
  /**
   * The machine as the doctor sees it for this TF. The plan's preview (`fresh` false) reads the target's
   * facts and findings, resolved once when the plan was chosen (src/plan/target.ts); the run looks afresh.
   */
  async function machineCheck(ctx: C, fresh: boolean) {
    const known = !fresh && !route.python && ctx.target?.facts && ctx.target.findings ? ctx.target : undefined;
    const facts = known?.facts ?? (await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog, ...(route.python ? { python: route.python(ctx) } : {}) }));
    const findings = known?.findings ? [...known.findings] : diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os });
    const look = route.look(ctx, facts);
    const found = blockersIn(findings, blockers);
    // The same error for the plan's preview and the run: what the plan says will stop it is what does.
    const stop = found.blocking.length > 0 ? blockedBy(found.blocking) : (route.refuse?.(ctx, look) ?? (await othersFolderStop(ctx, route.laysToolkitIn?.(ctx))));
    return { facts, look, ...found, stop };
  }
  return {
    id: 'preflight',
    get title() {
      return route.title();
    },
    changesMachine: false,
    // Never done: it runs every time. Its reason previews what would stop the run, and `stop` is that stop.
    async check(ctx) {
      const early = route.before?.(ctx);
      if (early) return { done: false, reason: early.reason, stop: early.error };
      const { blocking, look, stop } = await machineCheck(ctx, false);
      // A bundle others can change is named in the plan (#37 B3): only cudawiz's checked copies are used, but the user should know.
      const shared = ctx.bundle?.sharedBy ? ` ${bundleText.sharedBundle(ctx.bundle.dir, ctx.bundle.sharedBy)}` : '';
      if (!stop) return { done: false, reason: `${route.ready(ctx, look)}${shared}` };
      return { done: false, reason: stepsText.willStopBecause(blocking.length ? blocking[0].title : stop.message), stop };
    },
    async run(ctx) {
      const early = route.before?.(ctx);
      if (early) throw early.error;
      const { facts, look, shown, stop } = await machineCheck(ctx, true);
      ctx.facts = facts;
      if (stop) throw stop;
      return route.passed(ctx, facts, look, shown);
    },
  };
}
