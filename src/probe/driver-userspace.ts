// The NVIDIA driver's user-space half and its kernel half, read from files: the version in the name of
// the library the driver installs (libcuda.so.535.261.03, libnvidia-ml.so.535.261.03: it answers even
// when the kernel module is not loaded), whether the module is loaded (/proc/driver/nvidia/version,
// /proc/modules as lsmod reads it), and how the driver was installed (a distro package, or NVIDIA's .run).
import { pathFor } from '../platform.js';
import { DISTRO_LIBRARY_DIRS, DPKG_STATUS_FILE } from './distro-toolkit.js';
import type { MachineFs } from './machine-fs.js';
import { parseDpkgStatus } from './toolkit-version.js';

export const PROC_MODULES_FILE = '/proc/modules';
/** NVIDIA's .run installer leaves its uninstaller here. */
export const RUN_FILE_UNINSTALLER = '/usr/bin/nvidia-uninstall';
const RPM_DATABASES = ['/var/lib/rpm', '/usr/lib/sysimage/rpm'];

/** Debian (libcuda1, nvidia-driver…), Ubuntu (libnvidia-compute-535, nvidia-driver-535…), NVIDIA's own repo (cuda-drivers). */
const DPKG_DRIVER_PACKAGES = [/^libcuda1$/, /^libnvidia-compute-\d+/, /^nvidia-driver(-\d+)?$/, /^nvidia-kernel-dkms$/, /^cuda-drivers/];

export interface UserspaceDriver {
  version: string;
  /** The library whose file name says it: /usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.261.03. */
  library: string;
}

export type DriverInstall =
  | { how: 'package'; manager: 'dpkg'; package: string; version: string }
  | { how: 'package'; manager: 'rpm' }
  | { how: 'run-file'; evidence: string }
  | { how: 'unknown' };

export interface KernelModuleState {
  /** /proc/driver/nvidia/version exists. */
  versionFile: boolean;
  /** nvidia* modules listed in /proc/modules (undefined when it cannot be read, e.g. not Linux). */
  modules?: string[];
}

const VERSIONED = /^lib(?:cuda|nvidia-ml)\.so\.(\d+\.\d+(?:\.\d+)?)$/;

/** The driver version in the user-space library's name: the soname link's target, or a versioned file beside it. */
export function probeUserspaceDriver(mfs: MachineFs): UserspaceDriver | undefined {
  const p = pathFor('linux');
  for (const dir of DISTRO_LIBRARY_DIRS) {
    for (const soname of ['libcuda.so.1', 'libnvidia-ml.so.1']) {
      const link = p.join(dir, soname);
      if (!mfs.isFile(link)) continue;
      const real = mfs.realpath(link);
      const v = VERSIONED.exec(p.basename(real))?.[1];
      if (v) return { version: v, library: real };
    }
    const named = (mfs.list(dir).names ?? []).map((n) => ({ n, v: VERSIONED.exec(n)?.[1] })).find((x) => x.v);
    if (named?.v) return { version: named.v, library: p.join(dir, named.n) };
  }
  return undefined;
}

/** "nvidia_uvm 1 …" lines of /proc/modules → [nvidia_uvm, nvidia]. */
export function parseProcModules(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.split(/\s+/)[0]).filter((n) => /^nvidia/.test(n));
}

export function probeKernelModule(mfs: MachineFs, versionFile: string): KernelModuleState {
  const modules = mfs.readText(PROC_MODULES_FILE);
  return { versionFile: mfs.isFile(versionFile), ...(modules !== undefined ? { modules: parseProcModules(modules) } : {}) };
}

export function probeDriverInstall(mfs: MachineFs, userspace: UserspaceDriver | undefined): DriverInstall {
  if (mfs.isFile(RUN_FILE_UNINSTALLER)) return { how: 'run-file', evidence: RUN_FILE_UNINSTALLER };
  const status = mfs.readText(DPKG_STATUS_FILE);
  const pkg = status ? parseDpkgStatus(status, DPKG_DRIVER_PACKAGES) : undefined;
  if (pkg) return { how: 'package', manager: 'dpkg', package: pkg.name, version: pkg.version };
  if (userspace?.library.startsWith('/usr/lib64/') && RPM_DATABASES.some((d) => mfs.isDir(d))) return { how: 'package', manager: 'rpm' };
  return { how: 'unknown' };
}
