// Each command's module, loaded only when that command runs (its flags and help are in spec.ts).
import type { CommandContext } from '../io/context.js';
import type { CommandName } from './spec.js';

export interface CommandModule {
  run(ctx: CommandContext): Promise<number>;
}

export const COMMAND_MODULES: Record<CommandName, () => Promise<CommandModule>> = {
  requirements: () => import('../commands/requirements.js'),
  doctor: () => import('../commands/doctor.js'),
  explain: () => import('../commands/explain.js'),
  download: () => import('../commands/download.js'),
  install: () => import('../commands/install.js'),
  repair: () => import('../commands/repair.js'),
  rollback: () => import('../commands/rollback.js'),
};
