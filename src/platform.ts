// Every fact about an operating system lives here: paths, file names, variable names, elevation.
// Windows facts are plain data so they can be asserted on Linux (path.win32, never the host's path).
import path from 'node:path';
import { stepsText } from './i18n/steps.js';

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

/**
 * Windows keeps who may write a folder in ACLs, which cudawiz does not read (Wine has none to read):
 * so the rule is Windows' defaults, as data. Program Files (both) and %SystemRoot% grant write to
 * Administrators and SYSTEM only; any other folder (C:\tools\cuda, a user profile, a second drive's
 * root) lets ordinary users create or change what is in it. Where the environment says nothing, Windows' own defaults.
 */
export function adminOnlyWindowsRoots(env: Env): string[] {
  const programFiles = ['ProgramFiles', 'ProgramW6432', 'ProgramFiles(x86)'].map((n) => envGet('windows', env, n)).filter((v): v is string => Boolean(v));
  const windows = envGet('windows', env, 'SystemRoot') ?? envGet('windows', env, 'windir') ?? 'C:\\Windows';
  return [...(programFiles.length > 0 ? programFiles : ['C:\\Program Files', 'C:\\Program Files (x86)']), windows];
}

export function defaultCudaRoot(os: OsName, env: Env): string {
  if (os === 'linux') return '/usr/local';
  const programFiles = envGet(os, env, 'ProgramFiles') ?? 'C:\\Program Files';
  return path.win32.join(programFiles, 'NVIDIA GPU Computing Toolkit', 'CUDA');
}

/**
 * Where per-user toolkits live (the redist route, no administrator): the XDG data dir on Linux
 * (~/.local/share/cudawiz/cuda), %LOCALAPPDATA%\cudawiz\CUDA on Windows.
 */
export function userToolkitRoot(os: OsName, env: Env, home: string): string {
  if (os === 'linux') return path.posix.join(env.XDG_DATA_HOME || path.posix.join(home, '.local', 'share'), 'cudawiz', 'cuda');
  const local = envGet(os, env, 'LOCALAPPDATA') ?? path.win32.join(home, 'AppData', 'Local');
  return path.win32.join(local, 'cudawiz', 'CUDA');
}

/**
 * cuDNN beside a toolkit cudawiz does not write into (a distro's CUDA in /usr, owned by its packages):
 * a folder of its own, laid out as NVIDIA's archive is (include, lib64), named for the cuDNN and the
 * CUDA major it is built for — `~/.local/share/cudawiz/cudnn-8.6-cuda11` (or under --cuda-root).
 */
export function cudnnHomeDir(os: OsName, root: string, cudnnMajorMinor: string, cudaMajor: string): string {
  return pathFor(os).join(root, `cudnn-${cudnnMajorMinor}-cuda${cudaMajor}`);
}

/** Whether `dir` is named as cudnnHomeDir names cuDNN's own folder (cudnn-8.6-cuda11). */
export function isCudnnHomeDir(os: OsName, dir: string): boolean {
  return /^cudnn-\d+\.\d+-cuda\d+$/.test(pathFor(os).basename(dir));
}

