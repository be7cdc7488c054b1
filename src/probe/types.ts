// The facts the probes collect about a machine. Plain data: the doctor, the plan and --json read it.
// Paths are the machine's own (C:\… on Windows), never the host path a fixture maps them to.
import type { LibrarySource, PipCudaFacts, WheelLibraryFix } from '../wheels/index.js';
import type { OsName } from '../platform.js';
import type { CondaEnv } from './conda.js';
import type { DriverInstall, KernelModuleState, UserspaceDriver } from './driver-userspace.js';
import type { ToolkitVersionSource } from './toolkit-version.js';
import type { WslFacts } from './wsl.js';

export interface GpuInfo {
  index: number;
  name: string;
  /** "7.5"; absent when neither nvidia-smi nor the name table knows. */
  computeCapability?: string;
  computeCapabilitySource?: 'nvidia-smi' | 'name-table';
  /** As nvidia-smi prints it: "6144 MiB". */
  memory?: string;
}

export interface DriverFacts {
  version?: string;
  source?: 'nvidia-smi' | 'kernel module' | 'userspace library';
}

export type GpuProbeState =
  /** nvidia-smi answered with at least one GPU. */
  | 'ok'
  /** No nvidia-smi anywhere it is looked for. */
  | 'no-nvidia-smi'
  /** nvidia-smi exists but cannot talk to a driver. */
  | 'no-driver'
  /** The driver answered and listed no GPU. */
  | 'no-devices'
  /** nvidia-smi answered something we cannot read. */
  | 'could-not-collect';

export interface GpuFacts {
  state: GpuProbeState;
  nvidiaSmi?: string;
  gpus: GpuInfo[];
  driver: DriverFacts;
  /** True when this nvidia-smi rejected the compute_cap field (R470 and older). */
  computeCapFieldMissing?: boolean;
  /** The raw line that explains a non-ok state (UUIDs removed). */
  evidence?: string;
  /** Linux: the driver's user-space library and the version its file name carries (answers without the kernel module). */
  userspace?: UserspaceDriver;
  /** Linux: whether the kernel module is loaded (/proc/driver/nvidia/version, /proc/modules). */
  kernelModule?: KernelModuleState;
  /** Linux: how the driver was installed, for a fix that fits (package manager or NVIDIA's .run). */
  install?: DriverInstall;
}

export type ToolkitComponent = 'nvcc' | 'cudart' | 'cublas' | 'cublasLt' | 'cufft' | 'curand' | 'cusolver' | 'cusparse' | 'cupti' | 'cudnn';

export interface CudawizCopyState {
  /** "copying" means a cudawiz copy into this toolkit stopped half-way. */
  state: string;
  manifest: string;
  /** state "scratch": no manifest, only the scratch folders (.cudawiz/incoming, staging) a killed run left. */
  scratch?: string[];
}

export interface Toolkit {
  /** The toolkit's directory (symlinks resolved). */
  path: string;
  /** Other names that lead here: /usr/local/cuda, CUDA_PATH … */
  aliases: string[];
  /** How it was found: cuda-root, CUDA_PATH, CUDA_PATH_V10_1, CUDA_HOME, nvcc on PATH. */
  foundVia: string[];
  readable: boolean;
  /** Why it could not be read (EACCES, ELOOP …). */
  error?: string;
  /** "10.1.243", or "11.8" when only major.minor can be trusted. */
  version?: string;
  majorMinor?: string;
  versionSource?: ToolkitVersionSource;
  /**
   * How its files are laid out: NVIDIA's own folder (bin, include, lib64 under one root: /usr/local/cuda-X.Y,
   * /opt/cuda, a redist toolkit), or a distro's packages spread over /usr (Debian/Ubuntu's
   * lib/x86_64-linux-gnu, Fedora/RHEL's lib64; nvcc in /usr/bin, headers in /usr/include).
   */
  layout: 'toolkit folder' | 'distro packages';
  /** Where its shared libraries are: bin on Windows, lib64 on Linux, the distro's library folder for a distro layout. */
  libraryDir: string;
  /** libraryDir with links resolved, when that differs (CUDA 13's lib64 → lib): the name the ld cache uses. */
  libraryDirReal?: string;
  /** Where the real nvcc sits when it is not bin/nvcc under the root (Debian: /usr/lib/nvidia-cuda-toolkit/bin/nvcc). */
  nvcc?: string;
  /** The package that installed it, as the package database records it (distro layouts). */
  package?: { manager: 'dpkg'; name: string; version: string };
  /** Library files present per component (nvcc: the compiler's file name). */
  components: Partial<Record<ToolkitComponent, string[]>>;
  /** Components TensorFlow needs that this toolkit lacks. */
  missing: ToolkitComponent[];
  cudawizCopy?: CudawizCopyState;
  /** Laid out by cudawiz from NVIDIA's redist archives (.cudawiz/redist.json): a toolkit of its own kind. */
  redist?: {
    release: string;
    builtFor?: string;
    state: string;
    /** Files its manifest lists that are missing or not the size it wrote (toolkit-relative); the sha256 of each is repair's to check. */
    changed?: string[];
  };
}

