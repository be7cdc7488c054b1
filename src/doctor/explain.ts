// A TensorFlow log → what it means: which CUDA/cuDNN its missing libraries stand for, and one fix per
// problem. Pure: the log's text and the catalog in, plain data out (the command reads files and prints).
// pip's own errors pasted in are read too (explain-pip.ts); inside WSL no fix ever names a Linux driver.
import { newestNativeTf } from '../catalog/gpu-support.js';
import { cudnnArchiveFor, cudnnGetFix } from '../catalog/cudnn-choice.js';
import { andCudaRequirement, archiveAccess, driverMinFor, findCudaRelease, findCudnnRelease, newestTfForCuda, toolkitsShippingLibrary } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { explainText as T } from '../i18n/doctor.js';
import { defaultCudaRoot, librarySearchVar, toolkitDir, toolkitLibraryDir, WINDOWS_ZLIB_FROM_CUDNN, type OsName } from '../platform.js';
import { compareDotted, major, majorMinor } from '../version.js';
import type { ExplainFinding, FindingSeverity, FixContext } from './explain-finding.js';
import { buildInfoFindings, loggedBuildInfo, logSaysNativeWindowsCpu } from './explain-build-info.js';
import { driverFindings, driverFix } from './explain-driver.js';
import { installerFindings } from './explain-installers.js';
import { pipFindings } from './explain-pip.js';
import { loggedTfVersion, logListsNoGpu, logSaysWindows, logSaysWsl, logSaysWsl1 } from './log-signals.js';

export type { ExplainFinding, FindingSeverity, FixContext } from './explain-finding.js';
export { driverFix } from './explain-driver.js';

/** Every finding id explain can give: the rules a test walks, one by one. */
/**
 * The order to fix problems in: the driver and the GPU it offers come first (nothing above it works
 * without them), then the TensorFlow package and what installs it, then the libraries it loads.
 */
const FIX_ORDER = [
  'wsl-gpu-blocked', 'driver-module-not-loaded', 'driver-library-mismatch', 'missing-driver', 'driver-compat-unsupported', 'driver-sees-no-gpu',
  'cuda-init-unknown', 'no-cuda-device', 'driver-too-old',
  'windows-no-native-gpu', 'tf-built-without-cuda', 'pip-32bit-python', 'pip-tensorflow-gpu-ended', 'pip-python-unsupported',
  'pip-no-such-version', 'pip-wheel-unsupported', 'conda-package-not-found', 'conda-unsatisfiable', 'poetry-python-range',
  'poetry-no-version', 'poetry-no-candidates',
  'missing-msvc-runtime', 'missing-cuda-runtime', 'missing-toolkit-library', 'missing-dependency', 'some-libraries-missing',
  'missing-cudnn', 'missing-zlib', 'cudnn-part-needs-zlib', 'cudnn-parts-mixed', 'cudnn-mismatch', 'missing-library',
  'no-code-for-gpu', 'no-gpu-listed', 'missing-tensorrt', 'missing-cupti', 'tf-build-info',
];
const fixRank = (id: string) => (FIX_ORDER.includes(id) ? FIX_ORDER.indexOf(id) : FIX_ORDER.length);

export const EXPLAIN_IDS = [
  'missing-toolkit-library', 'missing-cupti', 'missing-cudnn', 'missing-driver', 'missing-tensorrt', 'missing-library',
  'missing-dependency', 'missing-zlib', 'cudnn-part-needs-zlib', 'cudnn-parts-mixed', 'missing-msvc-runtime', 'cudnn-mismatch',
  'driver-too-old', 'missing-cuda-runtime', 'some-libraries-missing', 'no-code-for-gpu', 'windows-no-native-gpu', 'no-gpu-listed',
  'pip-tensorflow-gpu-ended', 'pip-python-unsupported', 'pip-wheel-unsupported', 'pip-32bit-python', 'pip-no-such-version',
  'driver-module-not-loaded', 'driver-library-mismatch', 'driver-compat-unsupported', 'driver-sees-no-gpu', 'cuda-init-unknown',
  'no-cuda-device', 'tf-built-without-cuda', 'tf-build-info', 'conda-package-not-found', 'conda-unsatisfiable',
  'poetry-python-range', 'poetry-no-version', 'poetry-no-candidates', 'wsl-gpu-blocked',
] as const;

