// The one way a plan is chosen: the wizard and the commands both ask here, with the mode, the route
// (install) or the doctor's facts (repair), the TF version and the options; they get one plan back
// and run it through `runChosenPlan`, under the lock, whichever door they came in by.
import { withLock, type LockOptions } from '../lock/index.js';
import type { ChosenPlan } from './chosen.js';
import { pipRoute } from './routes/pip.js';
import { redistRoute } from './routes/redist.js';
import type { PlanMachine, PlanRequest, Route } from './routes/route.js';
import { toolkitRoute, toolkitServedElsewhere } from './routes/toolkit.js';
import { FALLBACK_ROUTE, ROUTE_IDS, type RouteId } from '../routes/index.js';
import { resolveTarget, targetRoute, type PlanTarget } from './target.js';
import { routesText } from '../i18n/routes.js';
import { toolkitInUse } from '../doctor/toolkit-lookup.js';
import type { MachineFacts } from '../probe/types.js';
import type { RunOptions, RunResult } from './runner.js';
import type { Catalog } from '../catalog/schema.js';
import { beyondCatalogError } from '../catalog/newer-tf.js';
import { chooseTarget } from '../doctor/target.js';
import type { Finding } from '../doctor/finding.js';
import { CudawizError, EXIT } from '../errors.js';
import { commandsText } from '../i18n/commands.js';
import type { OsName } from '../platform.js';
import { planRepair } from './remedies/plan.js';
import { STOPS } from '../doctor/finding-kinds.js';

export type { ChosenPlan, PlanMode, RouteId } from './chosen.js';
export type { PlanMachine, PlanRequest } from './routes/route.js';
export { resolveTarget, type PlanTarget } from './target.js';
export { toolkitServedElsewhere } from './routes/toolkit.js';

/** Every route's plan, keyed by its id: a route id with no plan here fails to compile. */
const PLAN_ROUTES: Record<RouteId, Route> = { redist: redistRoute, pip: pipRoute, toolkit: toolkitRoute };

/** Every route, in the one order of ROUTE_IDS (src/routes/ids.ts): redist, pip, the installer last. */
export const ROUTES: readonly Route[] = ROUTE_IDS.map((id) => PLAN_ROUTES[id]);

/** The route a request takes and why: the one rule for the wizard's recommendation and `install`'s default. */
export interface RouteChoice {
  /** The routes offered for the target, the recommended one first. */
  routes: RouteId[];
  recommended: RouteId;
  /** One line: why that route. */
  why: string;
}

/**
 * The recommended route, for the wizard and `install` without --route alike. Where TF can already load
 * another toolkit's CUDA (apt's in /usr, another 11.x minor), the installer route, which then brings
 * only cuDNN. Else the first route offered, in the order of ROUTE_IDS: redist where it exists (no
 * administrator, only the libraries TF loads), then pip. Where none is offered (no GPU build of this TF
 * here), the fallback route, whose plan says why it stops and what to do instead.
 */
export function recommendRoute(machine: PlanMachine, target: PlanTarget, cudaRoot?: string): RouteChoice {
  const offered = ROUTES.filter((r) => r.offered(target)).map((r) => r.id);
  if (toolkitServedElsewhere(machine, target, cudaRoot)) {
    const cuda = (target.facts && toolkitInUse(target.facts, target.req)?.majorMinor) ?? target.req.cuda ?? '';
    return { routes: ['toolkit', ...offered.filter((id) => id !== 'toolkit')], recommended: 'toolkit', why: routesText.whyServedElsewhere(target.tf, cuda) };
  }
  const first = offered[0];
  if (first) return { routes: offered, recommended: first, why: PLAN_ROUTES[first].why(targetRoute(target, first)) };
  const fallback = targetRoute(target, FALLBACK_ROUTE);
  return { routes: offered, recommended: FALLBACK_ROUTE, why: fallback.reason ?? PLAN_ROUTES[FALLBACK_ROUTE].why(fallback) };
}