export interface NvccOnPath {
  path: string;
  release?: string;
}

export interface CudnnCopy {
  /** The directory the copy lives in: a toolkit, or a directory on the library search path. */
  path: string;
  version?: string;
  major?: number;
  header?: string;
  libraries: string[];
  where: 'toolkit' | 'search path';
}

export interface TensorflowFacts {
  version?: string;
  /** The pip distribution that provides it: tensorflow, tensorflow-gpu, tensorflow-cpu … */
  package?: string;
  importable: boolean;
  importError?: string;
  buildInfo?: Record<string, unknown>;
}

export interface PythonFacts {
  state: 'found' | 'not-found' | 'could-not-collect';
  command?: string;
  executable?: string;
  version?: string;
  bits?: number;
  tensorflow?: TensorflowFacts;
  /** The lib folders of pip's nvidia-* wheels (tensorflow[and-cuda]) importable by this interpreter. */
  nvidiaLibDirs?: string[];
  evidence?: string;
}

/** How the loader looks for libraries, in order. */
export type SearchVia = 'System32' | 'PATH' | 'LD_LIBRARY_PATH' | 'conda env' | 'pip wheel' | 'ld cache' | 'toolkit (not on the search path)';

export interface SearchDir {
  dir: string;
  via: SearchVia;
  /** GPU-related library files in it (names only); undefined when the directory cannot be read. */
  files?: string[];
  error?: string;
}

export interface SearchPath {
  os: OsName;
  dirs: SearchDir[];
  /**
   * Linux: the ld cache's entries in its own order (`ldconfig -p`). The cache is per file: for two
   * copies of one soname, the loader takes the one listed first, whatever order their folders came in.
   */
  ldCache?: { name: string; dir: string }[];
  /**
   * Linux: the /etc/ld.so.conf.d files cudawiz wrote (their first line says so), with the folders
   * they give the loader for every program (links resolved): an older run's file can hand the whole
   * machine an older copy, and only cudawiz may take its own file away.
   */
  cudawizConfs?: { file: string; dirs: string[] }[];
}

export interface WindowsExtras {
  zlibwapi?: { path: string; bits?: 32 | 64 };
}

export interface MachineFacts {
  os: OsName;
  cudaRoot: string;
  gpu: GpuFacts;
  toolkits: Toolkit[];
  nvccOnPath?: NvccOnPath;
  cudnn: CudnnCopy[];
  python: PythonFacts;
  search: SearchPath;
  windows?: WindowsExtras;
  /** Linux only: whether this is WSL, and the Windows driver WSL lends to Linux. */
  wsl?: WslFacts;
  /** The CUDA/cuDNN pip's nvidia-* wheels brought into the probed Python (absent when it has none). */
  pip?: PipEnvironment;
  /** The active conda env (CONDA_PREFIX): the CUDA/cuDNN its packages carry; absent outside one. */
  conda?: CondaEnv;
}

/** pip's wheel-provided CUDA in the probed Python, which copy of each wheel library TF loads, and the loader-path fix. */
export interface PipEnvironment extends PipCudaFacts {
  /** For every library a wheel ships: the copy the loader takes (the wheel's, a system one, or none). */
  loads: LibrarySource[];
  /** Whether the wheel folders must be put on the loader path, and the lines that do it. */
  fix: WheelLibraryFix;
}
