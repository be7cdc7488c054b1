// Every CUDA toolkit on the machine: the directories under the CUDA root, the CUDA_PATH* and
// CUDA_HOME variables, and the nvcc on PATH; for each, its version and what it holds or lacks.
import type { Host } from '../host.js';
import { cudaPathVarVersion, envGet, executableName, pathFor, toolkitLibraryDir, toolkitSubdirs, toolkitVersionFromDirName, userToolkitRoot } from '../platform.js';
import { majorMinor } from '../version.js';
import { findOnPath, runProgram } from './commands.js';
import type { MachineFs } from './machine-fs.js';
import { parseCudartHeader, parseNvccRelease, parseVersionJson, parseVersionTxt, type VersionReading } from './toolkit-version.js';
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
    mfs.isFile(p.join(dir, 'include', 'cuda_runtime_api.h'))
  );
}

async function readVersion(host: Host, mfs: MachineFs, dir: string, nvccPath: string | undefined): Promise<VersionReading | undefined> {
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
  if (nvccPath) {
    const r = await runProgram(host, mfs, nvccPath, ['--version']);
    const fromNvcc = parseNvccRelease(r.stdout);
    if (fromNvcc) return { version: fromNvcc, versionSource: 'nvcc' };
  }
  const fromName = toolkitVersionFromDirName(host.os, p.basename(dir));
  return fromName ? { version: fromName, versionSource: 'directory name' } : undefined;
}

function readRedist(host: Host, mfs: MachineFs, dir: string): Toolkit['redist'] {
  const text = mfs.readText(pathFor(host.os).join(dir, '.cudawiz', 'redist.json'));
  if (text === undefined) return undefined;
  try {
    const doc = JSON.parse(text) as { what?: unknown; release?: unknown; builtFor?: unknown; state?: unknown };
    if (doc.what !== 'cuda-redist' || typeof doc.release !== 'string') return undefined;
    return { release: doc.release, builtFor: typeof doc.builtFor === 'string' ? doc.builtFor : undefined, state: typeof doc.state === 'string' ? doc.state : 'unreadable' };
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

async function describe(host: Host, mfs: MachineFs, dir: string, aliases: string[], foundVia: string[]): Promise<Toolkit> {
  const p = pathFor(host.os);
  const libraryDir = toolkitLibraryDir(host.os, dir);
  const base = { path: dir, aliases, foundVia, libraryDir };
  const error = mfs.accessError(dir);
  if (error) {
    const fromName = toolkitVersionFromDirName(host.os, p.basename(dir));
    return { ...base, readable: false, error, components: {}, missing: [], ...(fromName ? { version: fromName, majorMinor: fromName, versionSource: 'directory name' as const } : {}) };
  }
  const components: Toolkit['components'] = {};
  const nvccPath = p.join(dir, toolkitSubdirs(host.os).bin, executableName(host.os, 'nvcc'));
  const hasNvcc = mfs.isFile(nvccPath);
  if (hasNvcc) components.nvcc = [p.basename(nvccPath)];
  for (const file of mfs.list(libraryDir).names ?? []) {
    if (!isSharedLibrary(host.os, file)) continue;
    const c = componentOf(file);
    if (c) (components[c] ??= []).push(file);
  }
  const reading = await readVersion(host, mfs, dir, hasNvcc ? nvccPath : undefined);
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

export async function probeToolkits(host: Host, mfs: MachineFs, cudaRoot: string): Promise<{ toolkits: Toolkit[]; nvccOnPath?: NvccOnPath }> {
  const { list, nvcc } = candidates(host, mfs, cudaRoot);
  const byReal = new Map<string, { path: string; aliases: Set<string>; via: Set<string> }>();
  for (const c of list) {
    if (!mfs.isDir(c.path) && !mfs.accessError(c.path)?.match(/ELOOP|EACCES|EPERM/)) continue;
    const real = mfs.realpath(c.path);
    const key = host.os === 'windows' ? real.toLowerCase().replace(/[\\/]+$/, '') : real.replace(/\/+$/, '');
    const entry = byReal.get(key) ?? { path: real, aliases: new Set<string>(), via: new Set<string>() };
    if (c.path !== real) entry.aliases.add(c.path);
    entry.via.add(c.via);
    byReal.set(key, entry);
  }
  const toolkits = await Promise.all([...byReal.values()].map((e) => describe(host, mfs, e.path, [...e.aliases].filter((a) => a.toLowerCase() !== e.path.toLowerCase()), [...e.via])));
  toolkits.sort((a, b) => a.path.localeCompare(b.path));
  let nvccOnPath: NvccOnPath | undefined;
  if (nvcc) {
    const r = await runProgram(host, mfs, nvcc, ['--version']);
    nvccOnPath = { path: nvcc, release: parseNvccRelease(r.stdout) };
  }
  return { toolkits, nvccOnPath };
}
