// The CUDA and cuDNN that pip brought into a Python environment: site-packages/nvidia/<part>/lib
// folders, their versions from the nvidia_*-<version>.dist-info names, and whether the loader will
// search them. Never throws: what cannot be read is said in `error`.
import { verifyText } from '../i18n/verify.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Host } from '../host.js';
import { pipText } from '../i18n/pip.js';
import { WHEEL_NVIDIA_DIR, splitPathList, venvActivateScript } from '../platform.js';
import { wheelLoaderFact } from './loader-facts.js';

export interface WheelPackage {
  /** As pip names it: nvidia-cudnn-cu12. */
  name: string;
  version: string;
  /** The part of CUDA it carries: cudnn, cuda_runtime, cublas … */
  component: string;
  /** site-packages/nvidia/<part>/lib, when the wheel has one. */
  libDir?: string;
  /** The shared libraries in libDir: libcudnn.so.9 … */
  libraries: string[];
}

/** Another package's exact requirement on an nvidia-* wheel: torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26. */
export interface WheelPin {
  name: string;
  version: string;
  wheel: string;
  requirement: string;
}

export interface PipCudaFacts {
  /** false when the Python could not be run or answered nonsense. */
  ran: boolean;
  error?: string;
  python: string;
  /** The environment's directory when this Python is a virtual environment's. */
  venv?: string;
  prefix?: string;
  sitePackages: string[];
  tensorflow?: { name: string; version: string };
  packages: WheelPackage[];
  /** nvidia-cuda-runtime-cuXX's version ("12.5.82"). */
  cudaFromWheels?: string;
  /** nvidia-cudnn-cuXX's version ("9.3.0.75"). */
  cudnnFromWheels?: string;
  libDirs: string[];
  /** Other packages' exact pins on nvidia-* wheels (what keeps an older wheel in place). */
  pins: WheelPin[];
  /** LD_LIBRARY_PATH now, and after `source <venv>/bin/activate` in a fresh bash (undefined: not a venv or no bash). */
  loaderPath: { current: string[]; whenActivated?: string[] };
  /** The wheel folders this python loads itself before tensorflow (cudawiz's loader file), as it reported them run directly, without activation. */
  preloadDirs: string[];
}

const SITE_SCRIPT = [
  'import json, site, sys',
  'paths = list(getattr(site, "getsitepackages", lambda: [])())',
  'try:',
  '    if site.ENABLE_USER_SITE: paths.append(site.getusersitepackages())',
  'except Exception: pass',
  // The folders cudawiz's loader file (venv-loader.ts) will load from: what `site` set up for this python, run directly.
  'preload = [d for m in sys.meta_path for d in (getattr(m, "cudawiz_dirs", None) or [])]',
  'print(json.dumps({"prefix": sys.prefix, "base": getattr(sys, "base_prefix", sys.prefix), "site": paths, "preload": preload}))',
].join('\n');

const DIST_INFO = /^([A-Za-z0-9_.]+)-(\d[^-]*)\.dist-info$/;
const SHARED_LIBRARY = /\.so(\.\d+)*$/;

function list(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** nvidia_cudnn_cu12 → cudnn; nvidia_cuda_runtime_cu12 → cuda_runtime; nvidia_nccl_cu11 → nccl. */
export function wheelComponent(distName: string): string {
  return distName.toLowerCase().replace(/^nvidia[-_]/, '').replace(/[-_]cu\d+$/, '').replace(/-/g, '_');
}

/** The lib folders a wheel installed, from its RECORD (exact), else nvidia/<component>/lib. */
function wheelLibDir(site: string, distInfo: string, component: string): string | undefined {
  let record = '';
  try {
    record = fs.readFileSync(path.join(site, distInfo, 'RECORD'), 'utf8');
  } catch {
    // no RECORD: fall back on the usual layout
  }
  for (const line of record.split(/\r?\n/)) {
    const file = line.split(',')[0];
    const m = new RegExp(`^${WHEEL_NVIDIA_DIR}/([^/]+)/lib/[^/]+$`).exec(file);
    if (m && SHARED_LIBRARY.test(file)) return path.join(site, WHEEL_NVIDIA_DIR, m[1], 'lib');
  }
  const guess = path.join(site, WHEEL_NVIDIA_DIR, component, 'lib');
  return fs.existsSync(guess) ? guess : undefined;
}

/** Requires-Dist lines pinning an nvidia-* wheel to one version (markers after ';' dropped). */
function wheelPins(site: string, distInfo: string, name: string, version: string): WheelPin[] {
  let meta = '';
  try {
    meta = fs.readFileSync(path.join(site, distInfo, 'METADATA'), 'utf8');
  } catch {
    return [];
  }
  const out: WheelPin[] = [];
  for (const m of meta.matchAll(/^Requires-Dist:\s*(nvidia[-_][A-Za-z0-9_.-]+)\s*\(?\s*==\s*([^\s;,)]+)\)?/gm)) {
    out.push({ name, version, wheel: m[1].toLowerCase().replace(/_/g, '-'), requirement: `${m[1].toLowerCase().replace(/_/g, '-')}==${m[2]}` });
  }
  return out;
}

