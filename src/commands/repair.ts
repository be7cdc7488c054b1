// `cudawiz repair [--tf V]`: the doctor's scan, then a plan that settles interrupted copies and
// redoes only what is missing or broken; healthy parts are skipped by their own checks.
import { commandsText } from '../i18n/commands.js';
import { beyondCatalogError } from '../catalog/newer-tf.js';
import type { CommandContext } from '../cli/context.js';
import { chooseTarget } from '../doctor/target.js';
import { CudawizError, EXIT } from '../errors.js';
import { defaultCudaRoot } from '../platform.js';
import { ProbeCache } from '../probe/cache.js';
import { choosePlanFor, planOptionsFromFlags, runPlanCommand } from './plan-command.js';

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
  const target = chooseTarget(catalog, facts, typeof ctx.values.tf === 'string' ? ctx.values.tf : undefined, ctx.host.os);
  if (!target.tf) {
    throw new CudawizError(commandsText.noTfToRepair, {
      fix: commandsText.noTfToRepairFix,
      exitCode: EXIT.usage,
    });
  }
  // Newer than the catalog: nothing to repair against; the path says what still works (exit 1).
  if (target.beyond) throw beyondCatalogError(target.beyond, ctx.host.os);
  // The chooser repairs a toolkit the way it was made (a redist toolkit as redist), from the doctor's findings.
  const options = { ...planOptionsFromFlags(ctx, `cudawiz repair --tf ${target.tf}`), probes };
  return runPlanCommand(ctx, choosePlanFor(ctx, { mode: 'repair', tf: target.tf, facts, options }));
}
