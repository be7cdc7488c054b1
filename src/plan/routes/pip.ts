// The pip route (Linux/WSL2, TF ≥ 2.14): tensorflow[and-cuda] brings CUDA and cuDNN into a virtual
// environment; nothing outside it changes, so the venv is what a run locks.
import { chosenPlan } from '../chosen.js';
import { createPipPlanContext, DEFAULT_VENV_DIR, pipRouteRefusal, pipRouteSteps } from '../pip-route.js';
import type { Route } from './route.js';

export const pipRoute: Route = {
  id: 'pip',
  offered: (machine, tf) => !pipRouteRefusal(machine.catalog, tf, machine.host.os),
  repairs: () => false,
  plan(machine, request) {
    const ctx = createPipPlanContext(machine.catalog, machine.host, { ...request.options, tf: request.tf, venvDir: request.options.venvDir ?? DEFAULT_VENV_DIR });
    return chosenPlan('pip', request.mode, ctx, pipRouteSteps(), ctx.venvDir);
  },
};
