// The redist route: only the CUDA components TF loads, from NVIDIA's per-component archives, into a
// per-user toolkit. A toolkit cudawiz laid out this way is repaired the same way it was made.
import { requirementsFor } from '../../catalog/queries.js';
import { toolkitServes } from '../../doctor/toolkit-lookup.js';
import { redistRouteFor } from '../../redist/choose.js';
import path from 'node:path';
import type { Toolkit } from '../../probe/types.js';
import { chosenPlan } from '../chosen.js';
import { createRedistPlanContext, redistRepairSteps, redistRouteSteps } from '../redist-route.js';
import type { PlanMachine, PlanRequest, Route } from './route.js';

/** The redist toolkit on this machine that serves the request's TF, if any. */
function redistToolkitFor(machine: PlanMachine, request: PlanRequest): Toolkit | undefined {
  const cuda = requirementsFor(machine.catalog, request.tf, machine.host.os).cuda;
  return cuda ? request.facts?.toolkits.find((t) => t.redist && t.majorMinor && toolkitServes(t, cuda)) : undefined;
}

export const redistRoute: Route = {
  id: 'redist',
  offered: (machine, tf) => redistRouteFor(machine.redist(), machine.catalog, requirementsFor(machine.catalog, tf, machine.host.os), machine.host.os).ok,
  repairs: (machine, request) => Boolean(redistToolkitFor(machine, request)),
  plan(machine, request) {
    const made = request.mode === 'repair' ? redistToolkitFor(machine, request) : undefined;
    const options = { ...request.options, tf: request.tf, ...(made ? { cudaRoot: path.dirname(made.path), pinRelease: made.redist!.release } : {}) };
    const ctx = createRedistPlanContext(machine.catalog, machine.redist(), machine.host, options);
    return made ? chosenPlan('redist', 'repair', ctx, redistRepairSteps()) : chosenPlan('redist', request.mode, ctx, redistRouteSteps());
  },
};
