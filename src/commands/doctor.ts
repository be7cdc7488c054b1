import type { CommandContext } from '../cli/context.js';
import { CudawizError } from '../errors.js';

export async function run(_ctx: CommandContext): Promise<number> {
  throw new CudawizError('cudawiz doctor is not built yet.', { code: 'not-built' });
}