export interface LoggedGpu {
  name: string;
  computeCapability: string;
}

export interface Explanation {
  /** The OS the log came from: given, or guessed from its file names; null when nothing says. */
  os: OsName | null;
  /** The log came from inside WSL (its paths or kernel say so, or --os wsl): driver fixes are Windows'. */
  wsl: boolean;
  /** The TensorFlow version the log names, when it does. */
  tensorflow: string | null;
  /** The CUDA the log asks for: "10.1", a major alone ("11") when several minors ship the same files, or null. */
  cuda: string | null;
  /** The cuDNN the log asks for: a major ("7") from file names, or major.minor ("7.6") from a version check. */
  cudnn: string | null;
  findings: ExplainFinding[];
  gpus: LoggedGpu[];
  /** TensorFlow said it opened GPU libraries or created a GPU device. */
  healthySignals: number;
  /** A fix would name the exact file for a TensorFlow version, and none was known (no --tf, none in the log or installed). */
  wantedTf: boolean;
}

// ------------------------------------------------------------------ what a library file name stands for
const TOOLKIT_BASES = new Set(['cudart', 'cublas', 'cublaslt', 'cufft', 'curand', 'cusolver', 'cusparse', 'nvrtc', 'nvjitlink']);
type LibraryKind =
  | { kind: 'toolkit'; name: string }
  | { kind: 'cupti'; cuda: string }
  | { kind: 'cudnn'; major: string }
  | { kind: 'driver' }
  | { kind: 'tensorrt'; major: string }
  | { kind: 'zlib' }
  | { kind: 'msvc' }
  | { kind: 'other' };


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
  if (TOOLKIT_BASES.has(parts.base)) return { kind: 'toolkit', name: parts.base };
  return { kind: 'other' };
}

function osOfLibrary(file: string): OsName | undefined {
  if (/\.dll$/i.test(file)) return 'windows';
  if (/\.so(\.|$)/.test(file)) return 'linux';
  return undefined;
}

