// The repair plan from the doctor's findings: first settle any cuDNN copy a killed run left half-done,
// then the installer route's steps, which skip what is healthy.
import type { Finding } from '../doctor/finding.js';
import type { PlanContext } from './context.js';
import type { Step } from './runner.js';
import { settleInterruptedCopy } from './steps/settle.js';

const INTERRUPTED = 'copy-interrupted:';

/**
 * The one place a finding becomes a remedy step (remedies per finding kind join here). Today: settle
 * each copy the doctor found half-done (a failing `copy-interrupted:DIR`).
 */
export function remedySteps(findings: readonly Finding[], _ctx: PlanContext): Step<PlanContext>[] {
  return findings.filter((f) => f.id.startsWith(INTERRUPTED) && f.status === 'fail').map((f) => settleInterruptedCopy(f.id.slice(INTERRUPTED.length)));
}

/** The repair plan: the remedies for the doctor's findings, then the route's steps, which skip what is healthy. */
export function repairSteps(findings: readonly Finding[], ctx: PlanContext, routeSteps: Step<PlanContext>[]): Step<PlanContext>[] {
  return [...remedySteps(findings, ctx), ...routeSteps];
}
