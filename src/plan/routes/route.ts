// What a route is to the chooser: its facts (src/routes/*: id, files, label, admin), whether it is
// offered for the target, whether it repairs what the facts show, and its plan for a request.
import type { RouteFacts, RouteId } from '../../routes/index.js';
import type { ChosenPlan, PlanMode } from '../chosen.js';
import type { PlanOptions } from '../context.js';
import type { MachineFacts } from '../../probe/types.js';
import type { PlanMachine, PlanTarget } from '../target.js';

export type { PlanMachine, PlanTarget } from '../target.js';

export interface PlanRequest {
  mode: PlanMode;
  /** install: the route asked for (default: the recommended one, `recommendRoute`); repair: chosen from the facts (how the toolkit was made). */
  route?: RouteId;
  tf: string;
  /** The doctor's facts for this machine; repair works from them. */
  facts?: MachineFacts;
  /** The target already resolved for this request (the wizard's, per TF pick): not resolved again. */
  target?: PlanTarget;
  options: Omit<PlanOptions, 'tf'> & { venvDir?: string };
}

export interface Route extends RouteFacts {
  /** Whether this route can set the target's TF up on this machine (the wizard's list of ways). */
  offered(target: PlanTarget): boolean;
  /** Whether this route repairs what the target's facts show (repair mode only). */
  repairs(target: PlanTarget): boolean;
  plan(machine: PlanMachine, request: PlanRequest, target: PlanTarget): ChosenPlan;
}
