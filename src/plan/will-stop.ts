// The one rule for a plan that will stop: a step's check that already knows its run would throw says
// so with that very error (`stop`), and the plan carries the first such stop once — which step, its
// message and fix, its code — with every later step still to do marked as not reached. The headless
// reporter, `--dry-run`'s exit code, install's confirm and the wizard's plan screen all read this.
import type { CudawizError } from '../errors.js';
import type { PlanStop, RunnerEvent } from './events.js';

export interface StepCheck {
  done: boolean;
  reason?: string;
  /** The run would stop at this step: the error its run would throw, as the check already sees it. */
  stop?: CudawizError;
}

export type PlanEvent = Extract<RunnerEvent, { type: 'plan' }>;

/** The plan event for these steps and their checks: the first stop among the steps still to do, and what it leaves unreached. */
export function planEvent(steps: { id: string; title: string; changesMachine?: boolean }[], checks: StepCheck[]): PlanEvent {
  const at = checks.findIndex((c) => !c.done && c.stop);
  const error = at < 0 ? undefined : checks[at].stop!;
  const stop: PlanStop | undefined = error && { step: steps[at].id, title: steps[at].title, code: error.code ?? 'plan-will-stop', message: error.message, ...(error.fix ? { fix: error.fix } : {}) };
  return {
    type: 'plan',
    steps: steps.map((s, i) => {
      const { done, reason } = checks[i];
      return { id: s.id, title: s.title, done, changesMachine: s.changesMachine !== false, ...(reason !== undefined ? { reason } : {}), ...(stop && i > at && !done ? { notReached: true as const } : {}) };
    }),
    ...(stop ? { stop } : {}),
  };
}
