// Every CUDA toolkit on the machine, found by looking where NVIDIA and the distros put them: the
// toolkit folders under the CUDA root (/usr/local/cuda-X.Y) and /opt (Arch's /opt/cuda), the
// CUDA_PATH* and CUDA_HOME variables, a distro's packages spread over /usr (Debian/Ubuntu apt,
// Fedora/RHEL), and wherever the nvcc on PATH really sits. For each: its version, read from files only
// (never by running a program that another user may have put there), and what it holds or lacks.
import type { Host } from '../host.js';
import { cudaPathVarVersion, envGet, executableName, pathFor, toolkitLibraryDir, toolkitSubdirs, toolkitVersionFromDirName, userToolkitRoot } from '../platform.js';
import { majorMinor } from '../version.js';
import { findOnPath } from './commands.js';
import { probeDistroToolkit, type DistroToolkit } from './distro-toolkit.js';
import type { MachineFs } from './machine-fs.js';
import { parseCudaHeader, parseCudartHeader, parseVersionJson, parseVersionTxt, versionFromCudartName, type VersionReading } from './toolkit-version.js';
import type { CudawizCopyState, NvccOnPath, Toolkit, ToolkitComponent } from './types.js';

/** The libraries TensorFlow loads from a toolkit, plus the compiler and cuDNN. */
const EXPECTED: ToolkitComponent[] = ['nvcc', 'cudart', 'cublas', 'cufft', 'curand', 'cusolver', 'cusparse', 'cudnn'];
const LIBRARY_COMPONENTS: ToolkitComponent[] = ['cudart', 'cublasLt', 'cublas', 'cufft', 'curand', 'cusolver', 'cusparse', 'cupti', 'cudnn'];

/** Which component a library file belongs to: libcublasLt.so.11 → cublasLt, cudart64_101.dll → cudart. */
export function componentOf(file: string): ToolkitComponent | undefined {
  const base = file.replace(/^lib/, '').toLowerCase();
  for (const c of LIBRARY_COMPONENTS) {
    const lc = c.toLowerCase();
    if (base.startsWith(lc) && /^(64_|\.so|_)/.test(base.slice(lc.length))) {
      if (c === 'cublas' && base.startsWith('cublaslt')) continue;
      return c;
    }
  }
  return undefined;
}

function isSharedLibrary(os: Host['os'], file: string): boolean {
  return os === 'windows' ? /\.dll$/i.test(file) : /\.so(\.\d+)*$/.test(file);
}

interface Candidate {
  path: string;
  via: string;
}

function candidates(host: Host, mfs: MachineFs, cudaRoot: string): { list: Candidate[]; nvcc?: string } {
  const p = pathFor(host.os);
  const list: Candidate[] = [];
  const listing = mfs.list(cudaRoot);
  for (const name of listing.names ?? []) {
    const dir = p.join(cudaRoot, name);
    if (toolkitVersionFromDirName(host.os, name) || (host.os === 'linux' && name === 'cuda')) list.push({ path: dir, via: 'cuda-root' });
  }
  // Arch's cuda package: /opt/cuda, NVIDIA's own layout.
  if (host.os === 'linux' && cudaRoot !== '/opt') {
    for (const name of mfs.list('/opt').names ?? []) {
      if (toolkitVersionFromDirName(host.os, name) || name === 'cuda') list.push({ path: p.join('/opt', name), via: 'cuda-root' });
    }
  }
  // Per-user toolkits from the redist route live outside the CUDA root.
  const userRoot = userToolkitRoot(host.os, host.env, host.home);
  for (const name of mfs.list(userRoot).names ?? []) {
    if (toolkitVersionFromDirName(host.os, name)) list.push({ path: p.join(userRoot, name), via: 'user toolkits' });
  }
  for (const [key, value] of Object.entries(host.env)) {
    if (!value) continue;
    if (cudaPathVarVersion(key) || (host.os === 'windows' ? key.toUpperCase() === 'CUDA_PATH' : key === 'CUDA_PATH')) list.push({ path: value, via: key.toUpperCase() });
  }
  const home = envGet(host.os, host.env, 'CUDA_HOME');
  if (home) list.push({ path: home, via: 'CUDA_HOME' });
  const nvcc = findOnPath(host, mfs, 'nvcc');
  if (nvcc) {
    // nvcc may be a symlink or a wrapper script: a toolkit is wherever the real one sits.
    const real = mfs.realpath(nvcc);
    const dir = p.dirname(p.dirname(real));
    if (looksLikeToolkit(host, mfs, dir)) list.push({ path: dir, via: 'nvcc on PATH' });
  }
  return { list, nvcc };
}

function looksLikeToolkit(host: Host, mfs: MachineFs, dir: string): boolean {
  const p = pathFor(host.os);
  return (
    mfs.isFile(p.join(dir, 'version.txt')) ||
    mfs.isFile(p.join(dir, 'version.json')) ||
    mfs.isFile(p.join(dir, 'include', 'cuda_runtime_api.h')) ||
    mfs.isFile(p.join(dir, 'include', 'cuda.h'))
  );
}

