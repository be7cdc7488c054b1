// A TensorFlow log → what it means: which CUDA/cuDNN its missing libraries stand for, and one fix per
// problem. Pure: the log's text and the catalog in, plain data out (the command reads files and prints).
import { newestNativeTf } from '../catalog/gpu-support.js';
import { driverMinFor, findCudaRelease, findCudnnRelease, newestTfForCuda, toolkitsShippingLibrary } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { defaultCudaRoot, librarySearchVar, toolkitDir, toolkitLibraryDir, type OsName } from '../platform.js';
import { major, majorMinor } from '../version.js';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface ExplainFinding {
  /** What kind of line this is: missing-toolkit-library, missing-cudnn, cudnn-mismatch, … */
  id: string;
  severity: FindingSeverity;
  /** The file the log could not load, when there is one. */
  library?: string;
  meaning: string;
  fix: string;
  /** The first log line that says so (trimmed), as evidence. */
  line: string;
}

export interface LoggedGpu {
  name: string;
  computeCapability: string;
}

export interface Explanation {
  /** The OS the log came from: given, or guessed from its file names; null when nothing says. */
  os: OsName | null;
  /** The CUDA the log asks for: "10.1", a major alone ("11") when several minors ship the same files, or null. */
  cuda: string | null;
  /** The cuDNN the log asks for: a major ("7") from file names, or major.minor ("7.6") from a version check. */
  cudnn: string | null;
  findings: ExplainFinding[];
  gpus: LoggedGpu[];
  /** TensorFlow said it opened GPU libraries or created a GPU device. */
  healthySignals: number;
}

// ------------------------------------------------------------------ what a library file name stands for
type LibraryKind =
  | { kind: 'toolkit'; name: string }
  | { kind: 'cupti'; cuda: string }
  | { kind: 'cudnn'; major: string }
  | { kind: 'driver' }
  | { kind: 'tensorrt'; major: string }
  | { kind: 'zlib' }
  | { kind: 'msvc' }
  | { kind: 'other' };

const TOOLKIT_NAMES: Record<string, string> = {
  cudart: 'CUDA runtime',
  cublas: 'cuBLAS',
  cublaslt: 'cuBLASLt',
  cufft: 'cuFFT',
  curand: 'cuRAND',
  cusolver: 'cuSOLVER',
  cusparse: 'cuSPARSE',
  nvrtc: 'NVRTC runtime compiler',
  nvjitlink: 'nvJitLink',
};

/** `cudart64_101.dll` / `libcudart.so.10.1` → its base name and version text; undefined for odd names. */
function splitLibraryName(file: string): { base: string; version: string; os: OsName } | undefined {
  const win = /^([a-z_]+?)(?:64)?_([\d.]+)\.dll$/i.exec(file);
  if (win) return { base: win[1].toLowerCase(), version: win[2], os: 'windows' };
  const so = /^lib([a-z_]+?)\.so(?:\.([\d.]+))?$/i.exec(file);
  if (so) return { base: so[1].toLowerCase(), version: so[2] ?? '', os: 'linux' };
  return undefined;
}

function classifyLibrary(file: string): LibraryKind {
  const lower = file.toLowerCase();
  if (lower === 'nvcuda.dll' || /^libcuda\.so(\.\d+)?$/.test(lower)) return { kind: 'driver' };
  if (lower.startsWith('zlibwapi')) return { kind: 'zlib' };
  if (/^(msvcp|vcruntime)140/.test(lower)) return { kind: 'msvc' };
  const parts = splitLibraryName(file);
  if (!parts) return { kind: 'other' };
  // TF 1.0 loaded an unversioned libcudnn.so: the major is then unknown.
  if (parts.base.startsWith('cudnn')) return { kind: 'cudnn', major: parts.version ? String(major(parts.version)) : '' };
  if (parts.base.startsWith('nvinfer')) return { kind: 'tensorrt', major: String(major(parts.version || '0')) };
  if (parts.base === 'cupti') {
    // TF asks for cupti64_<maj><min> / libcupti.so.<maj>.<min> (§2a); 12+ only the major.
    const v = parts.os === 'windows' && /^\d{3}$/.test(parts.version) ? `${parts.version.slice(0, -1)}.${parts.version.slice(-1)}` : parts.version;
    return { kind: 'cupti', cuda: v };
  }
  if (TOOLKIT_NAMES[parts.base]) return { kind: 'toolkit', name: parts.base };
  return { kind: 'other' };
}