export function scanSitePackages(site: string): { packages: WheelPackage[]; tensorflow?: { name: string; version: string }; pins: WheelPin[] } {
  const packages: WheelPackage[] = [];
  const pins: WheelPin[] = [];
  let tensorflow: { name: string; version: string } | undefined;
  for (const entry of list(site)) {
    const m = DIST_INFO.exec(entry);
    if (!m) continue;
    const name = m[1].toLowerCase().replace(/[_.]/g, '-');
    const isTf = /^(tensorflow|tensorflow-cpu|tensorflow-gpu|tf-nightly)$/.test(name);
    if (isTf) tensorflow = { name, version: m[2] };
    // TensorFlow's own [and-cuda] pins are what it needs; another package's are what may fight them.
    if (!name.startsWith('nvidia-')) {
      if (!isTf) pins.push(...wheelPins(site, entry, name, m[2]));
      continue;
    }
    const component = wheelComponent(name);
    const libDir = wheelLibDir(site, entry, component);
    packages.push({ name, version: m[2], component, libDir, libraries: libDir ? list(libDir).filter((f) => SHARED_LIBRARY.test(f)) : [] });
  }
  return { packages, tensorflow, pins };
}

async function activatedLdLibraryPath(host: Host, venv: string): Promise<string[] | undefined> {
  const activate = venvActivateScript(host.os, venv);
  if (host.os !== 'linux' || !fs.existsSync(activate)) return undefined;
  const r = await host.run('bash', ['-c', 'source "$1" >/dev/null 2>&1; printf %s "${LD_LIBRARY_PATH-}"', 'bash', activate], { timeoutMs: 20_000 });
  return r.exitCode === 0 ? splitPathList('linux', r.stdout) : undefined;
}

export async function probePipCuda(host: Host, python: string): Promise<PipCudaFacts> {
  const facts: PipCudaFacts = { ran: false, python, sitePackages: [], packages: [], libDirs: [], pins: [], loaderPath: { current: splitPathList(host.os, host.env.LD_LIBRARY_PATH) }, preloadDirs: [] };
  const r = await host.run(python, ['-c', SITE_SCRIPT], { timeoutMs: 30_000 });
  if (r.exitCode !== 0) {
    facts.error = r.exitCode === null ? pipText.pythonNotRunnable(python, r.failure) : pipText.pythonExited(python, r.exitCode, r.stderr.trim().split('\n').pop() ?? '');
    return facts;
  }
  let doc: { prefix: string; base: string; site: string[]; preload?: unknown };
  try {
    doc = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
  } catch {
    facts.error = verifyText.unexpectedOutput(python, r.stdout.slice(0, 200));
    return facts;
  }
  facts.ran = true;
  facts.prefix = doc.prefix;
  facts.preloadDirs = Array.isArray(doc.preload) ? doc.preload.filter((d): d is string => typeof d === 'string') : [];
  if (doc.prefix !== doc.base) facts.venv = doc.prefix;
  facts.sitePackages = [...new Set(doc.site)].filter((s) => fs.existsSync(s));
  for (const site of facts.sitePackages) {
    const found = scanSitePackages(site);
    facts.packages.push(...found.packages);
    facts.pins.push(...found.pins);
    facts.tensorflow ??= found.tensorflow;
  }
  facts.cudaFromWheels = facts.packages.find((p) => p.component === 'cuda_runtime')?.version;
  facts.cudnnFromWheels = facts.packages.find((p) => p.component === 'cudnn')?.version;
  facts.libDirs = [...new Set(facts.packages.flatMap((p) => (p.libDir ? [p.libDir] : [])))];
  if (facts.venv) facts.loaderPath.whenActivated = await activatedLdLibraryPath(host, facts.venv);
  return facts;
}

export interface LibrarySource {
  file: string;
  /** The folder the loader takes it from; undefined when none has it. */
  dir?: string;
  from: 'wheels' | 'system' | 'none';
  /** How the loader got there: loaded before TF (cudawiz's loader file), LD_LIBRARY_PATH, TF's RUNPATH into the wheels, or the system's ld.so.cache/default folders. */
  via?: 'preload' | 'LD_LIBRARY_PATH' | 'RUNPATH' | 'system';
}

export interface LoaderView {
  /** LD_LIBRARY_PATH as TF's process will see it (the activated one for a venv). */
  ldLibraryPath: string[];
  /** Folders the system loader searches after that: ld.so.conf entries, /usr/local/cuda/lib64 when listed there … */
  systemDirs: string[];
}

/**
 * Which copy of a library TF will load when wheels and a system toolkit both have it: the dynamic
 * loader tries LD_LIBRARY_PATH, then the RUNPATH TF's libraries carry into site-packages/nvidia
 * (not in releases whose RUNPATH misses, see loader-facts), then the system folders.
 */
export function whichLibraryTfLoads(facts: PipCudaFacts, file: string, view: LoaderView): LibrarySource {
  const wheelDirs = new Set(facts.libDirs.map((d) => path.resolve(d)));
  const has = (dir: string) => fs.existsSync(path.join(dir, file));
  const fromOf = (dir: string): 'wheels' | 'system' => (wheelDirs.has(path.resolve(dir)) ? 'wheels' : 'system');
  // Already loaded under its soname when TF asks for it: glibc returns that object before searching any path.
  for (const dir of facts.preloadDirs ?? []) if (has(dir)) return { file, dir, from: fromOf(dir), via: 'preload' };
  for (const dir of view.ldLibraryPath) if (has(dir)) return { file, dir, from: fromOf(dir), via: 'LD_LIBRARY_PATH' };
  if (wheelLoaderFact(facts.tensorflow?.version)?.need !== 'needed') {
    for (const dir of facts.libDirs) if (has(dir)) return { file, dir, from: 'wheels', via: 'RUNPATH' };
  }
  for (const dir of view.systemDirs) if (has(dir)) return { file, dir, from: fromOf(dir), via: 'system' };
  return { file, from: 'none' };
}
