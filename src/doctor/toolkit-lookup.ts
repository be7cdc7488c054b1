// Which toolkit a directory belongs to, and which toolkit TensorFlow will actually load from.
import type { Requirements } from '../catalog/queries.js';
import { pathFor, toolkitLibraryDir, type OsName } from '../platform.js';
import { doctorText as T } from '../i18n/doctor.js';
import { resolveLibrary } from '../probe/resolution.js';
import type { CudnnCopy, MachineFacts, Toolkit } from '../probe/types.js';
import { compareDotted, major, majorMinor } from '../version.js';

export function samePath(os: OsName, a: string, b: string): boolean {
  const n = (s: string) => pathFor(os).normalize(s).replace(/[\\/]+$/, '');
  return os === 'windows' ? n(a).toLowerCase() === n(b).toLowerCase() : n(a) === n(b);
}

/** CUDA 11 is the first major whose runtime keeps its library names across minors (NVIDIA's minor-version compatibility). */
export const MINOR_COMPAT_FIRST_MAJOR = 11;

export type ServedHow = 'exact' | 'minor-version compatibility';

/** How a runtime of `have` serves a TF built with `built`, or undefined when it cannot. */
export function servesBuild(have: string, built: string): ServedHow | undefined {
  if (majorMinor(have) === majorMinor(built)) return 'exact';
  if (major(have) !== major(built) || major(have) < MINOR_COMPAT_FIRST_MAJOR) return undefined;
  return compareDotted(majorMinor(have), majorMinor(built)) > 0 ? 'minor-version compatibility' : undefined;
}

/**
 * Does this toolkit serve a TF built with CUDA `cuda`? Its own major.minor does; so does a newer minor
 * of the same major from CUDA 11 on (the library names hold within a major: minor-version
 * compatibility, which is why the redist route may install 11.8 for a TF built with 11.2, and why
 * Debian's apt 11.8 serves TF 2.5–2.11). A redist toolkit counts only once its unpack is complete.
 */
export function toolkitServes(t: Toolkit, cuda: string): boolean {
  if (t.majorMinor === cuda) return true;
  if (!t.majorMinor || (t.redist && t.redist.state !== 'complete')) return false;
  return servesBuild(t.majorMinor, cuda) !== undefined;
}

/** The toolkit whose library directory (under any of its names; a distro's is the system's library folder) is `dir`. */
export function toolkitOwning(facts: MachineFacts, dir: string): Toolkit | undefined {
  return facts.toolkits.find((t) => [t.libraryDir, ...(t.libraryDirReal ? [t.libraryDirReal] : []), ...t.aliases.map((a) => toolkitLibraryDir(facts.os, a))].some((lib) => samePath(facts.os, lib, dir)));
}

/** The cuDNN copy that lives in `dir` (a toolkit's, or one on the search path). */
export function cudnnCopyIn(facts: MachineFacts, dir: string): CudnnCopy | undefined {
  const owner = toolkitOwning(facts, dir);
  return facts.cudnn.find((c) => (owner && c.where === 'toolkit' ? samePath(facts.os, c.path, owner.path) : samePath(facts.os, c.path, dir)));
}

/** TensorFlow loads cudart first: the toolkit that wins it is the one TF uses; else the right-version one. */
export function toolkitInUse(facts: MachineFacts, req: Requirements): Toolkit | undefined {
  const cudart = req.libraries.find((l) => l.name === 'cudart');
  const r = cudart ? resolveLibrary(facts.search, cudart.file) : undefined;
  const owner = r?.winner ? toolkitOwning(facts, r.winner.dir) : undefined;
  const serves = (t: Toolkit) => t.readable && req.cuda !== null && toolkitServes(t, req.cuda);
  // A stale copy that wins (an older toolkit's, earlier in the ld cache) is a load-order cause, not TF's
  // toolkit: TF's is the serving one it shadows, whose copy is further down the same search.
  const shadowed = owner && !serves(owner) ? r!.candidates.map((c) => toolkitOwning(facts, c.dir)).find((t) => t && serves(t)) : undefined;
  return shadowed ?? owner ?? facts.toolkits.find(serves);
}

export const describeToolkit = (t: Toolkit): string => T.describeToolkit(t.version, t.path, t.aliases, t.versionSource);
