// `cudawiz install --tf V [--route toolkit|pip] [--venv DIR] …`: the whole setup headless, through the
// same plan and runner as the wizard. The toolkit route installs CUDA and cuDNN into the system; the
// pip route (Linux/WSL2, TF ≥ 2.14) lets tensorflow[and-cuda] bring them into a virtual environment.
import { commandsText } from '../i18n/commands.js';
import { hasAndCuda } from '../catalog/queries.js';
import { requireString } from '../cli/args.js';
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../errors.js';
import { createPipPlanContext, DEFAULT_VENV_DIR, pipRouteSteps } from '../plan/pip-route.js';
import { createRedistPlanContext, redistRouteSteps } from '../plan/redist-route.js';
import type { Step } from '../plan/runner.js';
import type { PlanContext } from '../plan/context.js';
import { setupSteps } from '../plan/setup.js';
import { loadRedistCatalog } from '../redist/catalog.js';
import { planContextFromFlags, runPlanCommand } from './plan-command.js';

export type InstallRoute = 'toolkit' | 'pip' | 'redist';

export function routeOption(value: unknown): InstallRoute {
  if (value === undefined || value === 'toolkit' || value === 'pip' || value === 'redist') return (value as InstallRoute | undefined) ?? 'toolkit';
  throw new UsageError(commandsText.badRoute(String(value)), commandsText.badRouteFix);
}

/** The one line that tells a toolkit-route user of TF ≥ 2.14 on Linux about the simpler route. */
export function pipRouteNote(tf: string): string {
  return commandsText.pipRouteNote(tf);
}

export async function run(ctx: CommandContext): Promise<number> {
  const tf = requireString(ctx.values, 'tf', 'cudawiz install --tf 2.3 --cudnn-archive ~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz --yes');
  const route = routeOption(ctx.values.route);
  const venv = typeof ctx.values.venv === 'string' ? ctx.values.venv : undefined;
  for (const w of ctx.catalog().warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  if (route === 'pip') {
    const command = `cudawiz install --tf ${tf} --route pip${venv ? ` --venv ${venv}` : ''}`;
    const base = planContextFromFlags(ctx, tf, command);
    const plan = createPipPlanContext(ctx.catalog(), ctx.host, { ...base, venvDir: venv ?? DEFAULT_VENV_DIR });
    return runPlanCommand(ctx, plan, pipRouteSteps());
  }
  if (route === 'redist') {
    if (venv) throw new UsageError(commandsText.venvIsPip, `cudawiz install --tf ${tf} --route pip --venv ${venv}`);
    const base = planContextFromFlags(ctx, tf, `cudawiz install --tf ${tf} --route redist`);
    const plan = createRedistPlanContext(ctx.catalog(), loadRedistCatalog(ctx.globals.catalog), ctx.host, base);
    return runPlanCommand(ctx, plan, redistRouteSteps() as unknown as Step<PlanContext>[]);
  }
  if (venv) throw new UsageError(commandsText.venvIsPip, `cudawiz install --tf ${tf} --route pip --venv ${venv}`);
  const plan = planContextFromFlags(ctx, tf, `cudawiz install --tf ${tf}`);
  if (hasAndCuda(ctx.catalog(), plan.req.row, ctx.host.os)) {
    // stdout carries only JSON lines with --json; the hint then goes to stderr.
    if (ctx.out.json) ctx.out.error(pipRouteNote(tf));
    else ctx.out.line(`${ctx.out.symbol('info')} ${pipRouteNote(tf)}`);
  }
  return runPlanCommand(ctx, plan, setupSteps());
}