/** Where cuDNN's own folders go for this user when no --cuda-root is given: beside the per-user toolkits' folder. */
export function userCudnnRoot(os: OsName, env: Env, home: string): string {
  return pathFor(os).dirname(userToolkitRoot(os, env, home));
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


export function cudaPathVarVersion(name: string): string | undefined {
  const m = /^CUDA_PATH_V(\d+)_(\d+)$/i.exec(name);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** Windows' system directory (LoadLibrary searches it before PATH). */
export function windowsSystem32(env: Env): string {
  return path.win32.join(envGet('windows', env, 'SystemRoot') ?? 'C:\\Windows', 'System32');
}

/** Where nvidia-smi may live, in the order to try (DCH drivers put it in System32). */
export function nvidiaSmiCandidates(os: OsName, env: Env): string[] {
  // WSL2 mounts the Windows driver's nvidia-smi here, not always on PATH.
  if (os === 'linux') return ['nvidia-smi', `${WSL_LIBRARY_DIR}/nvidia-smi`];
  const programFiles = envGet(os, env, 'ProgramFiles') ?? 'C:\\Program Files';
  return [
    'nvidia-smi.exe',
    path.win32.join(windowsSystem32(env), 'nvidia-smi.exe'),
    path.win32.join(programFiles, 'NVIDIA Corporation', 'NVSMI', 'nvidia-smi.exe'),
  ];
}

/** Linux: the kernel module's own report of the driver version. */
export const LINUX_DRIVER_VERSION_FILE = '/proc/driver/nvidia/version';

/** The Microsoft C++ runtime DLLs that TensorFlow's Windows build needs. */
export const WINDOWS_MSVC_RUNTIME_DLLS = ['msvcp140.dll', 'msvcp140_1.dll'] as const;

/** cuDNN from WINDOWS_ZLIB_FROM_CUDNN on Windows needs this on PATH (pytorch/builder cuda_install.bat). */
export const WINDOWS_ZLIB_DLL = 'zlibwapi.dll';
export const WINDOWS_ZLIB_FROM_CUDNN = '8.3';

/** How a user gets the rights to write into a system directory, said as a fix line. */
/** NVIDIA's Windows installer writes Program Files and the machine's registry: it runs only as an administrator. */
export function installerNeedsAdministrator(os: OsName): boolean {
  return os === 'windows';
}

export function elevationHint(os: OsName, command: string): string {
  return os === 'windows'
    ? stepsText.elevateWindows(command)
    : stepsText.elevateLinux(command);
}

/** A command as data: what to run, so Windows commands can be asserted on Linux. */
export interface CommandSpec {
  file: string;
  args: string[];
}

/** How to ask whether this process may write system dirs: `net session` exits 0 only elevated; `id -u` prints 0 for root. */
export function elevationProbe(os: OsName): CommandSpec {
  return os === 'windows' ? { file: 'net', args: ['session'] } : { file: 'id', args: ['-u'] };
}

/** Linux asks the kernel (access(2), which also sees read-only mounts); on Windows elevation decides (the installer writes Program Files). */
export function writableProbe(os: OsName, dir: string): CommandSpec | undefined {
  return os === 'linux' ? { file: 'test', args: ['-w', dir] } : undefined;
}

/** Windows: kill a process and all its children; Linux signals the process group instead. */
export function processTreeKill(os: OsName, pid: number): CommandSpec | undefined {
  return os === 'windows' ? { file: 'taskkill', args: ['/PID', String(pid), '/T', '/F'] } : undefined;
}

/** The Linux runfile's own log (it says "See log at /var/log/cuda-installer.log"). */
export const LINUX_CUDA_INSTALLER_LOG = '/var/log/cuda-installer.log';
/** Written by the 10.1+ runfile whatever --tmpdir says (a user's main log); another user's leftover one makes it segfault (easybuilders/easybuild-easyblocks#1835, conda-forge/cudatoolkit-dev-feedstock#44). */
export const LINUX_CUDA_INSTALLER_TMP_LOG = '/tmp/cuda-installer.log';

/** The logs the Windows installer writes under its `-log:<dir>` (pytorch/builder cuda_install.bat). */
export function windowsInstallerLogFiles(logDir: string): string[] {
  return ['LOG.setup.exe.log', 'LOG.RunDll32.exe.log'].map((f) => path.win32.join(logDir, f));
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

// ---------------------------------------------------------------- making libraries findable (src/env)

/** Linux: one file per toolkit here, read by ldconfig through `include /etc/ld.so.conf.d/*.conf`. */
export const LINUX_LD_SO_CONF_DIR = '/etc/ld.so.conf.d';

/**
 * The conf file cudawiz writes for a toolkit. Files are included in sorted name order and an earlier
 * directory wins for a soname both provide, so `first` picks a name that sorts ahead of the others.
 */
export function ldSoConfFileName(majorMinor: string, first = false): string {
  return `${first ? '00-' : ''}cudawiz-cuda-${majorMinor}.conf`;
}

/** The conf file for cuDNN's own folder beside a distro's CUDA (cudnnHomeDir): `cudawiz-cudnn-8.6-cuda11.conf`. */
export function cudnnLdSoConfFileName(cudnnHome: string): string {
  return `cudawiz-${path.posix.basename(cudnnHome)}.conf`;
}

/** Every name cudawiz gives a file in ld.so.conf.d (the two above): the journal accepts no other. */
export const CUDAWIZ_LD_SO_CONF_NAME = /^(00-)?cudawiz-(cuda-\d+\.\d+|cudnn-\d+\.\d+-cuda\d+)\.conf$/;

/** How every file cudawiz writes for the loader or the shell begins: its own files are told apart by it. */
export const CUDAWIZ_FILE_MARK = '# Written by cudawiz';

/** This process runs as root (Linux): what it installs serves every user, not one. */
export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export type ShellSyntax = 'posix' | 'fish';
export interface ShellRc {
  shell: 'bash' | 'zsh' | 'fish';
  /** The startup file an interactive shell reads. */
  file: string;
  syntax: ShellSyntax;
}

/** The rc file of a login shell named by $SHELL; undefined for shells cudawiz does not write to. */
export function shellRcFile(shellPath: string | undefined, home: string, env: Env): ShellRc | undefined {
  const name = path.posix.basename(shellPath ?? '');
  if (name === 'bash') return { shell: 'bash', file: path.posix.join(home, '.bashrc'), syntax: 'posix' };
  if (name === 'zsh') return { shell: 'zsh', file: path.posix.join(env.ZDOTDIR ?? home, '.zshrc'), syntax: 'posix' };
  if (name === 'fish') {
    const config = env.XDG_CONFIG_HOME ?? path.posix.join(home, '.config');
    return { shell: 'fish', file: path.posix.join(config, 'fish', 'config.fish'), syntax: 'fish' };
  }
  return undefined;
}

export type WindowsEnvScope = 'Machine' | 'User';

/** Where Windows persists environment variables: machine-wide and per user. */
export const WINDOWS_ENV_KEYS: Record<WindowsEnvScope, { hive: 'HKLM' | 'HKCU'; dotnetHive: 'LocalMachine' | 'CurrentUser'; subkey: string }> = {
  Machine: { hive: 'HKLM', dotnetHive: 'LocalMachine', subkey: 'SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment' },
  User: { hive: 'HKCU', dotnetHive: 'CurrentUser', subkey: 'Environment' },
};

/**
 * The longest value an environment variable may hold: "The maximum size of a user-defined environment
 * variable is 32,767 characters" (learn.microsoft.com, SetEnvironmentVariable). setx stops at 1024.
 */
export const WINDOWS_ENV_VALUE_MAX = 32_767;
export const WINDOWS_ENV_VALUE_MAX_SOURCE = 'https://learn.microsoft.com/windows/win32/api/processenv/nf-processenv-setenvironmentvariablew';

/** `reg query` for the persisted Path of a scope; its output keeps REG_EXPAND_SZ values unexpanded. */
export function regQueryPathCommand(scope: WindowsEnvScope): { file: string; args: string[] } {
  const key = WINDOWS_ENV_KEYS[scope];
  return { file: 'reg.exe', args: ['query', `${key.hive}\\${key.subkey}`, '/v', 'Path'] };
}

/** `reg query` listing every value of a scope's environment key: exit 0 whenever the key is there, Path or not. */
export function regQueryEnvKeyCommand(scope: WindowsEnvScope): { file: string; args: string[] } {
  const key = WINDOWS_ENV_KEYS[scope];
  return { file: 'reg.exe', args: ['query', `${key.hive}\\${key.subkey}`] };
}

/** A PowerShell literal: single quotes (PowerShell also treats ‘ ’ ‚ ‛ as quotes) are doubled. */
export function powershellQuote(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/** Runs a script in Windows PowerShell; -EncodedCommand (UTF-16LE base64) so no character of it needs escaping. */
export function powershellCommand(script: string): { file: string; args: string[] } {
  return {
    file: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')],
  };
}

/**
 * Writes a persisted Path keeping its registry kind: [Environment]::SetEnvironmentVariable alone
 * writes REG_SZ and expands %SystemRoot% (dotnet/runtime#1442), so the value goes through the
 * registry API and SetEnvironmentVariable only broadcasts WM_SETTINGCHANGE to new processes.
 */
export function setPersistedPathScript(scope: WindowsEnvScope, value: string, kind: 'REG_SZ' | 'REG_EXPAND_SZ'): string {
  const key = WINDOWS_ENV_KEYS[scope];
  const valueKind = kind === 'REG_SZ' ? 'String' : 'ExpandString';
  return [
    `$k = [Microsoft.Win32.Registry]::${key.dotnetHive}.OpenSubKey(${powershellQuote(key.subkey)}, $true)`,
    `$k.SetValue('Path', ${powershellQuote(value)}, [Microsoft.Win32.RegistryValueKind]::${valueKind})`,
    '$k.Close()',
    `[Environment]::SetEnvironmentVariable('CUDAWIZ_PATH_CHANGED', $null, 'User')`,
  ].join('; ');
}

/** Removes a scope's saved Path value (rollback, where there was none before cudawiz). */
export function deletePersistedPathScript(scope: WindowsEnvScope): string {
  const key = WINDOWS_ENV_KEYS[scope];
  return [
    `$k = [Microsoft.Win32.Registry]::${key.dotnetHive}.OpenSubKey(${powershellQuote(key.subkey)}, $true)`,
    "$k.DeleteValue('Path', $false)",
    '$k.Close()',
    `[Environment]::SetEnvironmentVariable('CUDAWIZ_PATH_CHANGED', $null, 'User')`,
  ].join('; ');
}

// ---------------------------------------------------------------- WSL2 (Linux inside Windows)
/** Where WSL mounts the Windows driver's Linux libraries (libcuda.so.1) and its nvidia-smi. */
export const WSL_LIBRARY_DIR = '/usr/lib/wsl/lib';

/** The kernel's own words: WSL1 says "4.4.0-19041-Microsoft", WSL2 "5.15.90.1-microsoft-standard-WSL2". */
export const WSL_KERNEL_FILES = ['/proc/sys/kernel/osrelease', '/proc/version'] as const;

/** Variables WSL sets in every shell of a distribution. */
export const WSL_ENV_MARKERS = ['WSL_DISTRO_NAME', 'WSL_INTEROP'] as const;

/** WSL writes this so the loader finds /usr/lib/wsl/lib (wsl.conf [automount] ldconfig=true). */
export const WSL_LD_CONF = path.posix.join(LINUX_LD_SO_CONF_DIR, 'ld.wsl.conf');

/** CUDA on WSL2 needs Windows 10 21H2 (build 19044) or newer (TF pip.md, "Windows WSL2"). */
export const WSL_MIN_WINDOWS_BUILD = 19044;

/** Windows' cmd.exe as seen from inside WSL: on PATH through interop, else at its mount. */
export const WSL_WINDOWS_CMD = ['/mnt/c/Windows/System32/cmd.exe', 'cmd.exe'] as const;
export const WSL_WINDOWS_DRIVE_MOUNT = '/mnt/c';

/** Where a Linux NVIDIA driver package puts libcuda.so.1; inside WSL a copy there shadows Windows'. */
export const LINUX_DISTRO_LIBRARY_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/lib'] as const;

// ---------------------------------------------------------------- Python virtual environments
/** A venv keeps its programs in bin/ (Linux) or Scripts\ (Windows). */
export function venvBinDir(os: OsName, dir: string): string {
  return pathFor(os).join(dir, os === 'windows' ? 'Scripts' : 'bin');
}

export function venvProgram(os: OsName, dir: string, name: 'python' | 'pip'): string {
  return pathFor(os).join(venvBinDir(os, dir), executableName(os, name));
}

/** The script `source DIR/bin/activate` runs (bash/zsh); the one a wheel-library fix edits. */
export function venvActivateScript(os: OsName, dir: string): string {
  return pathFor(os).join(venvBinDir(os, dir), os === 'windows' ? 'activate.bat' : 'activate');
}

/** Every venv has this file; it tells a venv from any other directory. */
export const VENV_MARKER_FILE = 'pyvenv.cfg';

/** tensorflow[and-cuda]'s wheels unpack their libraries under site-packages/nvidia/<part>/lib. */
export const WHEEL_NVIDIA_DIR = 'nvidia';

/**
 * The UI language the OS is set to, as a BCP 47 tag: on Windows the display language (there is no
 * LANG; ICU reads it from the user's locale settings), elsewhere undefined (the locale variables say it).
 */
export function osUiLocale(os: OsName = hostOs()): string | undefined {
  if (os !== 'windows') return undefined;
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    return undefined;
  }
}
