// The pip route (Linux/WSL2, TF ≥ 2.14): check the driver, make or use a virtual environment, let
// tensorflow[and-cuda] bring CUDA and cuDNN into it, put the wheel folders on the loader path where
// that TF needs it, verify. Nothing outside the venv changes, so the venv is what a run locks.
import path from 'node:path';
import type { Catalog } from '../../catalog/schema.js';
import { WHEEL_BLOCKERS } from '../../doctor/blockers.js';
import { UsageError } from '../../errors.js';
import type { Host } from '../../host.js';
import { pipText } from '../../i18n/pip.js';
import { loadRedistCatalog } from '../../redist/catalog.js';
import { routeFacts, routeFiles } from '../../routes/index.js';
import { stepsText } from '../../i18n/steps.js';
import { chosenPlan } from '../chosen.js';
import { createPlanContext, type PipPlanContext, type PlanOptions } from '../context.js';
import type { Step } from '../runner.js';
import { pipInstallStep, pipVerifyStep, venvPython, venvStep, wheelLoaderPathStep } from '../steps/pip.js';
import { blockerLines, preflightStep } from '../steps/preflight.js';
import { targetRoute, type PlanTarget } from '../target.js';
import type { Route } from './route.js';

export type { PipPlanContext } from '../context.js';

export const DEFAULT_VENV_DIR = '.venv';

/** The pip route's context; a usage error (its facts' reason and fix) where it does not exist for this TF here. */
export function createPipPlanContext(catalog: Catalog, host: Host, options: PlanOptions & { venvDir?: string }, target?: PlanTarget): PipPlanContext {
  const files = target ? targetRoute(target, 'pip') : routeFiles(catalog, loadRedistCatalog(), options.tf, host.os, 'pip');
  if (!files.available) throw new UsageError(files.reason ?? '', files.fix);
  return { ...createPlanContext(catalog, host, options, target), venvDir: path.resolve(options.venvDir ?? DEFAULT_VENV_DIR) };
}

/** Only the driver matters (and, in WSL2, the Windows driver's libcuda): CUDA and cuDNN come as wheels. */
export const pipPreflightStep = preflightStep<PipPlanContext, undefined>({
  title: () => pipText.stepPreflight,
  blockers: WHEEL_BLOCKERS,
  python: venvPython,
  look: () => undefined,
  ready: (ctx) => pipText.onlyDriver(ctx.cuda, String(ctx.req.cudnn)),
  async passed(_ctx, facts, _look, shown) {
    const gpu = facts.gpu.gpus[0];
    const driver = facts.wsl?.windowsDriverVersion ?? facts.gpu.driver.version;
    return { summary: gpu ? pipText.machineSummary(gpu.name, Boolean(facts.wsl?.isWsl), driver ?? '?') : stepsText.ok, evidence: blockerLines(shown) };
  },
});

export function pipRouteSteps(): Step<PipPlanContext>[] {
  return [pipPreflightStep, venvStep, pipInstallStep, wheelLoaderPathStep, pipVerifyStep];
}

export const pipRoute: Route = {
  ...routeFacts('pip'),
  offered: (target) => targetRoute(target, 'pip').available,
  repairs: () => false,
  plan(machine, request, target) {
    const ctx = createPipPlanContext(machine.catalog, machine.host, { ...request.options, tf: request.tf, venvDir: request.options.venvDir ?? DEFAULT_VENV_DIR }, target);
    return chosenPlan('pip', request.mode, ctx, pipRouteSteps(), ctx.venvDir);
  },
};
