// The active conda environment as a library source: conda's cudatoolkit / cuda-cudart / cudnn packages
// put their own CUDA runtime and cuDNN in $CONDA_PREFIX/lib (Linux) or %CONDA_PREFIX%\Library\bin
// (Windows), and conda's TensorFlow loads those first. Which versions they are comes from conda's own
// records, conda-meta/<name>-<version>-<build>.json. Never throws: an unreadable env is "could not collect".
import type { Host } from '../host.js';
import { envGet, pathFor, type OsName } from '../platform.js';
import { majorMinor } from '../version.js';
import type { MachineFs } from './machine-fs.js';

export interface CondaPackage {
  name: string;
  version: string;
  build?: string;
  channel?: string;
  /** The conda-meta record it was read from. */
  record: string;
}

export interface CondaEnv {
  prefix: string;
  /** CONDA_DEFAULT_ENV: "tf", or "base". */
  name?: string;
  /** Where the env's shared libraries are: PREFIX/lib, or PREFIX\Library\bin on Windows. */
  libDir: string;
  /** The CUDA runtime the env carries: from cudatoolkit (≤ 11.x) or cuda-cudart / cuda-version (12+). */
  cuda?: { version: string; majorMinor: string; package: string };
  cudnn?: { version: string; package: string };
  /** The CUDA-related packages in conda-meta. */
  packages: CondaPackage[];
  /** GPU library files in libDir (names only). */
  libraries: string[];
  /** Why conda-meta could not be read. */
  error?: string;
}

/** CONDA_PREFIX's library folder on each OS (conda's own layout). */
export function condaLibraryDir(os: OsName, prefix: string): string {
  return os === 'windows' ? pathFor(os).join(prefix, 'Library', 'bin') : pathFor(os).join(prefix, 'lib');
}

// Package names: anaconda/conda-forge "cudatoolkit" up to 11.8; from 12 NVIDIA's split "cuda-cudart",
// "cuda-runtime" and conda-forge's "cuda-version" pin; cuDNN is "cudnn" in both channels.
const CUDA_PACKAGES = ['cudatoolkit', 'cuda-cudart', 'cuda-runtime', 'cuda-version', 'cuda-toolkit'];
const CUDNN_PACKAGES = ['cudnn'];
const GPU_LIBRARY = /^(lib)?(cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|cupti|cudnn|nvrtc|nvJitLink)[^/\\]*\.(dll|so(\.\d+)*)$/i;

function readRecord(mfs: MachineFs, file: string): CondaPackage | undefined {
  const text = mfs.readText(file);
  if (!text) return undefined;
  try {
    const j = JSON.parse(text) as { name?: unknown; version?: unknown; build?: unknown; channel?: unknown };
    if (typeof j.name !== 'string' || typeof j.version !== 'string') return undefined;
    return { name: j.name, version: j.version, build: typeof j.build === 'string' ? j.build : undefined, channel: typeof j.channel === 'string' ? j.channel : undefined, record: file };
  } catch {
    return undefined;
  }
}

export function probeConda(host: Host, mfs: MachineFs): CondaEnv | undefined {
  const prefix = envGet(host.os, host.env, 'CONDA_PREFIX');
  if (!prefix) return undefined;
  const p = pathFor(host.os);
  const libDir = condaLibraryDir(host.os, prefix);
  const env: CondaEnv = { prefix, name: envGet(host.os, host.env, 'CONDA_DEFAULT_ENV') || undefined, libDir, packages: [], libraries: [] };
  const meta = p.join(prefix, 'conda-meta');
  const listing = mfs.list(meta);
  if (!listing.names) {
    env.error = `${meta}: ${listing.error}`;
    return env;
  }
  // Records are named <name>-<version>-<build>.json; read only the ones whose name could be CUDA's.
  for (const file of listing.names.filter((n) => n.endsWith('.json') && /^(cuda|cudnn)/.test(n))) {
    const pkg = readRecord(mfs, p.join(meta, file));
    if (pkg && (CUDA_PACKAGES.includes(pkg.name) || CUDNN_PACKAGES.includes(pkg.name))) env.packages.push(pkg);
  }
  const cuda = CUDA_PACKAGES.map((n) => env.packages.find((x) => x.name === n)).find(Boolean);
  if (cuda) env.cuda = { version: cuda.version, majorMinor: majorMinor(cuda.version), package: cuda.name };
  const cudnn = env.packages.find((x) => CUDNN_PACKAGES.includes(x.name));
  if (cudnn) env.cudnn = { version: cudnn.version, package: cudnn.name };
  env.libraries = (mfs.list(libDir).names ?? []).filter((n) => GPU_LIBRARY.test(n));
  return env;
}
