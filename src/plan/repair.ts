// The repair plan from the doctor's findings: the one place a finding becomes a step, through the
// remedies table (src/plan/remedies): a stop before anything changes, else each remedy once — settle a
// half-done copy, the route's own steps only where no toolkit TF can load exists, cuDNN only, load
// order, the venv's wheel folders — then the proof as a new shell sees it.
import type { Finding } from '../doctor/finding.js';
import type { MachineFacts } from '../probe/types.js';
import type { PlanContext } from './context.js';
import { remedySteps } from './remedies/index.js';
import type { Step } from './runner.js';

/** The repair plan for these findings; `facts` are the doctor's (never probed again here). */
export function repairSteps(findings: readonly Finding[], ctx: PlanContext, routeSteps: Step<PlanContext>[], facts: MachineFacts | undefined = ctx.facts): Step<PlanContext>[] {
  if (!facts) return routeSteps;
  return remedySteps(findings, facts, ctx, routeSteps).steps;
}
