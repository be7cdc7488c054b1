// What a finding's failure comes down to, as data the repair plan acts on without probing again:
// which copy wins and where the right one is, who owns the stale copy, what TF needs. Ids and
// fields are English (scripts read them from --json); the words are in the finding's title.
import { LINUX_DISTRO_LIBRARY_DIRS, pathFor, WHEEL_NVIDIA_DIR, type OsName } from '../platform.js';
import type { CondaEnv } from '../probe/conda.js';
import type { SearchVia } from '../probe/types.js';

/** Who put the stale copy there, and so who may replace it. */
export type StaleOwner =
  | { manager: 'conda'; prefix: string; packages: { name: string; version: string }[] }
  | { manager: 'pip'; venv?: string; python: string; packages: { name: string; version: string }[] }
  | { manager: 'apt'; dir: string }
  | { manager: 'none' };

/**
 * The package command that replaces a stale copy its manager owns: what the user would type, and
 * what a repair step runs (non-interactive, the same packages), with the packages it replaces.
 */
export interface PackageReplacement {
  manager: 'conda' | 'pip' | 'apt';
  /** As the fix shows it: `conda install -p ENV "cudnn>=8.6,<9"`, `sudo apt-get install libcudnn8=…`. */
  command: string;
  /** What a step runs: conda with --yes, the venv's python -m pip, apt-get -y (as root). */
  run: { file: string; args: string[] };
  /** The package names whose installed versions it replaces (rollback records these). */
  packages: string[];
  /** Where: the conda env's prefix, the venv's python; absent for apt (the system). */
  target?: string;
}

export interface LoadOrderCause {
  kind: 'load-order';
  /** TensorFlow's library files this cause decides, in TF's order. */
  files: string[];
  /** Where the loader takes the shadowed ones from now (none for files only found off the search path). */
  staleDirs: { dir: string; via: SearchVia }[];
  /** Of `files`, those a stale copy shadows; the rest are found only outside the search path. */
  shadowed: string[];
  /** What the stale copy is: "CUDA 11.2", "cuDNN 8.1.1". */
  stale: string[];
  /** The folders holding the right copies, in the order they must come first. */
  rightDirs: string[];
  /** What the right copies are: "CUDA 11.8", "cuDNN 8.6.0". */
  right: string[];
  owner: StaleOwner;
  /**
   * cudawiz's own /etc/ld.so.conf.d files that give the stale folder to every program (an older run's):
   * taking them away is the fix, for the whole machine, not a per-user order around them.
   */
  ownConfs?: string[];
  /** The owner's command that replaces the stale copy, when the owner is a package manager. */
  replace?: PackageReplacement;
}

/** A wrong copy wins and no right one is on the machine; its package manager can replace it. */
export interface StaleCopyCause {
  kind: 'stale-copy';
  file: string;
  dir: string;
  owner: StaleOwner;
  replace: PackageReplacement;
}

export interface PipPinCause {
  kind: 'pip-pin';
  venv?: string;
  python: string;
  /** The wheel TF loads and its version: nvidia-cudnn-cu12 8.9.2.26. */
  wheel: { name: string; version: string };
  /** The package whose requirement holds it there: torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26. */
  pinnedBy: { name: string; version: string; requirement: string };
  /** What TF needs: "9.3". */
  want: string;
}

export interface DriverCause {
  kind: 'driver-too-old';
  driver: string;
  /** The driver the runtime that will really load needs. */
  need: string;
  /** The runtime that sets the floor: conda's cudatoolkit 11.8.0, or TF's CUDA 11.8. */
  runtime: string;
  /** conda: the package pin that fits this driver (cudatoolkit=11.2), when one does. */
  condaPin?: string;
}

/** The right cuDNN is on the machine, only not where TF looks (a copy in another vX.Y folder). */
export interface CudnnElsewhereCause {
  kind: 'cudnn-elsewhere';
  version: string;
  at: string;
}

export type Cause = LoadOrderCause | StaleCopyCause | PipPinCause | DriverCause | CudnnElsewhereCause;

/** The package command a finding's cause names, if any. */
export function replacementOf(cause: Cause | undefined): PackageReplacement | undefined {
  return cause?.kind === 'load-order' || cause?.kind === 'stale-copy' ? cause.replace : undefined;
}

/** The folders of a Linux distro's own packages: a copy there belongs to apt/dnf, not to the user. */
function systemFolder(os: OsName, dir: string): boolean {
  if (os !== 'linux') return false;
  const d = dir.replace(/\/+$/, '');
  // Suffix, so a machine built under a temp root keeps the same verdict.
  return LINUX_DISTRO_LIBRARY_DIRS.some((s) => d === s || d.endsWith(s));
}

/** Who owns the copy in `dir`: the conda env, a pip wheel, the distro's packages, or nobody we can ask. */
export function ownerOf(os: OsName, dir: string, via: SearchVia | undefined, conda: CondaEnv | undefined, pip: { venv?: string; python: string; packages: { name: string; version: string; libDir?: string }[] } | undefined): StaleOwner {
  const p = pathFor(os);
  const same = (a: string, b: string) => p.normalize(a).replace(/[\\/]+$/, '') === p.normalize(b).replace(/[\\/]+$/, '');
  if (conda && (via === 'conda env' || same(dir, conda.libDir))) {
    return { manager: 'conda', prefix: conda.prefix, packages: conda.packages.map((x) => ({ name: x.name, version: x.version })) };
  }
  const wheels = pip?.packages.filter((w) => w.libDir && same(w.libDir, dir)) ?? [];
  if (pip && (wheels.length || via === 'pip wheel' || dir.split(/[\\/]/).includes(WHEEL_NVIDIA_DIR))) {
    return { manager: 'pip', venv: pip.venv, python: pip.python, packages: wheels.map((w) => ({ name: w.name, version: w.version })) };
  }
  if (systemFolder(os, dir)) return { manager: 'apt', dir };
  return { manager: 'none' };
}
