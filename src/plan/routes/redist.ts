// The redist route: only the CUDA components TF loads, from NVIDIA's per-component archives, into a
// per-user toolkit, cuDNN (its public archive where the catalog has one), the loader path for this
// user only, and verify. No administrator, no installer, no login. A toolkit cudawiz laid out this
// way is repaired the same way it was made.
import path from 'node:path';
import type { Catalog } from '../../catalog/schema.js';
import { toolkitServes } from '../../doctor/toolkit-lookup.js';
import { CudawizError, UsageError } from '../../errors.js';
import type { Host } from '../../host.js';
import { singleQuoted } from '../../env/shell-quote.js';
import { redistText } from '../../i18n/redist.js';
import { stepsText } from '../../i18n/steps.js';
import { toolkitDir, userToolkitRoot } from '../../platform.js';
import type { Toolkit } from '../../probe/types.js';
import type { RedistCatalog } from '../../redist/catalog.js';
import { redistRouteFor, type RedistChoice } from '../../redist/choose.js';
import { checkRedistToolkit } from '../../redist/toolkit.js';
import { verifySetup } from '../../verify/index.js';
import { chosenPlan } from '../chosen.js';
import { createPlanContext, cudnnTargetDir, type PlanContext, type PlanOptions, type RedistPlanContext } from '../context.js';
import { diagnose } from '../../doctor/diagnose.js';
import { repairPlanFor } from '../repair.js';
import type { RouteRepairSteps } from '../remedies/index.js';
import type { Step } from '../runner.js';
import { importCudnnStep, obtainCudnnStep } from '../steps/cudnn.js';
import { envStep } from '../steps/env.js';
import { blockerLines, preflightStep } from '../steps/preflight.js';
import { redistDownloadStep, redistRepairStep, redistUnpackStep } from '../steps/redist.js';
import { verifiedOrThrow, verifyStep, verifyTarget } from '../steps/verify.js';
import { routeFacts } from '../../routes/index.js';
import { targetRoute, type PlanTarget } from '../target.js';
import type { Route } from './route.js';

export type { RedistPlanContext } from '../context.js';

/**
 * The plan context for the redist route; a usage error where the route does not exist for this TF here.
 * The release is chosen here, once, with the target's driver when the machine was looked at: the
 * toolkit folder the lock, the checks and the writes name is settled with it.
 */
export function createRedistPlanContext(catalog: Catalog, redist: RedistCatalog, host: Host, options: PlanOptions & { pinRelease?: string }, target?: PlanTarget): RedistPlanContext {
  const root = options.cudaRoot ?? userToolkitRoot(host.os, host.env, host.home);
  const base = createPlanContext(catalog, host, { ...options, cudaRoot: root }, target);
  const route = redistRouteFor(redist, catalog, base.req, host.os, target?.driver, options.pinRelease);
  if (!route.ok) throw new UsageError(route.reason, route.fix);
  const choice: RedistChoice = route.choice;
  return { ...base, redist, choice, pinRelease: options.pinRelease, cuda: choice.majorMinor, toolkitDir: toolkitDir(base.os, root, choice.majorMinor) };
}

/** No redist release this driver can run: the plan says it will stop, the run stops. */
const noRelease = (route: Extract<ReturnType<typeof redistRouteFor>, { ok: false }>) => new CudawizError(route.reason, { fix: route.fix, code: 'redist-no-release' });

/** The driver now runs another release than the plan chose: the run stops rather than change folders under its lock. */
const releaseChanged = (ctx: RedistPlanContext, now: RedistChoice) =>
  new CudawizError(redistText.releaseChanged(ctx.choice.release.version, now.release.version, now.driver ?? '?'), { fix: redistText.releaseChangedFix, code: 'redist-release-changed' });

