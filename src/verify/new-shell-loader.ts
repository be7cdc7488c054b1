// Whether a terminal opened now would load TF's libraries from the toolkit: the doctor's own search
// path (probeSearchPath, resolveLibrary) over the environment newShellHost gives. The env step asks
// this before it says "already done"; verify asks the same through probeMachine and the doctor's checks.
import { newShellHost } from '../env/new-shell.js';
import type { Host } from '../host.js';
import { pathFor, toolkitLibraryDir, toolkitSubdirs } from '../platform.js';
import { machineFs } from '../probe/machine-fs.js';
import { probeSearchPath, resolveLibrary } from '../probe/resolution.js';

/** TF's library files a new shell's loader does not take from `toolkitDir` (none found, or another copy first). */
export async function newShellMisses(host: Host, toolkitDir: string, files: readonly string[]): Promise<string[]> {
  const shell = await newShellHost(host);
  const mfs = machineFs(host.os, host.fsRoot);
  const search = await probeSearchPath(shell.host, mfs, []);
  const p = pathFor(host.os);
  const key = (d: string) => {
    const real = mfs.realpath(d).replace(/[\\/]+$/, '');
    return host.os === 'windows' ? real.toLowerCase() : real;
  };
  const mine = new Set([toolkitLibraryDir(host.os, toolkitDir), p.join(toolkitDir, toolkitSubdirs(host.os).cupti)].map(key));
  return files.filter((f) => {
    const winner = resolveLibrary(search, f).winner;
    return !winner || !mine.has(key(winner.dir));
  });
}
