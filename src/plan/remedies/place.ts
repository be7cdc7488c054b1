// Where a cuDNN-only remedy puts cuDNN, decided when the repair plan is chosen (never while its steps
// are assembled or run): the context a plan runs with carries it from the start, so the lock, every
// step's check and the writes name the same folder.
import { toolkitInUse } from '../../doctor/toolkit-lookup.js';
import { cudnnHomeDir, runsAsRoot, userCudnnRoot } from '../../platform.js';
import type { MachineFacts } from '../../probe/types.js';
import { major, majorMinor } from '../../version.js';
import type { PlanContext } from '../context.js';

export interface CudnnPlace {
  /** 'toolkit': into a toolkit's own folder; 'own-folder': a folder of cuDNN's own, per user; 'for-everyone': that folder, for every program (root). */
  place: 'own-folder' | 'for-everyone' | 'toolkit';
  /** The folder, where it is not TF's own toolkit folder (`ctx.toolkitDir`). */
  dir?: string;
}

/**
 * From the toolkit TF loads its CUDA libraries from (the doctor's `toolkitInUse`): beside a distro's
 * CUDA (apt's, in /usr: its packages' files, never written) a folder of its own, per user — under
 * --cuda-root when given, else beside the per-user toolkits; into another NVIDIA toolkit that serves TF
 * (11.8 for TF 2.11, by minor-version compatibility), that toolkit; else TF's own toolkit folder.
 */
export function placeCudnn(facts: MachineFacts, ctx: PlanContext): CudnnPlace {
  const used = toolkitInUse(facts, ctx.req);
  if (!used || !ctx.req.cudnn) return { place: 'toolkit' };
  if (used.layout === 'distro packages') {
    // Run as root (sudo) with no --cuda-root: for every user, as the distro's CUDA is — the folder under
    // the system's CUDA root, given to the loader by a conf file of its own (it holds cuDNN only, so it
    // shadows none of the system's CUDA libraries). Otherwise per user, no administrator.
    const everyone = !ctx.cudaRoot && ctx.os === 'linux' && !ctx.host.fsRoot && runsAsRoot();
    const root = ctx.cudaRoot ?? (everyone ? ctx.root : userCudnnRoot(ctx.os, ctx.host.env, ctx.host.home));
    return { place: everyone ? 'for-everyone' : 'own-folder', dir: cudnnHomeDir(ctx.os, root, majorMinor(ctx.req.cudnn), String(major(ctx.cuda))) };
  }
  if (used.readable && !used.redist && used.path !== ctx.toolkitDir) return { place: 'toolkit', dir: used.path };
  return { place: 'toolkit' };
}
