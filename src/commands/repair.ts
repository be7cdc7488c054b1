// `cudawiz repair [--tf V]`: the doctor's scan, then a plan that settles interrupted copies and
// redoes only what is missing or broken; healthy parts are skipped by their own checks.
import type { CommandContext } from '../io/context.js';
import { defaultCudaRoot } from '../platform.js';
import { chooseRepairPlan, repairTarget } from '../plan/choose.js';
import { ProbeCache } from '../probe/cache.js';
import { bundleFromFlag, planMachine, planOptionsFromFlags, runPlanCommand } from './plan-command.js';

export async function run(ctx: CommandContext): Promise<number> {
  const catalog = ctx.catalog();
  for (const w of catalog.warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  // The doctor's probe serves the whole plan: Python and TensorFlow are not imported again.
  const probes = new ProbeCache(ctx.host);
  const facts = await probes.machine({
    cudaRoot: ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env),
    python: typeof ctx.values.python === 'string' ? ctx.values.python : undefined,
    catalog,
  });
  // None: exit 2, name one; newer than the catalog: nothing to repair against, the path says what still works (exit 1).
  const tf = repairTarget(catalog, facts, typeof ctx.values.tf === 'string' ? ctx.values.tf : undefined, ctx.host.os);
  // The chooser repairs a toolkit the way it was made (a redist toolkit as redist), from the doctor's findings;
  // the wizard's "Repair it" asks the same function.
  const fromBundle = await bundleFromFlag(ctx, { tf }, { seedCache: true });
  const options = { ...planOptionsFromFlags(ctx, `cudawiz repair --tf ${tf}`, fromBundle), probes };
  return runPlanCommand(ctx, chooseRepairPlan(planMachine(ctx), { tf, facts, options }));
}
