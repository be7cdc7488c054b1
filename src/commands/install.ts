// `cudawiz install --tf V [--route redist|pip|toolkit] [--venv DIR] …`: the whole setup headless,
// chosen and run the one way the wizard's is. Without --route it takes the route the wizard recommends
// (`recommendRoute`, one rule for both doors) and says which and why. The redist route unpacks only the
// components TF loads into a per-user toolkit; the pip route (Linux/WSL2, TF ≥ 2.14) lets
// tensorflow[and-cuda] bring them into a virtual environment; the toolkit route installs CUDA and cuDNN
// into the system.
import { commandsText } from '../i18n/commands.js';
import { hasAndCuda } from '../catalog/queries.js';
import { requireString } from '../io/flags.js';
import type { CommandContext } from '../io/context.js';
import { UsageError } from '../errors.js';
import { recommendRoute, resolveTarget, type RouteId } from '../plan/choose.js';
import { defaultCudaRoot } from '../platform.js';
import { ProbeCache } from '../probe/cache.js';
import { isRouteId } from '../routes/ids.js';
import { routeTakenLines } from '../routes/index.js';
import { bundleFromFlag, choosePlanFor, planMachine, planOptionsFromFlags, runPlanCommand } from './plan-command.js';

export type InstallRoute = RouteId;

/** --route's value: a route id, or undefined (the recommended route). */
export function routeOption(value: unknown): InstallRoute | undefined {
  if (value === undefined || isRouteId(value)) return value;
  throw new UsageError(commandsText.badRoute(String(value)), commandsText.badRouteFix);
}

/** The one line that tells a toolkit-route user of TF ≥ 2.14 on Linux about the simpler route. */
export function pipRouteNote(tf: string): string {
  return commandsText.pipRouteNote(tf);
}

/** How the user ran us, for "re-run with sudo …" hints: --route named unless it is the one taken without it. */
function commandLine(tf: string, route: InstallRoute, venv: string | undefined, recommended: InstallRoute | undefined): string {
  if (route === 'pip') return `cudawiz install --tf ${tf} --route pip${venv ? ` --venv ${venv}` : ''}`;
  return route === recommended && route !== 'redist' ? `cudawiz install --tf ${tf}` : `cudawiz install --tf ${tf} --route ${route}`;
}

export async function run(ctx: CommandContext): Promise<number> {
  // --from DIR: the bundle (every file re-hashed, or refused with nothing changed) gives the TF and route not given.
  const asked = { tf: typeof ctx.values.tf === 'string' && ctx.values.tf ? ctx.values.tf : undefined, route: routeOption(ctx.values.route) };
  const fromBundle = await bundleFromFlag(ctx, asked);
  const tf = fromBundle?.tf ?? requireString(ctx.values, 'tf', 'cudawiz install --tf 2.3 --cudnn-archive ~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz --yes');
  const given = fromBundle?.route ?? asked.route;
  const venv = typeof ctx.values.venv === 'string' ? ctx.values.venv : undefined;
  for (const w of ctx.catalog().warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  if (venv && given !== 'pip') throw new UsageError(commandsText.venvIsPip, `cudawiz install --tf ${tf} --route pip --venv ${venv}`);
  // The machine is looked at once (one probe, shared with the plan's steps), except by the pip route,
  // which looks at its own venv: the recommended route, the redist release this driver runs, and where
  // TF's CUDA runtime is a distro's (apt's, in /usr), a plan of only what is missing, all come from it.
  const probes = given === 'pip' ? undefined : new ProbeCache(ctx.host);
  const facts = probes ? await probes.machine({ cudaRoot: ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env), catalog: ctx.catalog() }) : undefined;
  const machine = planMachine(ctx);
  const target = resolveTarget(machine, tf, facts, { pinRelease: fromBundle?.pinRelease });
  const choice = recommendRoute(machine, target, ctx.globals.cudaRoot);
  const route = given ?? choice.recommended;
  const say = (line: string) => (ctx.out.json ? ctx.out.error(line) : ctx.out.line(`${ctx.out.symbol('info')} ${line}`));
  if (!given) {
    // Which route, why, and how to take another: stdout carries only JSON lines with --json, so these go to stderr then.
    for (const line of routeTakenLines(tf, route, choice.routes, choice.why)) say(line);
  }
  const plan = choosePlanFor(ctx, { mode: 'install', route, tf, facts, target, options: { ...planOptionsFromFlags(ctx, commandLine(tf, route, venv, choice.recommended), fromBundle), venvDir: venv, ...(probes ? { probes } : {}) } });
  if (route === 'toolkit' && hasAndCuda(ctx.catalog(), plan.ctx.req.row, ctx.host.os)) say(pipRouteNote(tf));
  return runPlanCommand(ctx, plan);
}
