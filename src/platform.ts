// Every fact about an operating system lives here: paths, file names, variable names, elevation.
// Windows facts are plain data so they can be asserted on Linux (path.win32, never the host's path).
import path from 'node:path';

export type OsName = 'linux' | 'windows';
export const OS_NAMES: readonly OsName[] = ['linux', 'windows'];

export function hostOs(platform: NodeJS.Platform = process.platform): OsName {
  return platform === 'win32' ? 'windows' : 'linux';
}

export function parseOsName(value: string): OsName | undefined {
  const v = value.toLowerCase();
  if (v === 'linux') return 'linux';
  if (v === 'windows' || v === 'win' || v === 'win32') return 'windows';
  return undefined;
}

/** The path functions of that OS, whatever the host is. */
export function pathFor(os: OsName): path.PlatformPath {
  return os === 'windows' ? path.win32 : path.posix;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Windows environment names are case-insensitive; Linux ones are not. */
export function envGet(os: OsName, env: Env, name: string): string | undefined {
  if (os === 'linux') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

export function defaultCudaRoot(os: OsName, env: Env): string {
  if (os === 'linux') return '/usr/local';
  const programFiles = envGet(os, env, 'ProgramFiles') ?? 'C:\\Program Files';
  return path.win32.join(programFiles, 'NVIDIA GPU Computing Toolkit', 'CUDA');
}

/** `10.1` → `/usr/local/cuda-10.1` or `…\CUDA\v10.1`. */
export function toolkitDirName(os: OsName, majorMinor: string): string {
  return os === 'windows' ? `v${majorMinor}` : `cuda-${majorMinor}`;
}

/** The inverse of toolkitDirName: which major.minor a directory name under the root stands for. */
export function toolkitVersionFromDirName(os: OsName, name: string): string | undefined {
  const m = os === 'windows' ? /^v(\d+\.\d+)$/i.exec(name) : /^cuda-(\d+\.\d+)$/.exec(name);
  return m?.[1];
}

export function toolkitDir(os: OsName, root: string, majorMinor: string): string {
  return pathFor(os).join(root, toolkitDirName(os, majorMinor));
}

/** Where a toolkit keeps each kind of file, relative to its directory. */
export function toolkitSubdirs(os: OsName): { bin: string; include: string; lib: string; cupti: string } {
  return os === 'windows'
    ? { bin: 'bin', include: 'include', lib: 'lib\\x64', cupti: 'extras\\CUPTI\\lib64' }
    : { bin: 'bin', include: 'include', lib: 'lib64', cupti: 'extras/CUPTI/lib64' };
}

/** The folder in which TensorFlow's shared libraries sit inside a toolkit: DLLs in bin, .so in lib64. */
export function toolkitLibraryDir(os: OsName, dir: string): string {
  const sub = toolkitSubdirs(os);
  return pathFor(os).join(dir, os === 'windows' ? sub.bin : sub.lib);
}

export function executableName(os: OsName, name: string): string {
  return os === 'windows' ? `${name}.exe` : name;
}

/**
 * The file name the loader looks for. `version` is the soname version as TensorFlow writes it on
 * Linux ("10.1", "11.0", "12", "7"); Windows drops the dot and prefixes 64_ (cudart64_101.dll).
 */
export function libraryFileName(os: OsName, name: string, version: string): string {
  if (os === 'windows') return `${name}64_${version.replace('.', '')}.dll`;
  return `lib${name}.so.${version}`;
}

/** The driver's library: installed by the display driver, never by the toolkit. */
export function driverLibraryFileName(os: OsName): string {
  return os === 'windows' ? 'nvcuda.dll' : 'libcuda.so.1';
}

/** The variable the loader reads: PATH for DLLs, LD_LIBRARY_PATH for shared objects. */
export function librarySearchVar(os: OsName): 'PATH' | 'LD_LIBRARY_PATH' {
  return os === 'windows' ? 'PATH' : 'LD_LIBRARY_PATH';
}

export function pathListSeparator(os: OsName): string {
  return os === 'windows' ? ';' : ':';
}

export function splitPathList(os: OsName, value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(pathListSeparator(os))
    .map((p) => (os === 'windows' ? p.replace(/^"(.*)"$/, '$1') : p))
    .filter((p) => p.length > 0);
}

/** `10.1` → `CUDA_PATH_V10_1`, the variable the Windows installer sets for each toolkit. */
export function cudaPathVarName(majorMinor: string): string {
  return `CUDA_PATH_V${majorMinor.replace('.', '_')}`;
}

export function cudaPathVarVersion(name: string): string | undefined {
  const m = /^CUDA_PATH_V(\d+)_(\d+)$/i.exec(name);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** Where nvidia-smi may live, in the order to try (DCH drivers put it in System32). */
export function nvidiaSmiCandidates(os: OsName, env: Env): string[] {
  // WSL2 mounts the Windows driver's nvidia-smi here, not always on PATH.
  if (os === 'linux') return ['nvidia-smi', '/usr/lib/wsl/lib/nvidia-smi'];
  const systemRoot = envGet(os, env, 'SystemRoot') ?? 'C:\\Windows';
  const programFiles = envGet(os, env, 'ProgramFiles') ?? 'C:\\Program Files';
  return [
    'nvidia-smi.exe',
    path.win32.join(systemRoot, 'System32', 'nvidia-smi.exe'),
    path.win32.join(programFiles, 'NVIDIA Corporation', 'NVSMI', 'nvidia-smi.exe'),
  ];
}

/** Linux: the kernel module's own report of the driver version. */
export const LINUX_DRIVER_VERSION_FILE = '/proc/driver/nvidia/version';

/** The Microsoft C++ runtime DLLs that TensorFlow's Windows build needs. */
export const WINDOWS_MSVC_RUNTIME_DLLS = ['msvcp140.dll', 'msvcp140_1.dll'] as const;

/** cuDNN 8.3+ on Windows needs this on PATH. */
export const WINDOWS_ZLIB_DLL = 'zlibwapi.dll';

/** How a user gets the rights to write into a system directory, said as a fix line. */
export function elevationHint(os: OsName, command: string): string {
  return os === 'windows'
    ? `Open "Terminal (Admin)" (or an elevated PowerShell) and run: ${command}`
    : `Run it with sudo: sudo ${command}   (or pass --cuda-root DIR under your home)`;
}

export function defaultDownloadsDir(os: OsName, env: Env, home: string): string {
  const p = pathFor(os);
  if (os === 'windows') return p.join(envGet(os, env, 'USERPROFILE') ?? home, 'Downloads');
  return env.XDG_DOWNLOAD_DIR ?? p.join(home, 'Downloads');
}

/** Python's name on PATH: Windows installs `python.exe` (and the `py` launcher), Linux `python3`. */
export function pythonCommands(os: OsName): string[] {
  return os === 'windows' ? ['python', 'py'] : ['python3', 'python'];
}
