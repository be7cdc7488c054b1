// `cudawiz install --tf V …`: the whole setup headless, through the same plan and runner as the wizard.
import { requireString } from '../cli/args.js';
import type { CommandContext } from '../cli/context.js';
import { setupSteps } from '../plan/setup.js';
import { planContextFromFlags, runPlanCommand } from './plan-command.js';

export async function run(ctx: CommandContext): Promise<number> {
  const tf = requireString(ctx.values, 'tf', 'cudawiz install --tf 2.3 --cudnn-archive ~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz --yes');
  const plan = planContextFromFlags(ctx, tf, `cudawiz install --tf ${tf}`);
  return runPlanCommand(ctx, plan, setupSteps());
}
