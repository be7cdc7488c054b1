// `cudawiz install --tf V [--route toolkit|pip|redist] [--venv DIR] …`: the whole setup headless,
// chosen and run the one way the wizard's is. The toolkit route installs CUDA and cuDNN into the
// system; the pip route (Linux/WSL2, TF ≥ 2.14) lets tensorflow[and-cuda] bring them into a virtual
// environment; the redist route unpacks only the components TF loads into a per-user toolkit.
import { commandsText } from '../i18n/commands.js';
import { hasAndCuda } from '../catalog/queries.js';
import { requireString } from '../io/flags.js';
import type { CommandContext } from '../io/context.js';
import { UsageError } from '../errors.js';
import type { RouteId } from '../plan/choose.js';
import { defaultCudaRoot } from '../platform.js';
import { ProbeCache } from '../probe/cache.js';
import { bundleFromFlag, choosePlanFor, planOptionsFromFlags, runPlanCommand } from './plan-command.js';

export type InstallRoute = RouteId;

export function routeOption(value: unknown): InstallRoute {
  if (value === undefined || value === 'toolkit' || value === 'pip' || value === 'redist') return (value as InstallRoute | undefined) ?? 'toolkit';
  throw new UsageError(commandsText.badRoute(String(value)), commandsText.badRouteFix);
}

/** The one line that tells a toolkit-route user of TF ≥ 2.14 on Linux about the simpler route. */
export function pipRouteNote(tf: string): string {
  return commandsText.pipRouteNote(tf);
}

/** How the user ran us, for "re-run with sudo …" hints. */
function commandLine(tf: string, route: InstallRoute, venv: string | undefined): string {
  if (route === 'pip') return `cudawiz install --tf ${tf} --route pip${venv ? ` --venv ${venv}` : ''}`;
  return route === 'redist' ? `cudawiz install --tf ${tf} --route redist` : `cudawiz install --tf ${tf}`;
}

export async function run(ctx: CommandContext): Promise<number> {
  // --from DIR: the bundle (every file re-hashed, or refused with nothing changed) gives the TF and route not given.
  const asked = { tf: typeof ctx.values.tf === 'string' && ctx.values.tf ? ctx.values.tf : undefined, route: ctx.values.route === undefined ? undefined : routeOption(ctx.values.route) };
  const fromBundle = await bundleFromFlag(ctx, asked);
  const tf = fromBundle?.tf ?? requireString(ctx.values, 'tf', 'cudawiz install --tf 2.3 --cudnn-archive ~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz --yes');
  const route = fromBundle?.route ?? asked.route ?? 'toolkit';
  const venv = typeof ctx.values.venv === 'string' ? ctx.values.venv : undefined;
  for (const w of ctx.catalog().warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  if (venv && route !== 'pip') throw new UsageError(commandsText.venvIsPip, `cudawiz install --tf ${tf} --route pip --venv ${venv}`);
  // The installer route looks first (one probe, shared with the plan's steps): where TF's CUDA runtime is
  // a distro's (apt's, in /usr), it plans only what is missing, never NVIDIA's installer beside it.
  const probes = route === 'toolkit' ? new ProbeCache(ctx.host) : undefined;
  const facts = probes ? await probes.machine({ cudaRoot: ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env), catalog: ctx.catalog() }) : undefined;
  const plan = choosePlanFor(ctx, { mode: 'install', route, tf, facts, options: { ...planOptionsFromFlags(ctx, commandLine(tf, route, venv), fromBundle), venvDir: venv, ...(probes ? { probes } : {}) } });
  if (route === 'toolkit' && hasAndCuda(ctx.catalog(), plan.ctx.req.row, ctx.host.os)) {
    // stdout carries only JSON lines with --json; the hint then goes to stderr.
    if (ctx.out.json) ctx.out.error(pipRouteNote(tf));
    else ctx.out.line(`${ctx.out.symbol('info')} ${pipRouteNote(tf)}`);
  }
  return runPlanCommand(ctx, plan);
}