/**
 * A toolkit's version from its files, most trustworthy first. Never from running its nvcc: the folder
 * may be writable by others (/usr/local is group-writable on Debian), and root must not run what they put there.
 */
export function readToolkitVersion(mfs: MachineFs, dir: string, libraries: string[] = mfs.list(toolkitLibraryDir(mfs.os, dir)).names ?? []): VersionReading | undefined {
  return readVersion({ os: mfs.os }, mfs, dir, libraries);
}

function readVersion(host: Pick<Host, 'os'>, mfs: MachineFs, dir: string, libraries: string[]): VersionReading | undefined {
  const p = pathFor(host.os);
  const txt = mfs.readText(p.join(dir, 'version.txt'));
  const fromTxt = txt ? parseVersionTxt(txt) : undefined;
  if (fromTxt) return { version: fromTxt, versionSource: 'version.txt' };
  const json = mfs.readText(p.join(dir, 'version.json'));
  const fromJson = json ? parseVersionJson(json) : undefined;
  if (fromJson) return { version: fromJson, versionSource: 'version.json' };
  const header = mfs.readText(p.join(dir, 'include', 'cuda_runtime_api.h'));
  const fromHeader = header ? parseCudartHeader(header) : undefined;
  if (fromHeader) return { version: fromHeader, versionSource: 'cuda_runtime_api.h' };
  const cudaH = mfs.readText(p.join(dir, 'include', 'cuda.h'));
  const fromCudaH = cudaH ? parseCudaHeader(cudaH) : undefined;
  if (fromCudaH) return { version: fromCudaH, versionSource: 'cuda.h' };
  const fromLib = versionFromCudartName(libraries);
  if (fromLib) return { version: fromLib, versionSource: 'file name' };
  const fromName = toolkitVersionFromDirName(host.os, p.basename(dir));
  return fromName ? { version: fromName, versionSource: 'directory name' } : undefined;
}

/** The manifest's files that are gone or another size now (cheap: no hashing; repair re-checks every sha256). */
function changedRedistFiles(host: Host, mfs: MachineFs, dir: string, files: unknown): string[] {
  if (!Array.isArray(files)) return [];
  const p = pathFor(host.os);
  const out: string[] = [];
  for (const f of files as { path?: unknown; type?: unknown; size?: unknown }[]) {
    // A link's target is a file of the manifest too, judged there; repair re-checks the links themselves.
    if (typeof f?.path !== 'string' || f.type === 'symlink') continue;
    const full = p.join(dir, ...f.path.split('/'));
    if (typeof f.size === 'number' ? mfs.fileSize(full) !== f.size : !mfs.isFile(full)) out.push(f.path);
  }
  return out;
}

function readRedist(host: Host, mfs: MachineFs, dir: string): Toolkit['redist'] {
  const text = mfs.readText(pathFor(host.os).join(dir, '.cudawiz', 'redist.json'));
  if (text === undefined) return undefined;
  try {
    const doc = JSON.parse(text) as { what?: unknown; release?: unknown; builtFor?: unknown; state?: unknown; files?: unknown };
    if (doc.what !== 'cuda-redist' || typeof doc.release !== 'string') return undefined;
    const state = typeof doc.state === 'string' ? doc.state : 'unreadable';
    return { release: doc.release, builtFor: typeof doc.builtFor === 'string' ? doc.builtFor : undefined, state, ...(state === 'complete' ? { changed: changedRedistFiles(host, mfs, dir, doc.files) } : {}) };
  } catch {
    return undefined;
  }
}

function readCopyState(host: Host, mfs: MachineFs, dir: string): CudawizCopyState | undefined {
  const manifest = pathFor(host.os).join(dir, '.cudawiz', 'manifest.json');
  const text = mfs.readText(manifest);
  if (text === undefined) {
    // A run killed before its manifest existed leaves only its scratch folders.
    const scratch = ['incoming', 'staging'].map((n) => pathFor(host.os).join(dir, '.cudawiz', n)).filter((d) => mfs.isDir(d));
    return scratch.length ? { state: 'scratch', manifest, scratch } : undefined;
  }
  try {
    const doc = JSON.parse(text) as { state?: unknown };
    return { state: typeof doc.state === 'string' ? doc.state : 'unreadable', manifest };
  } catch {
    return { state: 'unreadable', manifest };
  }
}

function componentsIn(host: Host, mfs: MachineFs, libraryDir: string, components: Toolkit['components']): string[] {
  const names = mfs.list(libraryDir).names ?? [];
  for (const file of names) {
    if (!isSharedLibrary(host.os, file)) continue;
    const c = componentOf(file);
    if (c) (components[c] ??= []).push(file);
  }
  return names;
}