/** The routes that can set `tf` up on this machine, the recommended one first (`recommendRoute`). */
export function offeredRoutes(machine: PlanMachine, tf: string, facts?: MachineFacts): RouteId[] {
  return recommendRoute(machine, resolveTarget(machine, tf, facts)).routes;
}

/**
 * The plan for a request, on its target (resolved here when the request brings none). install: the
 * route asked for, else the recommended one (`recommendRoute`). repair: the route the machine's toolkit
 * was made by (a redist toolkit is repaired as redist), else the installer route's repair steps, from
 * the doctor's findings (`repairSteps`); a route given with repair is ignored.
 * Throws a UsageError where the route does not exist for this TF here.
 */
export function choosePlan(machine: PlanMachine, request: PlanRequest): ChosenPlan {
  const target = request.target ?? resolveTarget(machine, request.tf, request.facts, { pinRelease: request.options.pinRelease });
  const route =
    request.mode === 'repair'
      ? ROUTES.find((r) => r.repairs(target))!
      : PLAN_ROUTES[request.route ?? recommendRoute(machine, target, request.options.cudaRoot).recommended];
  return route.plan(machine, request, target);
}

/**
 * The TensorFlow a repair is for: the one asked for, else pip's. None: a UsageError (exit 2) that says
 * to name one; newer than the catalog: its path (exit 1), nothing to repair against.
 */
export function repairTarget(catalog: Catalog, facts: MachineFacts, tf: string | undefined, os: OsName): string {
  const target = chooseTarget(catalog, facts, tf, os);
  if (!target.tf) throw new CudawizError(commandsText.noTfToRepair, { fix: commandsText.noTfToRepairFix, exitCode: EXIT.usage });
  if (target.beyond) throw beyondCatalogError(target.beyond, os);
  return target.tf;
}

/**
 * The repair plan: `cudawiz repair` and the wizard's "Repair it" both ask here, so the wizard's plan is
 * the headless one (the route the toolkit was made by, the doctor's findings as steps).
 */
export function chooseRepairPlan(machine: PlanMachine, request: Omit<PlanRequest, 'mode' | 'route'>): ChosenPlan {
  return choosePlan(machine, { ...request, mode: 'repair' });
}

/**
 * The findings no setup gets past, whatever the TF or route: a repair stops at them, and so does a new
 * setup, before anything changes. Which stops those are is the registry's (`STOPS[…].blocksEverySetup`
 * in src/doctor/finding-kinds.ts: the driver, the GPU, the platform); another framework's pin is not one
 * of them: a new environment is the way out.
 */
export function stopsEverySetup(findings: readonly Finding[], os: OsName): Finding[] {
  return planRepair(findings, os).stops.filter((i) => i.stop && STOPS[i.stop].blocksEverySetup).map((i) => i.finding);
}

/**
 * The failing findings in the order the repair plan acts on them: what stops it first, then what a step
 * fixes, then what is only listed with its fix. `stop`: the plan stops at it; `remedied`: a step fixes it.
 */
export function repairCauses(findings: readonly Finding[], os: OsName): { finding: Finding; stop: boolean; remedied: boolean }[] {
  const plan = planRepair(findings, os);
  const rank = (i: (typeof plan.items)[number]) => (plan.stops.includes(i) ? 0 : i.remedy ? 1 : 2);
  return plan.items
    .filter((i) => i.finding.status === 'fail')
    .map((i, n) => ({ i, n }))
    .sort((a, b) => rank(a.i) - rank(b.i) || a.n - b.n)
    .map(({ i }) => ({ finding: i.finding, stop: plan.stops.includes(i), remedied: Boolean(i.remedy) }));
}

/**
 * Runs a chosen plan. A run that can change the machine (not a dry run) holds the lock on what it
 * changes, on every route: a second cudawiz on it stops with a LockedError (exit 3) naming the pid;
 * a lock left by a killed run is taken over and said through `lock.onNotice`.
 */
export async function runChosenPlan(plan: ChosenPlan, options: RunOptions, lock: LockOptions = {}): Promise<RunResult> {
  if (options.dryRun) return plan.run(options);
  return withLock(plan.lockTarget, () => plan.run(options), lock);
}