function osOfLibrary(file: string): OsName | undefined {
  if (/\.dll$/i.test(file)) return 'windows';
  if (/\.so(\.|$)/.test(file)) return 'linux';
  return undefined;
}

// ------------------------------------------------------------------ the lines we recognise
// TF 1.14 wrote "Could not dlopen library"; later releases "Could not load dynamic library".
const DSO_FAILED = /Could not (?:load dynamic|dlopen) library '([^']+)'(?:;\s*dlerror:\s*([^;\r\n]*))?/;
// TF 1.x: "Couldn't open CUDA library libcudnn.so. LD_LIBRARY_PATH: …" (Windows: "… nvcuda.dll").
const TF1_FAILED = /Couldn't open CUDA library ([\w.+-]+?)\.?(?:\s|$)/;
const LIB_FAILED = /Could not load library ([\w.+-]+?)\.?\s+Error(?: code (\d+)|:\s*([^\r\n]*))/;
const MAKE_SURE = /Please make sure ([\w.+-]+) is in your library path/;
const SO_NOT_FOUND = /(?:^|[\s:'"(])(lib[\w+-]+\.so(?:\.\d+)*): cannot open shared object file/;
const LOCATE_ZLIB = /Could not locate (zlibwapi\.dll)/i;
const MSVC_MISSING = /(msvcp140_1\.dll|msvcp140\.dll)/i;
const MSVC_CONTEXT = /Could not find|not found|missing|was not found|could not be found/i;
const CUDNN_MISMATCH = /Loaded runtime CuDNN library:? (\d+(?:\.\d+)*)(?: \(compatibility version \d+\))? but source was compiled with:? (\d+(?:\.\d+)*)/;
const DRIVER_TOO_OLD = /CUDA driver version is insufficient for CUDA runtime version/;
const NO_DRIVER = /Could not find cuda drivers on your machine/;
const SOME_MISSING = /Cannot dlopen some GPU libraries/;
const KERNEL_IMAGE = /device kernel image is invalid|CUDA_ERROR_INVALID_IMAGE|no kernel image is available for execution on the device/;
const GPU_PROPS = [
  /name: (.+?)\s+computeCapability: (\d+\.\d+)/,
  /StreamExecutor device \(\d+\): (.+?), Compute Capability (\d+\.\d+)/,
  /name: (.+?) major: (\d+) minor: (\d+)/,
];
const OPENED = /Successfully opened dynamic library ([\w.+-]+)/;
const HEALTHY = /Successfully opened dynamic library|Created (?:TensorFlow )?device .*(?:GPU|gpu):\d/;

/** "7605" (cuDNN's old integer form) or "7.6.5" → "7.6.5". */
function cudnnVersionText(v: string): string {
  if (/^\d{4,5}$/.test(v)) {
    const n = Number(v);
    return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 100)}.${n % 100}`;
  }
  return v;
}

interface RawHit {
  line: string;
  kind:
    | { type: 'library'; file: string; dependency?: string; errorCode?: string }
    | { type: 'zlib'; errorCode?: string }
    | { type: 'msvc'; file: string }
    | { type: 'cudnn-mismatch'; loaded: string; compiled: string }
    | { type: 'driver-too-old' }
    | { type: 'no-driver' }
    | { type: 'some-missing' }
    | { type: 'kernel-image' };
}

function scan(text: string): { hits: RawHit[]; gpus: LoggedGpu[]; healthy: number; opened: string[] } {
  const hits: RawHit[] = [];
  const opened: string[] = [];
  const gpus: LoggedGpu[] = [];
  let healthy = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (HEALTHY.test(line)) healthy++;
    const ok = OPENED.exec(line);
    if (ok && !opened.includes(ok[1])) opened.push(ok[1]);
    for (const re of GPU_PROPS) {
      const m = re.exec(line);
      if (m) {
        const cc = m[3] === undefined ? m[2] : `${m[2]}.${m[3]}`;
        if (!gpus.some((g) => g.name === m[1] && g.computeCapability === cc)) gpus.push({ name: m[1], computeCapability: cc });
        break;
      }
    }
    let m: RegExpExecArray | null;
    if ((m = DSO_FAILED.exec(line))) {
      const dependency = /([\w.+-]+\.(?:so(?:\.\d+)*|dll))/.exec(m[2] ?? '')?.[1];
      hits.push({ line, kind: { type: 'library', file: m[1], dependency: dependency && dependency !== m[1] ? dependency : undefined } });
    } else if ((m = TF1_FAILED.exec(line))) {
      hits.push({ line, kind: { type: 'library', file: m[1] } });
    } else if (LOCATE_ZLIB.test(line)) {
      hits.push({ line, kind: { type: 'zlib' } });
    } else if ((m = LIB_FAILED.exec(line))) {
      if (classifyLibrary(m[1]).kind === 'zlib') hits.push({ line, kind: { type: 'zlib', errorCode: m[2] } });
      else {
        const dependency = /([\w.+-]+\.(?:so(?:\.\d+)*|dll))/.exec(m[3] ?? '')?.[1];
        hits.push({ line, kind: { type: 'library', file: m[1], dependency: dependency && dependency !== m[1] ? dependency : undefined, errorCode: m[2] } });
      }
    } else if ((m = MAKE_SURE.exec(line))) {
      hits.push({ line, kind: { type: 'library', file: m[1] } });
    } else if ((m = SO_NOT_FOUND.exec(line))) {
      hits.push({ line, kind: { type: 'library', file: m[1] } });
    } else if ((m = MSVC_MISSING.exec(line)) && MSVC_CONTEXT.test(line)) {
      hits.push({ line, kind: { type: 'msvc', file: /msvcp140_1\.dll/i.test(line) ? 'msvcp140_1.dll' : m[1].toLowerCase() } });
    }
    if ((m = CUDNN_MISMATCH.exec(line))) hits.push({ line, kind: { type: 'cudnn-mismatch', loaded: cudnnVersionText(m[1]), compiled: cudnnVersionText(m[2]) } });
    if (DRIVER_TOO_OLD.test(line)) hits.push({ line, kind: { type: 'driver-too-old' } });
    if (NO_DRIVER.test(line)) hits.push({ line, kind: { type: 'no-driver' } });
    if (SOME_MISSING.test(line)) hits.push({ line, kind: { type: 'some-missing' } });
    if (KERNEL_IMAGE.test(line)) hits.push({ line, kind: { type: 'kernel-image' } });
  }
  return { hits, gpus, healthy, opened };
}

// ------------------------------------------------------------------ versions the log asks for
/**
 * The CUDA versions that ship every toolkit library TF asked for, missing or opened (one build asks for
 * one toolkit's names): libcusparse.so.11 ∩ libcusolver.so.10 → 11.0, i.e. TF 2.4.
 */
function askedCuda(catalog: Catalog, os: OsName, files: string[]): string[] {
  let candidates: string[] | undefined;
  for (const file of files) {
    const ship = toolkitsShippingLibrary(catalog, os, file);
    if (ship.length === 0) continue;
    const next = candidates ? candidates.filter((v) => ship.includes(v)) : ship;
    // Libraries of two different toolkits in one log: keep what the runtime (seen first) says.
    if (next.length > 0) candidates = next;
  }
  return candidates ?? [];
}

/** One version when the files pin it, the major alone when several minors of one major ship them. */
function cudaLabel(versions: string[]): string | null {
  if (versions.length === 0) return null;
  if (versions.length === 1) return versions[0];
  const majors = new Set(versions.map((v) => major(v)));
  return majors.size === 1 ? String([...majors][0]) : versions[versions.length - 1];
}

function cudaWords(versions: string[]): string {
  if (versions.length === 0) return 'CUDA';
  if (versions.length === 1) return `CUDA ${versions[0]}`;
  return `CUDA ${versions[0]}–${versions[versions.length - 1]}`;
}

// ------------------------------------------------------------------ fixes
interface FixContext {
  catalog: Catalog;
  os: OsName;
  cudaVersions: string[];
}

/** The CUDA to install for the log's files: the one TF's table pairs with them, else the newest that ships them. */
function targetCuda(ctx: FixContext): { cuda?: string; tf?: string } {
  const row = newestTfForCuda(ctx.catalog, ctx.os, ctx.cudaVersions);
  return { cuda: row?.cuda ?? ctx.cudaVersions[ctx.cudaVersions.length - 1], tf: row ? majorMinor(row.version) : undefined };
}

function installCudaWords(ctx: FixContext): string {
  const { cuda, tf } = targetCuda(ctx);
  if (!cuda) return 'Install the CUDA toolkit your TensorFlow was built for (cudawiz requirements --tf YOUR_TF)';
  return `Install CUDA ${cuda}${tf ? ` (cudawiz install --tf ${tf})` : ''}`;
}

function libraryFolderWords(ctx: FixContext): string {
  const { cuda } = targetCuda(ctx);
  const where = librarySearchVar(ctx.os);
  return cuda ? `put ${toolkitLibraryDir(ctx.os, toolkitDir(ctx.os, defaultCudaRoot(ctx.os, {}), cuda))} on ${where}` : `put its library folder on ${where}`;
}

function cudnnInstallWords(ctx: FixContext, cudnnMajor: string): string {
  const { cuda, tf } = targetCuda(ctx);
  const archive = cuda ? findCudnnRelease(ctx.catalog, cudnnMajor, cuda, ctx.os)?.archives[ctx.os] : undefined;
  return (
    `Install cuDNN ${cudnnMajor}${cuda ? ` for CUDA ${cuda}` : ''}${archive ? ` (${archive.file})` : ''}` +
    `${cuda ? ` into the CUDA ${cuda} folder` : ''}${tf ? ` (cudawiz install --tf ${tf} --cudnn-archive FILE)` : ''}`
  );
}

const SIDE_BY_SIDE = 'other CUDA versions beside it are fine, nothing to uninstall';

function driverFix(os: OsName): string {
  return os === 'windows'
    ? 'Install or update the NVIDIA display driver (https://www.nvidia.com/Download/index.aspx); nvcuda.dll comes with it, never with the CUDA toolkit.'
    : 'Install or update the NVIDIA driver (your distribution’s nvidia-driver package or https://www.nvidia.com/Download/index.aspx); libcuda.so.1 comes with it. In a container, start it with --gpus all; under WSL2, install the Windows driver, not a Linux one.';
}

function libraryFinding(ctx: FixContext, hit: RawHit & { kind: { type: 'library' } }): ExplainFinding {
  const { file, dependency } = hit.kind;
  const kind = classifyLibrary(file);
  const base = { library: file, line: hit.line };
  if (dependency) {
    const depKind = classifyLibrary(dependency);
    if (depKind.kind === 'driver') {
      return { id: 'missing-driver', severity: 'error', ...base, meaning: `${file} was found, but the NVIDIA driver's ${dependency} it needs could not be loaded.`, fix: driverFix(ctx.os) };
    }
    const depCuda = toolkitsShippingLibrary(ctx.catalog, ctx.os, dependency);
    // nvJitLink / NVRTC carry the CUDA version itself in their soname (libnvJitLink.so.12 → CUDA 12).
    const depParts = splitLibraryName(dependency);
    if (depCuda.length === 0 && depParts && (depParts.base === 'nvjitlink' || depParts.base === 'nvrtc') && depParts.version) depCuda.push(depParts.version);
    const from = depCuda.length ? ` (it comes with ${cudaWords(depCuda)})` : '';
    return {
      id: 'missing-dependency',
      severity: 'error',
      ...base,
      meaning: `${file} was found, but a library it needs, ${dependency}, could not be loaded${from}.`,
      fix: `Make ${dependency} findable: put the folder that holds it on ${librarySearchVar(ctx.os)}${depCuda.length ? `, or install ${cudaWords(depCuda)}` : ''} — ${SIDE_BY_SIDE}.`,
    };
  }
  switch (kind.kind) {
    case 'toolkit': {
      const ship = toolkitsShippingLibrary(ctx.catalog, ctx.os, file);
      const what = TOOLKIT_NAMES[kind.name];
      const meaning = ship.length
        ? `TensorFlow could not load ${file}, the ${what} library of ${cudaWords(ship)}${ship.length === 1 ? ' (no other CUDA version ships this file name)' : ''}.`
        : `TensorFlow could not load ${file}, a ${what} library the catalog does not map to a CUDA version.`;
      const fixCtx = ship.length ? { ...ctx, cudaVersions: ship.filter((v) => ctx.cudaVersions.length === 0 || ctx.cudaVersions.includes(v)) } : ctx;
      if (fixCtx.cudaVersions.length === 0) fixCtx.cudaVersions = ship;
      return { id: 'missing-toolkit-library', severity: 'error', ...base, meaning, fix: `${installCudaWords(fixCtx)}; if it is installed, ${libraryFolderWords(fixCtx)} — ${SIDE_BY_SIDE}.` };
    }
    case 'cupti':
      return {
        id: 'missing-cupti',
        severity: 'info',
        ...base,
        meaning: `${file} is CUDA ${kind.cuda}'s CUPTI profiler library; TensorFlow needs it only for profiling.`,
        fix: `Nothing to do unless you profile; then put CUDA ${kind.cuda}'s extras/CUPTI/lib64 folder on ${librarySearchVar(ctx.os)}.`,
      };
    case 'cudnn': {
      const which = kind.major ? `cuDNN ${kind.major}` : 'cuDNN';
      return {
        id: 'missing-cudnn',
        severity: 'error',
        ...base,
        meaning: `TensorFlow could not load ${file}, a ${which} library (cuDNN is a separate download from the CUDA toolkit).`,
        fix: kind.major
          ? `${cudnnInstallWords(ctx, kind.major)} — it must be cuDNN ${kind.major}.x; a different major does not satisfy this file name.`
          : `Install the cuDNN your TensorFlow was built with (cudawiz requirements --tf YOUR_TF) and put its library folder on ${librarySearchVar(ctx.os)}.`,
      };
    }
    case 'driver':
      return { id: 'missing-driver', severity: 'error', ...base, meaning: `${file} belongs to the NVIDIA display driver, which TensorFlow could not load.`, fix: driverFix(ctx.os) };
    case 'tensorrt':
      return {
        id: 'missing-tensorrt',
        severity: 'info',
        ...base,
        meaning: `${file} is TensorRT ${kind.major}, used only by TF-TRT model optimisation; TensorFlow runs on the GPU without it.`,
        fix: 'Nothing to do unless you use TF-TRT; then install TensorRT ' + kind.major + '.',
      };
    case 'zlib':
    case 'msvc':
    case 'other':
      return {
        id: 'missing-library',
        severity: 'warning',
        ...base,
        meaning: `TensorFlow could not load ${file}.`,
        fix: `Find which package provides ${file} and put its folder on ${librarySearchVar(ctx.os)}.`,
      };
  }
}

