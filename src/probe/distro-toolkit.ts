// CUDA as the distros package it: no toolkit folder, but the runtime libraries in the system's own
// library folder (Debian/Ubuntu: /usr/lib/<triplet>; Fedora/RHEL: /usr/lib64), nvcc in /usr/bin (on
// Debian a wrapper script for /usr/lib/nvidia-cuda-toolkit/bin/nvcc), headers in /usr/include, and
// /usr/lib/cuda as the CUDA_HOME that build systems look for. Found by looking, whatever is on PATH.
import { pathFor } from '../platform.js';
import type { MachineFs } from './machine-fs.js';
import { parseDpkgStatus } from './toolkit-version.js';

export const DISTRO_PREFIX = '/usr';

/** The system library folders a distro's CUDA packages install into, in the order they are checked. */
export const DISTRO_LIBRARY_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib/powerpc64le-linux-gnu', '/usr/lib64'];

/** Folders that are the distro toolkit under another name (Debian's CUDA_HOME and nvcc's real home). */
const DISTRO_ALIASES = ['/usr/lib/cuda', '/usr/lib/nvidia-cuda-toolkit'];

export const DPKG_STATUS_FILE = '/var/lib/dpkg/status';

/** Debian/Ubuntu: the toolkit's own package, else the runtime's (libcudart11.0, libcudart12). */
const DPKG_PACKAGES = [/^nvidia-cuda-toolkit$/, /^libcudart\d/];

export interface DistroToolkit {
  /** /usr; under a machine rebuilt below another root (a chroot, a test's sysroot), ROOT/usr. */
  prefix: string;
  libraryDir: string;
  /** /usr/bin/nvcc when the distro installed it. */
  nvcc?: string;
  aliases: string[];
  package?: { name: string; version: string };
}

const CUDART = /^libcudart\.so\.\d+/;

/**
 * The distro's CUDA, in its library folders at /; else in a distro library folder the loader's cache
 * lists under another root (ROOT/usr/lib/x86_64-linux-gnu: a chroot's, a machine rebuilt in a temp
 * dir), whose ROOT/usr is then that distro's prefix, its dpkg records ROOT/var/lib/dpkg/status.
 */
export function probeDistroToolkit(mfs: MachineFs, ldCacheDirs: readonly string[] = []): DistroToolkit | undefined {
  const p = pathFor('linux');
  const hasCudart = (d: string) => (mfs.list(d).names ?? []).some((n) => CUDART.test(n));
  const hasNvcc = (prefix: string) => mfs.isFile(p.join(prefix, 'bin', 'nvcc')) && mfs.isFile(p.join(prefix, 'include', 'cuda.h'));
  let root = '';
  let withCudart = DISTRO_LIBRARY_DIRS.find(hasCudart);
  if (!withCudart && !hasNvcc(DISTRO_PREFIX)) {
    for (const d of ldCacheDirs) {
      const lib = DISTRO_LIBRARY_DIRS.find((l) => d.length > l.length && d.endsWith(l));
      if (!lib || !hasCudart(d)) continue;
      [root, withCudart] = [d.slice(0, -lib.length), d];
      break;
    }
  }
  const prefix = root + DISTRO_PREFIX;
  if (!withCudart && !hasNvcc(prefix)) return undefined;
  const libraryDir = withCudart ?? DISTRO_LIBRARY_DIRS.find((d) => mfs.isDir(d)) ?? DISTRO_LIBRARY_DIRS[0];
  const status = mfs.readText(root + DPKG_STATUS_FILE);
  const pkg = status ? parseDpkgStatus(status, DPKG_PACKAGES) : undefined;
  return {
    prefix,
    libraryDir,
    ...(hasNvcc(prefix) ? { nvcc: p.join(prefix, 'bin', 'nvcc') } : {}),
    aliases: DISTRO_ALIASES.map((a) => root + a).filter((a) => mfs.isDir(a)),
    ...(pkg ? { package: pkg } : {}),
  };
}
