// The installer route: NVIDIA's CUDA installer into the system, cuDNN copied into the toolkit, the
// loader path, verify. Also what repair falls back to: its steps skip what is healthy.
import { diagnose } from '../../doctor/diagnose.js';
import { chosenPlan } from '../chosen.js';
import { createPlanContext } from '../context.js';
import { repairSteps } from '../repair.js';
import { setupSteps } from '../setup.js';
import type { Route } from './route.js';

export const toolkitRoute: Route = {
  id: 'toolkit',
  offered: () => true,
  repairs: () => true,
  plan(machine, request) {
    const { catalog, host } = machine;
    const ctx = createPlanContext(catalog, host, { ...request.options, tf: request.tf });
    if (request.mode === 'repair' && request.facts) {
      const findings = diagnose(catalog, request.facts, { tf: ctx.tf, os: ctx.os });
      return chosenPlan('toolkit', 'repair', ctx, repairSteps(findings, ctx));
    }
    return chosenPlan('toolkit', request.mode, ctx, setupSteps());
  },
};
