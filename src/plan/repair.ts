// The repair plan from the doctor's findings: the one place a finding becomes a step, through the
// finding-kind registry and the remedy records (src/plan/remedies): a stop before anything changes, else
// each remedy once — settle a half-done copy, the route's own steps only where no toolkit TF can load
// exists, a redist toolkit's broken files, cuDNN only, load order, the venv's wheel folders — then the
// proof as a new shell sees it. The context is settled here, when the plan is chosen.
import type { Finding } from '../doctor/finding.js';
import type { MachineFacts } from '../probe/types.js';
import type { PlanContext } from './context.js';
import { remedySteps, settleRepairContext, type RouteRepairSteps } from './remedies/index.js';
import type { Step } from './runner.js';

/** The context a repair runs with (where cuDNN goes, decided now) and its steps; `facts` are the doctor's (never probed again here). */
export function repairPlanFor<C extends PlanContext>(findings: readonly Finding[], ctx: C, route: RouteRepairSteps | Step<PlanContext>[], facts: MachineFacts | undefined = ctx.facts): { ctx: C; steps: Step<PlanContext>[] } {
  if (!facts) return { ctx, steps: Array.isArray(route) ? route : route.install };
  const settled = settleRepairContext(findings, facts, ctx);
  return { ctx: settled, steps: remedySteps(findings, facts, settled, route).steps };
}

/** The repair plan's steps for these findings. */
export function repairSteps(findings: readonly Finding[], ctx: PlanContext, routeSteps: RouteRepairSteps | Step<PlanContext>[], facts: MachineFacts | undefined = ctx.facts): Step<PlanContext>[] {
  return repairPlanFor(findings, ctx, routeSteps, facts).steps;
}