function otherFinding(ctx: FixContext, hit: RawHit, gpus: LoggedGpu[]): ExplainFinding | undefined {
  const line = hit.line;
  switch (hit.kind.type) {
    case 'zlib':
      return {
        id: 'missing-zlib',
        severity: 'error',
        library: 'zlibwapi.dll',
        line,
        meaning:
          hit.kind.errorCode === '193'
            ? 'A zlibwapi.dll was found but it is the 32-bit one; cuDNN 8.3 and later on Windows need the 64-bit zlibwapi.dll.'
            : 'cuDNN 8.3 and later on Windows need zlibwapi.dll (zlib) and could not find it on PATH.',
        fix: 'Put the 64-bit zlibwapi.dll (zlib123dllx64.zip from http://www.winimage.com/zLibDll/) in the CUDA bin folder, or use the cuDNN 8.1 that TF 2.5–2.10 were tested with.',
      };
    case 'msvc':
      return {
        id: 'missing-msvc-runtime',
        severity: 'error',
        library: hit.kind.file,
        line,
        meaning: `${hit.kind.file} is part of the Microsoft Visual C++ runtime; TensorFlow 2.1 and later will not import without msvcp140_1.dll.`,
        fix: 'Install the Microsoft Visual C++ Redistributable for Visual Studio 2015–2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe',
      };
    case 'cudnn-mismatch': {
      const { loaded, compiled } = hit.kind;
      const sameMajor = major(loaded) === major(compiled);
      const want = majorMinor(compiled);
      return {
        id: 'cudnn-mismatch',
        severity: 'error',
        line,
        meaning: `TensorFlow was built with cuDNN ${compiled} but loaded cuDNN ${loaded}; it needs the same major and an equal or newer minor${sameMajor ? ' (this one is older)' : ''}.`,
        fix: `Install cuDNN ${want} or a newer ${major(compiled)}.x, and make sure no older copy (conda env, another toolkit's folder) comes first on ${librarySearchVar(ctx.os)}.`,
      };
    }
    case 'driver-too-old': {
      const { cuda } = targetCuda(ctx);
      const release = cuda ? findCudaRelease(ctx.catalog, cuda) : undefined;
      const min = release ? driverMinFor(ctx.catalog, release, ctx.os).min : undefined;
      const target = min ? ` to ${min} or newer (CUDA ${cuda}'s minimum on ${ctx.os === 'windows' ? 'Windows' : 'Linux'})` : cuda ? ` to one that supports CUDA ${cuda}` : '';
      return {
        id: 'driver-too-old',
        severity: 'error',
        line,
        meaning: `The NVIDIA driver is older than the CUDA${cuda ? ` ${cuda}` : ''} runtime TensorFlow loaded (nvidia-smi's "CUDA Version" is the newest it supports).`,
        fix: `Update the NVIDIA driver${target}${min ? '' : ' (cudawiz requirements --tf YOUR_TF shows the minimum)'}; the toolkit can stay.`,
      };
    }
    case 'no-driver':
      return { id: 'missing-driver', severity: 'error', line, meaning: 'TensorFlow found no NVIDIA driver (libcuda / nvcuda) on this machine, so it runs on the CPU.', fix: driverFix(ctx.os) };
    case 'some-missing':
      return {
        id: 'some-libraries-missing',
        severity: 'error',
        line,
        meaning: 'TensorFlow skipped the GPU because some CUDA/cuDNN libraries did not load; the log does not name them here.',
        fix: 'Run cudawiz doctor, which checks each library TensorFlow loads, or run again with TF_CPP_MIN_LOG_LEVEL=0 so TensorFlow names the missing files, and explain that log.',
      };
    case 'kernel-image': {
      const gpu = gpus[0];
      const which = gpu ? `${gpu.name} (compute capability ${gpu.computeCapability})` : 'this GPU';
      const native = gpu ? newestNativeTf(ctx.catalog, gpu.computeCapability, ctx.os) : undefined;
      const use = native
        ? `Use TensorFlow ${native.tf}, the newest line with machine code for compute capability ${gpu!.computeCapability} (cudawiz requirements --tf ${native.tf})`
        : 'Use a TensorFlow release built for this GPU (cudawiz requirements shows which TF runs it natively)';
      return {
        id: 'no-code-for-gpu',
        severity: 'error',
        line,
        meaning: `This TensorFlow build has no machine code or compatible PTX for ${which}: the GPU is newer or older than the architectures the wheel was compiled for.`,
        fix: `${use}, or build TensorFlow from source with TF_CUDA_COMPUTE_CAPABILITIES set to it.`,
      };
    }
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ the whole log
export function explainLog(catalog: Catalog, text: string, options: { os?: OsName } = {}): Explanation {
  const { hits, gpus, healthy, opened } = scan(text);
  const libraryFiles = hits.flatMap((h) => (h.kind.type === 'library' && !h.kind.dependency ? [h.kind.file] : []));
  const guessedOs =
    options.os ??
    opened.map(osOfLibrary).find((o): o is OsName => o !== undefined) ??
    (hits.some((h) => h.kind.type === 'zlib' || h.kind.type === 'msvc') ? 'windows' : undefined) ??
    libraryFiles.map(osOfLibrary).find((o): o is OsName => o !== undefined) ??
    hits.map((h) => (h.kind.type === 'library' && h.kind.dependency ? osOfLibrary(h.kind.dependency) : undefined)).find((o): o is OsName => o !== undefined);
  const os: OsName = guessedOs ?? 'linux';

  const toolkitFiles = libraryFiles.filter((f) => classifyLibrary(f).kind === 'toolkit');
  // Missing files first: when a log mixes two toolkits' names, the missing ones say what TF wants.
  const cudaVersions = askedCuda(catalog, os, [...toolkitFiles, ...opened.filter((f) => classifyLibrary(f).kind === 'toolkit')]);

  const cudnnMajors = libraryFiles.flatMap((f) => {
    const k = classifyLibrary(f);
    return k.kind === 'cudnn' && k.major ? [k.major] : [];
  });
  const mismatch = hits.find((h) => h.kind.type === 'cudnn-mismatch');
  const zlib = hits.some((h) => h.kind.type === 'zlib');
  const cudnn =
    mismatch?.kind.type === 'cudnn-mismatch' ? majorMinor(mismatch.kind.compiled) : (cudnnMajors[0] ?? (zlib ? '8' : null));

  const ctx: FixContext = { catalog, os, cudaVersions };
  const findings: ExplainFinding[] = [];
  const seen = new Set<string>();
  const namedLibraries = hits.some((h) => h.kind.type === 'library');
  for (const hit of hits) {
    if (hit.kind.type === 'some-missing' && namedLibraries) continue;
    const finding = hit.kind.type === 'library' ? libraryFinding(ctx, hit as RawHit & { kind: { type: 'library' } }) : otherFinding(ctx, hit, gpus);
    if (!finding) continue;
    // TF repeats lines (cudart at import and again at device creation): one finding per problem.
    const key = finding.library ?? `${finding.id}|${finding.id === 'cudnn-mismatch' ? finding.meaning : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  const severityOrder: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };
  findings.sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity]);

  return {
    os: guessedOs ?? null,
    cuda: cudaLabel(cudaVersions),
    cudnn,
    findings,
    gpus,
    healthySignals: healthy,
  };
}

/** Problems a user must act on (TensorRT/CUPTI notes alone are not). */
export function hasProblems(e: Explanation): boolean {
  return e.findings.some((f) => f.severity !== 'info');
}

/** Nothing in the log that we know: neither a problem, a note, nor a sign that TF found its GPU. */
export function recognisedNothing(e: Explanation): boolean {
  return e.findings.length === 0 && e.healthySignals === 0 && e.gpus.length === 0;
}

