// Credit what is installed by what TensorFlow can load: for each CUDA runtime the loader finds (the
// copy of libcudart that wins), which catalog TensorFlow versions it serves — exactly (built with that
// CUDA), or within a CUDA major ≥ 11 by minor-version compatibility (built with an older minor of the
// same major: same library names, and a driver of at least the family's minor-compatibility floor).
// Pure: facts + catalog in, verdicts out. The doctor reports them; the plan asks servingRuntimeFor().
import { cudaFamily, requirementsFor, type RequiredLibrary } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import { resolveLibrary } from '../probe/resolution.js';
import { versionFromCudartName } from '../probe/toolkit-version.js';
import type { MachineFacts, SearchVia } from '../probe/types.js';
import { majorMinor } from '../version.js';
import { samePath, servesBuild, toolkitOwning, type ServedHow } from './toolkit-lookup.js';

export { MINOR_COMPAT_FIRST_MAJOR, servesBuild, type ServedHow } from './toolkit-lookup.js';


export interface ServedTf {
  /** The catalog row: "2.11.0". */
  tf: string;
  /** The CUDA that TF was built with. */
  cuda: string;
  how: ServedHow;
  /** The lowest driver this runtime runs on for it: the release's own, or the family's minor-compatibility floor. */
  driverMin?: string;
}

export interface NotServedTf {
  tf: string;
  cuda: string;
  /** Library files TF asks for that the loader does not find (e.g. TF 2.4's libcusolver.so.10 beside 11.8). */
  missing: string[];
}

export interface CudaRuntime {
  /** The folder the loader takes libcudart from. */
  dir: string;
  via: SearchVia;
  /** The libcudart file name the loader resolves there: libcudart.so.11.0, cudart64_110.dll. */
  cudart: string;
  /** The runtime's version and where it was read: the toolkit (or distro packages) it belongs to, a conda env, pip's wheels, or the file's own name. */
  version?: string;
  majorMinor?: string;
  from: 'toolkit' | 'conda env' | 'pip wheel' | 'file name' | 'unknown';
  /** The toolkit it belongs to, when one does. */
  toolkit?: string;
  serves: ServedTf[];
  /** Same-major TF versions it would serve but for missing libraries. */
  notServed: NotServedTf[];
}

const CUDART_FILE = /^(libcudart\.so\.\d+(?:\.\d+)?|cudart64_\d+\.dll)$/i;

/** The CUDA runtime version of the copies in `dir`, by the one rule every verdict uses: its toolkit, conda's record, pip's wheels, else the file's own name. */
export function runtimeVersionIn(facts: MachineFacts, dir: string): Pick<CudaRuntime, 'version' | 'majorMinor' | 'from' | 'toolkit'> {
  return runtimeVersion(facts, dir, facts.search.dirs.find((d) => samePath(facts.os, d.dir, dir))?.files ?? []);
}

function runtimeVersion(facts: MachineFacts, dir: string, files: string[]): Pick<CudaRuntime, 'version' | 'majorMinor' | 'from' | 'toolkit'> {
  const owner = toolkitOwning(facts, dir);
  if (owner?.majorMinor) return { version: owner.version, majorMinor: owner.majorMinor, from: 'toolkit', toolkit: owner.path };
  if (facts.conda?.cuda && samePath(facts.os, dir, facts.conda.libDir)) return { version: facts.conda.cuda.version, majorMinor: facts.conda.cuda.majorMinor, from: 'conda env' };
  const wheels = facts.pip?.cudaFromWheels;
  if (wheels && facts.pip?.libDirs.some((d) => samePath(facts.os, d, dir))) return { version: wheels, majorMinor: majorMinor(wheels), from: 'pip wheel' };
  const named = versionFromCudartName(files);
  if (named) return { version: named, majorMinor: majorMinor(named), from: 'file name' };
  return { from: 'unknown' };
}

/** The catalog's GPU rows for this OS, newest first, with what each needs. */
function gpuRows(catalog: Catalog, os: OsName) {
  const rows = os === 'windows' ? catalog.tensorflow.windows : catalog.tensorflow.linux;
  return rows.flatMap((row) => {
    try {
      const req = requirementsFor(catalog, row.version, os);
      return req.gpuSupported && req.cuda ? [{ tf: row.version, cuda: req.cuda, req }] : [];
    } catch {
      return [];
    }
  });
}

/** Every CUDA runtime that wins on the loader path, and the catalog TF versions each serves. */
export function cudaRuntimes(catalog: Catalog, facts: MachineFacts, os: OsName = facts.os): CudaRuntime[] {
  const names = [...new Set(facts.search.dirs.flatMap((d) => d.files ?? []).filter((f) => CUDART_FILE.test(f)))];
  const rows = gpuRows(catalog, os);
  const out: CudaRuntime[] = [];
  for (const cudart of names) {
    const winner = resolveLibrary(facts.search, cudart).winner;
    if (!winner || out.some((r) => r.cudart === cudart)) continue;
    const files = facts.search.dirs.find((d) => samePath(facts.os, d.dir, winner.dir))?.files ?? [];
    const runtime: CudaRuntime = { dir: winner.dir, via: winner.via, cudart, ...runtimeVersion(facts, winner.dir, files), serves: [], notServed: [] };
    if (runtime.majorMinor) {
      for (const { tf, cuda, req } of rows) {
        const wantCudart = req.libraries.find((l) => l.name === 'cudart');
        const how = wantCudart?.file === cudart ? servesBuild(runtime.majorMinor, cuda) : undefined;
        if (!how) continue;
        const missing = req.libraries.filter((l: RequiredLibrary) => l.from === 'toolkit' && !resolveLibrary(facts.search, l.file).winner).map((l) => l.file);
        if (missing.length) {
          runtime.notServed.push({ tf, cuda, missing });
          continue;
        }
        const floor = how === 'exact' ? req.driverMin ?? undefined : cudaFamily(catalog, runtime.majorMinor)?.minorCompatDriverMin?.[os];
        runtime.serves.push({ tf, cuda, how, ...(floor ? { driverMin: floor } : {}) });
      }
    }
    out.push(runtime);
  }
  return out;
}

/**
 * The plan's question: does a CUDA runtime that serves TF `tf` already resolve on the loader path?
 * Returns that runtime and how it serves `tf` (exactly, or by minor-version compatibility, with the
 * driver floor), or undefined when CUDA must still be installed. cuDNN is not part of the answer.
 */
export function servingRuntimeFor(catalog: Catalog, facts: MachineFacts, tf: string, os: OsName = facts.os): { runtime: CudaRuntime; served: ServedTf } | undefined {
  let row: string;
  try {
    row = requirementsFor(catalog, tf, os).row;
  } catch {
    return undefined;
  }
  for (const runtime of cudaRuntimes(catalog, facts, os)) {
    const served = runtime.serves.find((s) => s.tf === row);
    if (served) return { runtime, served };
  }
  return undefined;
}