/** A distro's CUDA: libraries in its library folder, nvcc wherever the package put it, the version from dpkg or the files. */
function describeDistro(host: Host, mfs: MachineFs, d: DistroToolkit, aliases: string[], foundVia: string[]): Toolkit {
  const components: Toolkit['components'] = {};
  const names = componentsIn(host, mfs, d.libraryDir, components);
  if (d.nvcc) components.nvcc = ['nvcc'];
  const reading: VersionReading | undefined = d.package
    ? { version: d.package.version, versionSource: 'dpkg status' }
    : readVersion(host, mfs, d.prefix, names);
  return {
    path: d.prefix,
    aliases,
    foundVia,
    readable: true,
    layout: 'distro packages',
    libraryDir: d.libraryDir,
    ...(d.nvcc ? { nvcc: d.nvcc } : {}),
    ...(reading ? { version: reading.version, majorMinor: majorMinor(reading.version), versionSource: reading.versionSource } : {}),
    ...(d.package ? { package: { manager: 'dpkg' as const, ...d.package } } : {}),
    components,
    missing: EXPECTED.filter((c) => !components[c]?.length),
  };
}

async function describe(host: Host, mfs: MachineFs, dir: string, aliases: string[], foundVia: string[]): Promise<Toolkit> {
  const p = pathFor(host.os);
  const libraryDir = toolkitLibraryDir(host.os, dir);
  const real = mfs.realpath(libraryDir);
  const base = { path: dir, aliases, foundVia, libraryDir, ...(real !== libraryDir ? { libraryDirReal: real } : {}), layout: 'toolkit folder' as const };
  const error = mfs.accessError(dir);
  if (error) {
    const fromName = toolkitVersionFromDirName(host.os, p.basename(dir));
    return { ...base, readable: false, error, components: {}, missing: [], ...(fromName ? { version: fromName, majorMinor: fromName, versionSource: 'directory name' as const } : {}) };
  }
  const components: Toolkit['components'] = {};
  const nvccPath = p.join(dir, toolkitSubdirs(host.os).bin, executableName(host.os, 'nvcc'));
  const hasNvcc = mfs.isFile(nvccPath);
  if (hasNvcc) components.nvcc = [p.basename(nvccPath)];
  const names = componentsIn(host, mfs, libraryDir, components);
  const reading = readVersion(host, mfs, dir, names);
  const redist = readRedist(host, mfs, dir);
  return {
    ...base,
    readable: true,
    ...(reading ? { version: reading.version, majorMinor: majorMinor(reading.version), versionSource: reading.versionSource } : {}),
    components,
    missing: EXPECTED.filter((c) => !components[c]?.length),
    cudawizCopy: readCopyState(host, mfs, dir),
    ...(redist ? { redist } : {}),
  };
}

/** `ldCacheDirs`: the folders the loader's cache lists (a distro's CUDA under another root is found there). */
export async function probeToolkits(host: Host, mfs: MachineFs, cudaRoot: string, ldCacheDirs: readonly string[] = []): Promise<{ toolkits: Toolkit[]; nvccOnPath?: NvccOnPath }> {
  const { list, nvcc } = candidates(host, mfs, cudaRoot);
  const distro = host.os === 'linux' ? probeDistroToolkit(mfs, ldCacheDirs) : undefined;
  const key = (path: string) => (host.os === 'windows' ? path.toLowerCase().replace(/[\\/]+$/, '') : path.replace(/\/+$/, ''));
  const distroVia = new Set<string>(distro ? ['distro packages'] : []);
  const distroAliases = new Set<string>();
  const byReal = new Map<string, { path: string; aliases: Set<string>; via: Set<string> }>();
  for (const c of list) {
    if (!mfs.isDir(c.path) && !mfs.accessError(c.path)?.match(/ELOOP|EACCES|EPERM/)) continue;
    const real = mfs.realpath(c.path);
    // /usr (nvcc in /usr/bin), /usr/lib/cuda and /usr/lib/nvidia-cuda-toolkit are the distro's one toolkit.
    if (distro && (key(real) === distro.prefix || distro.aliases.some((a) => key(a) === key(real)))) {
      distroVia.add(c.via);
      for (const name of [c.path, real]) if (key(name) !== distro.prefix) distroAliases.add(name);
      continue;
    }
    const entry = byReal.get(key(real)) ?? { path: real, aliases: new Set<string>(), via: new Set<string>() };
    if (c.path !== real) entry.aliases.add(c.path);
    entry.via.add(c.via);
    byReal.set(key(real), entry);
  }
  const toolkits = await Promise.all([...byReal.values()].map((e) => describe(host, mfs, e.path, [...e.aliases].filter((a) => a.toLowerCase() !== e.path.toLowerCase()), [...e.via])));
  if (distro) toolkits.push(describeDistro(host, mfs, distro, [...new Set([...distro.aliases, ...distroAliases])].sort(), [...distroVia]));
  toolkits.sort((a, b) => a.path.localeCompare(b.path));
  let nvccOnPath: NvccOnPath | undefined;
  if (nvcc) {
    // Its release is the toolkit's it belongs to, read from that toolkit's files: nvcc itself is never run.
    const p = pathFor(host.os);
    const real = mfs.realpath(nvcc);
    const home = key(p.dirname(p.dirname(real)));
    const owner = toolkits.find((t) => [t.path, ...t.aliases].some((a) => key(a) === home) || (t.nvcc && key(mfs.realpath(t.nvcc)) === key(real)));
    nvccOnPath = { path: nvcc, ...(owner?.majorMinor ? { release: owner.majorMinor } : {}) };
  }
  return { toolkits, nvccOnPath };
}
