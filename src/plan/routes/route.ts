// What a route is to the chooser: whether it serves this TF here, and its plan for a request.
import type { Catalog } from '../../catalog/schema.js';
import type { Host } from '../../host.js';
import type { MachineFacts } from '../../probe/types.js';
import type { RedistCatalog } from '../../redist/catalog.js';
import type { ChosenPlan, PlanMode, RouteId } from '../chosen.js';
import type { PlanOptions } from '../context.js';

/** What every route is chosen against: the catalogs and the machine. */
export interface PlanMachine {
  catalog: Catalog;
  host: Host;
  /** The redist catalog, loaded the first time a route asks for it. */
  redist(): RedistCatalog;
}

export interface PlanRequest {
  mode: PlanMode;
  /** install: the route asked for (default toolkit); repair: chosen from the facts (how the toolkit was made). */
  route?: RouteId;
  tf: string;
  /** The doctor's facts for this machine; repair works from them. */
  facts?: MachineFacts;
  options: Omit<PlanOptions, 'tf'> & { venvDir?: string };
}

export interface Route {
  id: RouteId;
  /** Whether this route can set `tf` up on this machine (the wizard's list of ways). */
  offered(machine: PlanMachine, tf: string): boolean;
  /** Whether this route repairs what `facts` show (repair mode only). */
  repairs(machine: PlanMachine, request: PlanRequest): boolean;
  plan(machine: PlanMachine, request: PlanRequest): ChosenPlan;
}