export const redistPreflightStep = preflightStep<RedistPlanContext, ReturnType<typeof redistRouteFor>>({
  title: () => redistText.stepPreflight,
  // The release this driver can run, as the installer route's blockers minus elevation: nothing here needs an administrator.
  laysToolkitIn: (ctx) => ctx.toolkitDir,
  look: (ctx, facts) => redistRouteFor(ctx.redist, ctx.catalog, ctx.req, ctx.os, facts.gpu.driver.version ?? undefined, ctx.pinRelease),
  ready: (_ctx, route) => (route.ok ? route.choice.why : route.reason),
  refuse: (ctx, route) => (!route.ok ? noRelease(route) : route.choice.release.version !== ctx.choice.release.version ? releaseChanged(ctx, route.choice) : undefined),
  async passed(ctx, facts, route, shown) {
    if (!route.ok) throw noRelease(route);
    const gpu = facts.gpu.gpus[0];
    return {
      summary: stepsText.redistMachine(gpu ? stepsText.machineSummary(gpu.name, facts.gpu.driver.version ?? '?') : stepsText.ok, route.choice.release.version),
      evidence: [route.choice.why, ...(route.choice.caveat ? [route.choice.caveat] : []), ...blockerLines(shown)],
    };
  },
});

// The user's own rc/env script or User PATH, whoever runs it: this route never writes for everyone.
export const redistEnvStep = envStep<RedistPlanContext>({
  title: () => redistText.stepEnv,
  userOnly: true,
  question: (targets, cuda) => redistText.envQuestion(targets, cuda),
  leftAsIs: () => redistText.envLeft,
  applied: (plan, r) => {
    const script = plan.changes.find((c) => c.kind === 'env-script')?.target;
    const fish = script?.endsWith('.fish');
    const thisShell = script ? [redistText.envThisShell(`${fish ? 'source' : '.'} ${singleQuoted(script, fish ? 'fish' : 'posix')}`)] : [];
    return { summary: redistText.envApplied(r.applied.length), evidence: [...plan.notes, ...plan.changes.map((c) => c.target), ...thisShell] };
  },
});

export const redistVerifyStep = verifyStep<RedistPlanContext>(() => redistText.stepVerify, async (ctx) => {
  const files = await checkRedistToolkit(ctx.toolkitDir, { deep: true });
  const filesLayer = {
    title: redistText.filesLayer(files.manifest?.files.length ?? 0),
    status: files.state === 'complete' && files.changed.length === 0 ? ('pass' as const) : ('fail' as const),
    evidence: files.changed.length ? [redistText.filesChanged(files.changed.slice(0, 5).join(', '))] : [],
    fix: redistText.filesFix,
  };
  // verifySetup judges the loader path a new shell gets (newShellHost): what the env step wrote, not what it meant to.
  const layers = [filesLayer, ...(await verifySetup(verifyTarget(ctx)))];
  return verifiedOrThrow(layers);
});

export function redistRouteSteps(): Step<RedistPlanContext>[] {
  return [redistPreflightStep, redistDownloadStep, redistUnpackStep, obtainCudnnStep, importCudnnStep, redistEnvStep, redistVerifyStep];
}

/**
 * Repair, through the remedy table like every repair: its files re-checked and the broken components
 * fetched again are the remedy for the doctor's "redist files missing or changed"; its whole setup only
 * where no toolkit TF can load exists.
 */
export function redistRepairRoute(): RouteRepairSteps {
  return { install: redistRouteSteps() as Step<PlanContext>[], files: [redistRepairStep as Step<PlanContext>] };
}

/** The redist toolkit on this machine that serves the target's TF, if any. */
function redistToolkitFor(target: PlanTarget): Toolkit | undefined {
  const cuda = target.req.cuda;
  return cuda ? target.facts?.toolkits.find((t) => t.redist && t.majorMinor && toolkitServes(t, cuda)) : undefined;
}

export const redistRoute: Route = {
  ...routeFacts('redist'),
  offered: (target) => targetRoute(target, 'redist').available,
  repairs: (target) => Boolean(redistToolkitFor(target)),
  plan(machine, request, target) {
    const made = request.mode === 'repair' ? redistToolkitFor(target) : undefined;
    const options = { ...request.options, tf: request.tf, ...(made ? { cudaRoot: path.dirname(made.path), pinRelease: made.redist!.release } : {}) };
    const ctx = createRedistPlanContext(machine.catalog, machine.redist(), machine.host, options, target);
    if (!made) return chosenPlan('redist', request.mode, ctx, redistRouteSteps());
    const findings = target.findings ?? diagnose(machine.catalog, target.facts!, { tf: ctx.tf, os: ctx.os });
    const { ctx: settled, steps } = repairPlanFor(findings, ctx, redistRepairRoute(), target.facts);
    return chosenPlan('redist', 'repair', settled, steps as Step<RedistPlanContext>[], cudnnTargetDir(settled));
  },
};
