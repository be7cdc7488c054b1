// A plan the chooser picked: its route, its context seen as the common part, and its steps closed
// over with their own context type, so no door casts one route's steps to another's context.
import type { RouteId } from '../routes/ids.js';
import { settle, type PlanContext } from './context.js';
import { runPlan, type RunOptions, type RunResult, type Step } from './runner.js';

export type { RouteId };
export type PlanMode = 'install' | 'repair';

export interface ChosenPlan {
  route: RouteId;
  mode: PlanMode;
  ctx: PlanContext;
  /** What a run changes and so locks: one cudawiz at a time on it. */
  lockTarget: string;
  /** The steps' ids in order (tests, logs); the steps themselves stay typed to their route's context. */
  stepIds: string[];
  run(options: RunOptions): Promise<RunResult>;
}

/** The context is settled here (`settle`): the lock target, the checks and the writes name the same folders for the whole run. */
export function chosenPlan<C extends PlanContext>(route: RouteId, mode: PlanMode, ctx: C, steps: Step<C>[], lockTarget: string = ctx.toolkitDir): ChosenPlan {
  ctx.route = route;
  settle(ctx);
  return { route, mode, ctx, lockTarget, stepIds: steps.map((s) => s.id), run: (options) => runPlan(steps, ctx, options) };
}