// ------------------------------------------------------------------ the lines we recognise
// tsl's cudart_stub.cc prints this when the CUDA *runtime* (libcudart) does not load, not the driver (TF 2.13+).
// TF 1.14 wrote "Could not dlopen library"; later releases "Could not load dynamic library".
const DSO_FAILED = /Could not (?:load dynamic|dlopen) library '([^']+)'(?:;\s*dlerror:\s*([^;\r\n]*))?/;
// TF 1.x: "Couldn't open CUDA library libcudnn.so. LD_LIBRARY_PATH: …" (Windows: "… nvcuda.dll").
const TF1_FAILED = /Couldn't open CUDA library ([\w.+-]+?)\.?(?:\s|$)/;
const LIB_FAILED = /Could not load library ([\w.+-]+?)\.?\s+Error(?: code (\d+)|:\s*([^\r\n]*))/;
const MAKE_SURE = /Please make sure ([\w.+-]+) is in your library path/;
const SO_NOT_FOUND = /(?:^|[\s:'"(])(lib[\w+-]+\.so(?:\.\d+)*): cannot open shared object file/;
// cuDNN 8 on Windows: "Could not locate zlibwapi.dll" / "Could not locate cudnn_ops_infer64_8.dll" (the file itself is absent).
const LOCATE_DLL = /Could not locate ([\w.+-]+\.dll)/i;
/** cuDNN 8's sub-libraries on Windows: cudnn_cnn_infer64_8.dll, cudnn_ops_infer64_8.dll, cudnn_adv_train64_8.dll … */
const CUDNN_PART_DLL = /^cudnn_(?:cnn|ops|adv)_(?:infer|train)64_\d+\.dll$/i;
const MSVC_MISSING = /(msvcp140_1\.dll|msvcp140\.dll)/i;
const MSVC_CONTEXT = /Could not find|not found|missing|was not found|could not be found/i;
const CUDNN_MISMATCH = /Loaded runtime CuDNN library:? (\d+(?:\.\d+)*)(?: \(compatibility version \d+\))? but source was compiled with:? (\d+(?:\.\d+)*)/;
const DRIVER_TOO_OLD = /CUDA driver version is insufficient for CUDA runtime version/;
const NO_RUNTIME = /Could not find cuda drivers on your machine/;
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
    | { type: 'cudnn-part'; file: string; errorCode: string }
    | { type: 'msvc'; file: string }
    | { type: 'cudnn-mismatch'; loaded: string; compiled: string }
    | { type: 'driver-too-old' }
    | { type: 'cuda-runtime' }
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
    } else if ((m = LOCATE_DLL.exec(line))) {
      hits.push({ line, kind: classifyLibrary(m[1]).kind === 'zlib' ? { type: 'zlib' } : { type: 'library', file: m[1] } });
    } else if ((m = LIB_FAILED.exec(line))) {
      if (classifyLibrary(m[1]).kind === 'zlib') hits.push({ line, kind: { type: 'zlib', errorCode: m[2] } });
      else if (CUDNN_PART_DLL.test(m[1]) && m[2]) hits.push({ line, kind: { type: 'cudnn-part', file: m[1], errorCode: m[2] } });
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
    if (NO_RUNTIME.test(line)) hits.push({ line, kind: { type: 'cuda-runtime' } });
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

export function cudaWords(versions: string[]): string {
  if (versions.length === 0) return 'CUDA';
  if (versions.length === 1) return `CUDA ${versions[0]}`;
  return `CUDA ${versions[0]}–${versions[versions.length - 1]}`;
}

// ------------------------------------------------------------------ fixes

/** The CUDA to install for the log's files: the one TF's table pairs with them, else the newest that ships them. */
function targetCuda(ctx: FixContext): { cuda?: string; tf?: string } {
  const row = newestTfForCuda(ctx.catalog, ctx.os, ctx.cudaVersions);
  return { cuda: row?.cuda ?? ctx.cudaVersions[ctx.cudaVersions.length - 1], tf: row ? majorMinor(row.version) : undefined };
}

function installCudaWords(ctx: FixContext): string {
  const { cuda, tf } = targetCuda(ctx);
  return cuda ? T.installCuda(cuda, tf) : T.installCudaUnknown;
}

function libraryFolderWords(ctx: FixContext): string {
  const { cuda } = targetCuda(ctx);
  const where = librarySearchVar(ctx.os);
  return cuda ? T.putDirOn(toolkitLibraryDir(ctx.os, toolkitDir(ctx.os, defaultCudaRoot(ctx.os, {}), cuda)), where) : T.putFolderOn(where);
}

function cudnnInstallWords(ctx: FixContext, cudnnMajor: string): string {
  const { cuda, tf } = targetCuda(ctx);
  const archive = cuda ? findCudnnRelease(ctx.catalog, cudnnMajor, cuda, ctx.os)?.archives[ctx.os] : undefined;
  // Public copy or login: the catalog's one fact, as requirements and install say it.
  return T.installCudnn(cudnnMajor, cuda, archive?.file, tf, archive ? archiveAccess(archive) === 'public' : false);
}

/** TensorFlow lines whose cuDNN has this major, "2.4–2.15"; '' when none. */
function tfLinesWithCudnn(ctx: FixContext, cudnnMajor: string): string {
  const rows = (ctx.os === 'windows' && !ctx.wsl ? ctx.catalog.tensorflow.windows : ctx.catalog.tensorflow.linux).filter((r) => String(major(r.cudnn)) === cudnnMajor);
  const lines = [...new Set(rows.map((r) => majorMinor(r.version)))].sort(compareDotted);
  return lines.length === 0 ? '' : lines.length === 1 ? lines[0] : `${lines[0]}–${lines[lines.length - 1]}`;
}

/**
 * The fix for a missing cuDNN: for the TensorFlow the user runs, the cuDNN build and archive the plan
 * takes (cudnnArchiveFor: requirements, install, repair and the doctor ask the same query), ending with the
 * command; without a TensorFlow version, which lines need this major and how to say yours.
 */
function cudnnFix(ctx: FixContext, cudnnMajor: string): string {
  const inside = ctx.wsl ? 'linux' : ctx.os;
  const tf = ctx.fixTf ?? targetCuda(ctx).tf;
  if (tf) {
    const pick = cudnnArchiveFor(ctx.catalog, tf, inside);
    if (pick && String(major(pick.cudnn)) === cudnnMajor) {
      return T.cudnnFixForTf(tf, pick.cudnn, pick.cuda, cudnnGetFix(pick.archive, tf, { cudnn: pick.cudnn, cuda: pick.cuda, page: ctx.catalog.cudnn.archivePage }));
    }
    // A TensorFlow whose cuDNN has another major did not write this log line: the file name decides.
    return T.cudnnFixMajor(cudnnInstallWords(ctx, cudnnMajor), cudnnMajor);
  }
  ctx.wantedTf = true;
  return T.cudnnFixAskTf(cudnnMajor, tfLinesWithCudnn(ctx, cudnnMajor));
}

/** The newest cuDNN below the zlib cut-over that TF's Windows table pairs with its GPU releases, and those releases. */
function windowsCudnnWithoutZlib(catalog: Catalog): { cudnn: string; range: string; tf: string } | undefined {
  const rows = catalog.tensorflow.windows.filter((r) => major(r.cudnn) === major(WINDOWS_ZLIB_FROM_CUDNN) && compareDotted(r.cudnn, WINDOWS_ZLIB_FROM_CUDNN) < 0);
  const newest = [...rows].sort((a, b) => compareDotted(b.cudnn, a.cudnn) || compareDotted(b.version, a.version))[0];
  if (!newest) return undefined;
  const tfs = rows.filter((r) => r.cudnn === newest.cudnn).map((r) => majorMinor(r.version)).sort(compareDotted);
  return { cudnn: newest.cudnn, range: tfs.length > 1 ? `${tfs[0]}–${tfs[tfs.length - 1]}` : tfs[0], tf: tfs[tfs.length - 1] };
}

function libraryFinding(ctx: FixContext, hit: RawHit & { kind: { type: 'library' } }): ExplainFinding {
  const { file, dependency } = hit.kind;
  const kind = classifyLibrary(file);
  const base = { library: file, line: hit.line };
  const where = librarySearchVar(ctx.os);
  if (dependency) {
    const depKind = classifyLibrary(dependency);
    if (depKind.kind === 'driver') return { id: 'missing-driver', severity: 'error', ...base, meaning: T.depIsDriver(file, dependency), fix: driverFix(ctx) };
    const depCuda = toolkitsShippingLibrary(ctx.catalog, ctx.os, dependency);
    // nvJitLink / NVRTC carry the CUDA version itself in their soname (libnvJitLink.so.12 → CUDA 12).
    const depParts = splitLibraryName(dependency);
    if (depCuda.length === 0 && depParts && (depParts.base === 'nvjitlink' || depParts.base === 'nvrtc') && depParts.version) depCuda.push(depParts.version);
    const from = depCuda.length ? T.depComesWith(cudaWords(depCuda)) : '';
    return {
      id: 'missing-dependency',
      severity: 'error',
      ...base,
      meaning: T.depMeaning(file, dependency, from),
      fix: T.depFix(dependency, where, depCuda.length ? cudaWords(depCuda) : undefined, T.sideBySide),
    };
  }
  switch (kind.kind) {
    case 'toolkit': {
      const ship = toolkitsShippingLibrary(ctx.catalog, ctx.os, file);
      const what = T.libraryName[kind.name];
      const meaning = ship.length ? T.toolkitMeaning(file, what, cudaWords(ship), ship.length === 1) : T.toolkitMeaningUnmapped(file, what);
      const fixCtx = ship.length ? { ...ctx, cudaVersions: ship.filter((v) => ctx.cudaVersions.length === 0 || ctx.cudaVersions.includes(v)) } : ctx;
      if (fixCtx.cudaVersions.length === 0) fixCtx.cudaVersions = ship;
      return { id: 'missing-toolkit-library', severity: 'error', ...base, meaning, fix: T.toolkitFix(installCudaWords(fixCtx), libraryFolderWords(fixCtx), T.sideBySide) };
    }
    case 'cupti':
      return { id: 'missing-cupti', severity: 'info', ...base, meaning: T.cuptiMeaning(file, kind.cuda), fix: T.cuptiFix(kind.cuda, where) };
    case 'cudnn': {
      const which = kind.major ? `cuDNN ${kind.major}` : 'cuDNN';
      return {
        id: 'missing-cudnn',
        severity: 'error',
        ...base,
        meaning: T.cudnnMeaning(file, which),
        fix: kind.major ? cudnnFix(ctx, kind.major) : T.cudnnFixUnknown(where),
      };
    }
    case 'driver':
      return { id: 'missing-driver', severity: 'error', ...base, meaning: T.driverLibraryMeaning(file), fix: driverFix(ctx) };
    case 'tensorrt':
      return { id: 'missing-tensorrt', severity: 'info', ...base, meaning: T.tensorrtMeaning(file, kind.major), fix: T.tensorrtFix(kind.major) };
    case 'zlib':
    case 'msvc':
    case 'other':
      return { id: 'missing-library', severity: 'warning', ...base, meaning: T.otherMeaning(file), fix: T.otherFix(file, where) };
  }
}

/** Hit kinds otherFinding turns into one finding id each, whatever the line: a repeat is never a new finding. */
const ONE_PER_KIND = new Set(['driver-too-old', 'cuda-runtime', 'some-missing', 'kernel-image']);

function otherFinding(ctx: FixContext, hit: RawHit, gpus: LoggedGpu[]): ExplainFinding | undefined {
  const line = hit.line;
  switch (hit.kind.type) {
    case 'zlib':
      return { id: 'missing-zlib', severity: 'error', library: 'zlibwapi.dll', line, meaning: hit.kind.errorCode === '193' ? T.zlib32Meaning : T.zlibMeaning, fix: T.zlibFix };
    case 'cudnn-part': {
      const { file, errorCode } = hit.kind;
      if (errorCode === '127') return { id: 'cudnn-parts-mixed', severity: 'error', library: file, line, meaning: T.cudnnPartMixedMeaning(file), fix: T.cudnnPartMixedFix };
      const tested = windowsCudnnWithoutZlib(ctx.catalog);
      return {
        id: 'cudnn-part-needs-zlib',
        severity: 'error',
        library: file,
        line,
        meaning: errorCode === '193' ? T.cudnnPart32Meaning(file) : T.cudnnPartZlibMeaning(file, errorCode),
        fix: T.zlibOrTestedFix(tested?.cudnn, tested?.range, tested?.tf),
      };
    }
    case 'msvc':
      return { id: 'missing-msvc-runtime', severity: 'error', library: hit.kind.file, line, meaning: T.msvcMeaning(hit.kind.file), fix: T.msvcFix };
    case 'cudnn-mismatch': {
      const { loaded, compiled } = hit.kind;
      return {
        id: 'cudnn-mismatch',
        severity: 'error',
        line,
        meaning: T.mismatchMeaning(compiled, loaded, major(loaded) === major(compiled)),
        fix: T.mismatchFix(majorMinor(compiled), String(major(compiled)), librarySearchVar(ctx.os)),
      };
    }
    case 'driver-too-old': {
      const { cuda } = targetCuda(ctx);
      // Inside WSL the driver is Windows': its minimum is the Windows one.
      const driverOs: OsName = ctx.wsl ? 'windows' : ctx.os;
      const release = cuda ? findCudaRelease(ctx.catalog, cuda) : undefined;
      const min = release ? driverMinFor(ctx.catalog, release, driverOs).min : undefined;
      const target = min ? T.driverOldTarget(min, cuda!, driverOs === 'windows' ? 'Windows' : 'Linux') : cuda ? T.driverOldSupports(cuda) : '';
      return {
        id: 'driver-too-old',
        severity: 'error',
        line,
        meaning: T.driverOldMeaning(cuda),
        fix: ctx.wsl ? T.driverOldFixWsl(target, !min) : T.driverOldFix(target, !min),
      };
    }
    case 'cuda-runtime': {
      const file = ctx.os === 'windows' ? 'cudart64_*.dll' : 'libcudart.so';
      const andCuda = (ctx.tf ? andCudaRequirement(ctx.catalog, ctx.tf) : undefined) ?? `tensorflow[and-cuda]${ctx.tf ? `==${ctx.tf}` : ''}`;
      if (ctx.os === 'windows') return { id: 'missing-cuda-runtime', severity: 'error', line, meaning: T.runtimeMeaning(file), fix: T.runtimeFixWindows(ctx.catalog.tensorflow.windowsNativeGpuLast) };
      return {
        id: 'missing-cuda-runtime',
        severity: 'error',
        line,
        meaning: ctx.wsl ? T.runtimeMeaningWsl(file) : T.runtimeMeaning(file),
        fix: ctx.wsl ? T.runtimeFixWsl(andCuda) : T.runtimeFixLinux(andCuda),
      };
    }
    case 'some-missing':
      return { id: 'some-libraries-missing', severity: 'error', line, meaning: T.someMissingMeaning, fix: T.someMissingFix };
    case 'kernel-image': {
      const gpu = gpus[0];
      const which = gpu ? T.kernelGpu(gpu.name, gpu.computeCapability) : T.kernelThisGpu;
      const native = gpu ? newestNativeTf(ctx.catalog, gpu.computeCapability, ctx.os) : undefined;
      const use = native ? T.kernelUse(native.tf, gpu!.computeCapability) : T.kernelUseUnknown;
      return { id: 'no-code-for-gpu', severity: 'error', line, meaning: T.kernelMeaning(which), fix: T.kernelFix(use) };
    }
    default:
      return undefined;
  }
}

/** No GPU listed and no CUDA line: on native Windows with TF ≥ 2.11 that is the platform, not a fault. */
function noGpuFinding(ctx: FixContext, text: string): ExplainFinding | undefined {
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => logListsNoGpu(l)) ?? '';
  const last = ctx.catalog.tensorflow.windowsNativeGpuLast;
  const nativeGpuTf = ctx.tf !== undefined && compareDotted(majorMinor(ctx.tf), last) <= 0;
  if (ctx.os === 'windows' && !ctx.wsl && !nativeGpuTf) {
    return { id: 'windows-no-native-gpu', severity: 'error', line, meaning: T.windowsNoGpuMeaning(ctx.tf, last), fix: T.windowsNoGpuFix(ctx.tf, last) };
  }
  return { id: 'no-gpu-listed', severity: 'warning', line, meaning: T.noGpuListedMeaning(ctx.tf), fix: T.noGpuListedFix };
}

// ------------------------------------------------------------------ the whole log
export interface ExplainOptions {
  os?: OsName;
  /** The TensorFlow the fixes are for (--tf); the log's own version comes next. */
  tf?: string;
  /** The TensorFlow installed where explain runs: used when neither --tf nor the log says one. */
  installedTf?: string;
  /** The log is from inside WSL (`--os wsl`, or explain runs inside WSL). */
  wsl?: boolean;
}

export function explainLog(catalog: Catalog, text: string, options: ExplainOptions = {}): Explanation {
  const { hits, gpus, healthy, opened } = scan(text);
  const libraryFiles = hits.flatMap((h) => (h.kind.type === 'library' && !h.kind.dependency ? [h.kind.file] : []));
  const wsl = options.wsl === true || (options.os !== 'windows' && logSaysWsl(text));
  const guessedOs =
    options.os ??
    (wsl ? 'linux' : undefined) ??
    opened.map(osOfLibrary).find((o): o is OsName => o !== undefined) ??
    (hits.some((h) => h.kind.type === 'zlib' || h.kind.type === 'msvc' || h.kind.type === 'cudnn-part') ? 'windows' : undefined) ??
    libraryFiles.map(osOfLibrary).find((o): o is OsName => o !== undefined) ??
    hits.map((h) => (h.kind.type === 'library' && h.kind.dependency ? osOfLibrary(h.kind.dependency) : undefined)).find((o): o is OsName => o !== undefined) ??
    (logSaysWindows(text) || logSaysNativeWindowsCpu(text) ? 'windows' : undefined);
  const os: OsName = guessedOs ?? 'linux';
  const tf = loggedTfVersion(text);

  const toolkitFiles = libraryFiles.filter((f) => classifyLibrary(f).kind === 'toolkit');
  // Missing files first: when a log mixes two toolkits' names, the missing ones say what TF wants.
  const cudaVersions = askedCuda(catalog, os, [...toolkitFiles, ...opened.filter((f) => classifyLibrary(f).kind === 'toolkit')]);

  const cudnnMajors = libraryFiles.flatMap((f) => {
    const k = classifyLibrary(f);
    return k.kind === 'cudnn' && k.major ? [k.major] : [];
  });
  const mismatch = hits.find((h) => h.kind.type === 'cudnn-mismatch');
  const zlib = hits.some((h) => h.kind.type === 'zlib' || h.kind.type === 'cudnn-part');
  const cudnn =
    mismatch?.kind.type === 'cudnn-mismatch' ? majorMinor(mismatch.kind.compiled) : (cudnnMajors[0] ?? (zlib ? '8' : null));

  const ctx: FixContext = { catalog, os, wsl, wsl1: wsl && logSaysWsl1(text), cudaVersions, tf, fixTf: options.tf ?? tf ?? options.installedTf, osKnown: guessedOs !== undefined };
  const findings: ExplainFinding[] = [];
  const seen = new Set<string>();
  const namedLibraries = hits.some((h) => h.kind.type === 'library');
  const add = (finding: ExplainFinding | undefined) => {
    if (!finding) return;
    // TF repeats lines (cudart at import and again at device creation): one finding per problem.
    const key = finding.library ?? `${finding.id}|${finding.id === 'cudnn-mismatch' ? finding.meaning : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(finding);
  };
  const builtKinds = new Set<string>();
  for (const hit of hits) {
    if (hit.kind.type === 'some-missing' && namedLibraries) continue;
    // A library's finding is keyed by its file: a repeat (TF logs each at import and at device creation, a
    // long log thousands of times) would be built only to be dropped, and building one asks the catalog.
    if (hit.kind.type === 'library' && seen.has(hit.kind.file)) continue;
    // The same for the kinds whose finding is one per kind whatever the line (only the first is kept).
    if (ONE_PER_KIND.has(hit.kind.type)) {
      if (builtKinds.has(hit.kind.type)) continue;
      builtKinds.add(hit.kind.type);
    }
    add(hit.kind.type === 'library' ? libraryFinding(ctx, hit as RawHit & { kind: { type: 'library' } }) : otherFinding(ctx, hit, gpus));
  }
  for (const f of driverFindings(ctx, text)) add(f);
  for (const f of pipFindings(ctx, text)) add(f);
  for (const f of installerFindings(ctx, text)) add(f);
  for (const f of buildInfoFindings(ctx, text)) add(f);
  // "[]" with nothing else wrong: the no-GPU-no-error class (native Windows TF ≥ 2.11), else a pointer to the reason.
  if (logListsNoGpu(text) && !findings.some((f) => f.severity === 'error') && gpus.length === 0) add(noGpuFinding(ctx, text));
  const severityOrder: Record<FindingSeverity, number> = { error: 0, warning: 1, info: 2 };
  // Problems before notes, and problems in the order to fix them: the driver, then what installs TensorFlow, then its libraries.
  findings.sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity] || fixRank(a.id) - fixRank(b.id));

  const built = loggedBuildInfo(text);
  return {
    os: guessedOs ?? null,
    wsl,
    tensorflow: tf ?? null,
    cuda: cudaLabel(cudaVersions) ?? (built?.cudaBuild !== false ? (built?.cuda ?? null) : null),
    cudnn: cudnn ?? (built?.cudaBuild !== false ? (built?.cudnn ?? null) : null),
    findings,
    gpus,
    healthySignals: healthy,
    wantedTf: ctx.wantedTf === true,
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
