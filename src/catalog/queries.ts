// Questions asked of the catalog. Pure functions: the catalog in, plain data out.
import { archiveAccess, isPublicArchive } from './archive-facts.js';
import { cliText } from '../i18n/cli.js';
import { CudawizError, EXIT } from '../errors.js';
import { catalogText } from '../i18n/catalog.js';
import { driverLibraryFileName, libraryFileName, type OsName } from '../platform.js';
import { compareDotted, major, majorMinor, parseDotted, versionHasPrefix } from '../version.js';
import { beyondCatalogError, tfBeyondCatalog } from './newer-tf.js';
import type { Catalog, CudaRelease, CudnnArchive, CudnnRelease, Installer, TfRow } from './schema.js';

export interface TfRowMatch {
  row: TfRow;
  /** true when the asked version is not the row's own (2.3.1 → the 2.3.0 row). */
  viaMinorLine: boolean;
}

function allTfVersions(catalog: Catalog): string[] {
  const set = new Set([...catalog.tensorflow.linux, ...catalog.tensorflow.windows].map((r) => r.version));
  return [...set].sort((a, b) => compareDotted(b, a));
}

/** The nearest known versions to an unknown one, for the error message. */
export function nearestTfVersions(catalog: Catalog, asked: string, count = 3): string[] {
  const all = allTfVersions(catalog);
  const p = parseDotted(asked);
  if (!p) return all.slice(0, count);
  const score = (v: string) => {
    const q = parseDotted(v) ?? [];
    return Math.abs((q[0] ?? 0) * 1000 + (q[1] ?? 0) - ((p[0] ?? 0) * 1000 + (p[1] ?? 0)));
  };
  return [...all].sort((a, b) => score(a) - score(b) || compareDotted(b, a)).slice(0, count);
}

/** A patch release takes its minor line's row (2.3.1 → 2.3.0); "2.3" means that line too. */
export function findTfRow(catalog: Catalog, asked: string, os: OsName): TfRowMatch | undefined {
  const p = parseDotted(asked);
  if (!p || p.length < 2 || p.length > 3) return undefined;
  const rows = catalog.tensorflow[os];
  const exact = rows.find((r) => compareDotted(r.version, asked) === 0 && p.length === 3);
  if (exact) return { row: exact, viaMinorLine: false };
  const line = rows.filter((r) => majorMinor(r.version) === `${p[0]}.${p[1]}`).sort((a, b) => compareDotted(b.version, a.version));
  if (line.length === 0) return undefined;
  return { row: line[0], viaMinorLine: p.length === 3 };
}

export function unknownTfVersion(catalog: Catalog, asked: string): CudawizError {
  const near = nearestTfVersions(catalog, asked);
  return new CudawizError(catalogText.unknownTf(asked, cliText.list(near)), {
    code: 'unknown-tf-version',
    exitCode: EXIT.usage,
    fix: catalogText.unknownTfFix(majorMinor(near[0] ?? '2.10')),
    details: { nearest: near },
  });
}

export function isWindowsNativeGpuSupported(catalog: Catalog, tf: string): boolean {
  return compareDotted(majorMinor(tf), catalog.tensorflow.windowsNativeGpuLast) <= 0;
}

export function hasAndCuda(catalog: Catalog, tf: string, os: OsName): boolean {
  return os === 'linux' && compareDotted(majorMinor(tf), catalog.tensorflow.andCudaFirst) >= 0;
}

/** Tables write CUDA "10" or "9"; the catalog normalises to major.minor, so this is a no-op guard. */
export function cudaReleasesFor(catalog: Catalog, cudaMajorMinor: string): CudaRelease[] {
  return catalog.cuda.releases
    .filter((r) => versionHasPrefix(r.version, cudaMajorMinor))
    .sort((a, b) => compareDotted(b.version, a.version));
}

/** "10.1" → the newest 10.1.x with an installer for that OS; an exact "10.1.243" → that one. */
export function findCudaRelease(catalog: Catalog, version: string, os?: OsName): CudaRelease | undefined {
  const exact = catalog.cuda.releases.find((r) => r.version === version);
  if (exact && (!os || exact.installers[os])) return exact;
  if ((parseDotted(version) ?? []).length !== 2) return undefined;
  return cudaReleasesFor(catalog, version).find((r) => !os || r.installers[os]);
}

export function cudaFamily(catalog: Catalog, cudaVersion: string) {
  return catalog.cuda.families.find((f) => f.major === major(cudaVersion));
}

/** Windows silent-install sub-packages for a toolkit: `nvcc_10.1 …`, never Display.Driver. */
export function windowsComponents(catalog: Catalog, cudaVersion: string): string[] {
  const mm = majorMinor(cudaVersion);
  const set = catalog.cuda.windowsComponents.find((s) => compareDotted(mm, s.from) >= 0 && compareDotted(mm, s.to) <= 0);
  return set ? set.components.map((c) => `${c}_${mm}`) : [];
}

/** The CUDA runtime library a toolkit ships (cudart64_101.dll, libcudart.so.10.1): proof the toolkit is there. */
export function cudartFileFor(catalog: Catalog, os: OsName, cuda: string): string {
  const mm = majorMinor(cuda);
  const row = catalog.libraries.toolkits.find((t) => compareDotted(mm, t.from) >= 0 && compareDotted(mm, t.to) <= 0);
  if (row) return libraryFileName(os, 'cudart', row.cudart);
  // Outside the table, NVIDIA's rule (domain.md §2b): major.minor up to 10.2, "11.0" for every 11.x, the major from 12.
  const m = major(cuda);
  return libraryFileName(os, 'cudart', m >= 12 ? String(m) : m === 11 ? '11.0' : mm);
}

/**
 * The lowest driver that runs this toolkit: NVIDIA's Table 3 value for the release, lowered to the
 * family's minor-version-compatibility minimum where one exists (CUDA 11+), as TF's docs do.
 */
export function driverMinFor(catalog: Catalog, release: CudaRelease, os: OsName): { min?: string; full?: string } {
  const full = release.driverMin?.[os];
  const compat = cudaFamily(catalog, release.version)?.minorCompatDriverMin?.[os];
  const candidates = [full, compat].filter((v): v is string => Boolean(v)).sort(compareDotted);
  return { min: candidates[0], full };
}

/** The facts of a CUDA release this OS's answer rests on that no stored public source gives, in words. */
export function cudaUnverifiedFacts(release: CudaRelease, os: OsName): string[] {
  const marks = release.unverified ?? [];
  const words = catalogText.unverifiedFacts;
  return [
    ...(marks.includes(`driverMin.${os}`) ? [words.driverMin] : []),
    ...(marks.includes(`installers.${os}`) ? [words.installer] : []),
    ...(marks.includes(`installers.${os}.checksum`) ? [words.checksum] : []),
  ];
}

function cudnnCudaMatches(release: CudnnRelease, cuda: string): 'exact' | 'family' | 'family-newer' | undefined {
  if (release.cuda === cuda || release.cuda === majorMinor(cuda)) return 'exact';
  const relParts = parseDotted(release.cuda) ?? [];
  if (major(release.cuda) !== major(cuda)) return undefined;
  // Archive-era builds say only the major ("cuda11"): they serve every minor of it.
  if (relParts.length === 1) return 'family';
  // 11.x+ builds serve other minors by minor-version compatibility; one built for a newer minor
  // than the toolkit is only a last resort.
  if (major(cuda) >= 11) return compareDotted(release.cuda, majorMinor(cuda)) < 0 ? 'family' : 'family-newer';
  return undefined;
}

export { archiveAccess, isPublicArchive, publicCopyUrl } from './archive-facts.js';

export interface CudnnPick {
  release: CudnnRelease;
  /** tested: the minor TF was tested with; compatible: a newer minor of the same major (TF's runtime check accepts it). */
  pick: 'tested' | 'compatible';
  /** For a compatible pick: the newest build of the tested minor (login-gated), offered as the alternative. */
  alternative?: CudnnRelease;
}

/**
 * The cuDNN build to install for a TF row: same major as TF's, minor not older, built for that CUDA.
 * Within the tested minor: a public copy first, then the closest CUDA fit, then the newest patch. When
 * the tested minor has no public copy but a newer minor of the same major does, that one, with the
 * tested (login-gated) build as the alternative; otherwise the tested build behind the login.
 */
export function pickCudnnBuild(catalog: Catalog, cudnn: string, cuda: string, os: OsName, gpu?: { computeCapability?: string }): CudnnPick | undefined {
  const want = parseDotted(cudnn) ?? [];
  const minorDistance = (r: CudnnRelease) => (want.length > 1 ? ((parseDotted(r.version) ?? [])[1] ?? 0) - (want[1] ?? 0) : 0);
  const oldestGpu = cudnnOldestGpuToServe(catalog, cuda, gpu);
  const candidates = catalog.cudnn.releases.filter((r) => {
    const v = parseDotted(r.version) ?? [];
    const floor = cudnnComputeCapabilityMin(catalog, r.version);
    return v[0] === want[0] && minorDistance(r) >= 0 && Boolean(r.archives[os]) && Boolean(cudnnCudaMatches(r, cuda)) && !(floor && oldestGpu && compareDotted(floor, oldestGpu) > 0);
  });
  const fit = { exact: 0, family: 1, 'family-newer': 2 } as const;
  const ranked = candidates.sort(
    (a, b) => minorDistance(a) - minorDistance(b) || fit[cudnnCudaMatches(a, cuda) ?? 'family-newer'] - fit[cudnnCudaMatches(b, cuda) ?? 'family-newer'] || compareDotted(b.version, a.version),
  );
  const tested = ranked.filter((r) => minorDistance(r) === 0);
  const publicTested = tested.find((r) => isPublicArchive(r.archives[os]));
  if (publicTested) return { release: publicTested, pick: 'tested' };
  const publicNewer = ranked.find((r) => minorDistance(r) > 0 && isPublicArchive(r.archives[os]));
  if (publicNewer) return { release: publicNewer, pick: 'compatible', ...(tested[0] ? { alternative: tested[0] } : {}) };
  if (tested[0]) return { release: tested[0], pick: 'tested' };
  return ranked[0] ? { release: ranked[0], pick: 'compatible' } : undefined;
}

/** The build pickCudnnBuild chooses (see there). */
export function findCudnnRelease(catalog: Catalog, cudnn: string, cuda: string, os: OsName, gpu?: { computeCapability?: string }): CudnnRelease | undefined {
  return pickCudnnBuild(catalog, cudnn, cuda, os, gpu)?.release;
}

/** The oldest GPU a cuDNN release supports (catalog.cudnn.gpuFloors), when a floor covers it. */
export function cudnnComputeCapabilityMin(catalog: Catalog, cudnnVersion: string): string | undefined {
  const mm = majorMinor(cudnnVersion);
  return catalog.cudnn.gpuFloors?.find((f) => compareDotted(mm, f.from) >= 0 && (!f.to || compareDotted(mm, f.to) <= 0))?.computeCapabilityMin;
}

/**
 * The GPU a cuDNN pick must still serve: this one when its compute capability is known, else the oldest
 * GPU the CUDA line supports — so an unknown GPU is never handed a cuDNN that dropped GPUs its CUDA runs.
 */
function cudnnOldestGpuToServe(catalog: Catalog, cuda: string, gpu?: { computeCapability?: string }): string | undefined {
  const cc = gpu?.computeCapability;
  if (cc && /^\d+\.\d+$/.test(cc)) return cc;
  return cudaFamily(catalog, cuda)?.computeCapabilityMin;
}

const TOOLKIT_LIBRARY_NAMES = ['cudart', 'cublas', 'cublasLt', 'cufft', 'curand', 'cusolver', 'cusparse'] as const;

export interface RequiredLibrary {
  /** cudart, cublas, …, cudnn, or cuda (the driver's). */
  name: string;
  file: string;
  /** What provides it: the toolkit, cuDNN, or the display driver. */
  from: 'toolkit' | 'cudnn' | 'driver';
  /** The version the file name stands for ("10.1", "7"). */
  version: string;
}

/** The library files TensorFlow loads for that CUDA and cuDNN on that OS. */
export function librariesFor(catalog: Catalog, os: OsName, cuda: string, cudnn: string): RequiredLibrary[] {
  const mm = majorMinor(cuda);
  const row = catalog.libraries.toolkits.find((t) => compareDotted(mm, t.from) >= 0 && compareDotted(mm, t.to) <= 0);
  const out: RequiredLibrary[] = [];
  if (row) {
    for (const name of TOOLKIT_LIBRARY_NAMES) {
      const v = row[name];
      if (v) out.push({ name, file: libraryFileName(os, name, v), from: 'toolkit', version: v });
    }
  }
  const cudnnMajor = String(major(cudnn));
  out.push({ name: 'cudnn', file: libraryFileName(os, 'cudnn', cudnnMajor), from: 'cudnn', version: cudnnMajor });
  out.push({ name: 'cuda', file: driverLibraryFileName(os), from: 'driver', version: '' });
  return out;
}

/** The sub-libraries cuDNN 8/9's main library loads at run time (cudnn_ops_infer64_8.dll, libcudnn_ops.so.9 …). */
export function cudnnPartFiles(catalog: Catalog, os: OsName, cudnn: string): string[] {
  const cudnnMajor = String(major(cudnn));
  return (catalog.libraries.cudnnParts[cudnnMajor] ?? []).map((name) => libraryFileName(os, name, cudnnMajor));
}

/** The library-name rows whose toolkit ships that file (cusolver64_10.dll → the 10.1, 10.2 and 11.0 rows). */
function toolkitRowsForLibrary(catalog: Catalog, os: OsName, file: string) {
  return catalog.libraries.toolkits.filter((row) =>
    TOOLKIT_LIBRARY_NAMES.some((name) => {
      const v = row[name];
      return v !== undefined && libraryFileName(os, name, v).toLowerCase() === file.toLowerCase();
    }),
  );
}


/** Every CUDA major.minor whose toolkit ships that file, ranges spelled out: cudart64_110.dll → 11.0 … 11.8. */
export function toolkitsShippingLibrary(catalog: Catalog, os: OsName, file: string): string[] {
  const out: string[] = [];
  for (const row of toolkitRowsForLibrary(catalog, os, file)) {
    const from = parseDotted(row.from) ?? [];
    const to = parseDotted(row.to) ?? [];
    // A row never spans majors (11.1–11.8, 12.0–12.9).
    for (let minor = from[1] ?? 0; minor <= (to[1] ?? 0); minor++) out.push(`${from[0]}.${minor}`);
  }
  return [...new Set(out)].sort(compareDotted);
}

/** The newest TF row on that OS built for one of these CUDA versions: what `cudawiz install --tf` to suggest. */
export function newestTfForCuda(catalog: Catalog, os: OsName, cudaVersions: readonly string[]): TfRow | undefined {
  return catalog.tensorflow[os].filter((r) => cudaVersions.includes(r.cuda)).sort((a, b) => compareDotted(b.version, a.version))[0];
}

export interface InstallerChoice extends Installer {
  version: string;
}
export interface ArchiveChoice extends CudnnArchive {
  version: string;
  cuda: string;
  page: string;
  /** public: a no-login copy (verified by its sha256 unless `unverified`); login: only behind NVIDIA's developer login. */
  access: 'public' | 'login';
  /** tested: the cuDNN minor TF was tested with; compatible: a newer minor of the same major. */
  pick: 'tested' | 'compatible';
  /** The cuDNN TF's table lists ("8.0"). */
  tested: string;
  /** For a compatible pick: the tested build, behind the login, offered instead. */
  alternative?: { version: string; cuda: string; file: string; url: string; page: string; access: 'public' | 'login' };
}

function archiveChoice(catalog: Catalog, pick: CudnnPick, os: OsName, tested: string): ArchiveChoice | null {
  const archive = pick.release.archives[os];
  if (!archive) return null;
  const page = pick.release.downloadPage ?? catalog.cudnn.archivePage;
  const alt = pick.alternative;
  const altArchive = alt?.archives[os];
  return {
    version: pick.release.version,
    cuda: pick.release.cuda,
    page,
    ...archive,
    access: archiveAccess(archive),
    pick: pick.pick,
    tested,
    ...(alt && altArchive
      ? {
          alternative: {
            version: alt.version,
            cuda: alt.cuda,
            file: altArchive.file,
            url: altArchive.loginUrl ?? altArchive.url,
            page: alt.downloadPage ?? catalog.cudnn.archivePage,
            access: archiveAccess(altArchive),
          },
        }
      : {}),
  };
}

export interface Requirements {
  tensorflow: string;
  row: string;
  os: OsName;
  gpuSupported: boolean;
  alternatives: { id: string; title: string; detail: string }[];
  pip: string;
  andCuda: boolean;
  python: { min: string; max: string; listed: string[] };
  cuda: string | null;
  cudnn: string | null;
  driverMin: string | null;
  driverFull: string | null;
  computeCapabilityMin: string | null;
  /** The oldest GPU TF's own wheels carry code for (oldest SASS or PTX of its build), when known: 3.5 for TF 2.3 although CUDA 10.1 goes to 3.0. */
  tensorflowComputeCapabilityMin: string | null;
  libraries: RequiredLibrary[];
  cudaInstaller: InstallerChoice | null;
  cudnnArchive: ArchiveChoice | null;
  notes: string[];
}

/** The oldest compute capability a TF line's wheels carry machine code or PTX for (assets/gpus.json tensorflowBuilds). */
export function tensorflowOldestComputeCapability(catalog: Catalog, tf: string): string | null {
  const mm = majorMinor(tf);
  const build = catalog.gpus.tensorflowBuilds?.find((b) => compareDotted(mm, b.from) >= 0 && compareDotted(mm, b.to) <= 0);
  return build ? [...build.sass, ...build.ptx].sort(compareDotted)[0] ?? null : null;
}

export function pythonRange(row: TfRow): { min: string; max: string } {
  const bounds = row.python.flatMap((p) => p.split('-')).sort(compareDotted);
  // The 2.7 entry of old rows sits apart from the 3.x range; min/max describe the 3.x range.
  const py3 = bounds.filter((b) => major(b) >= 3);
  const list = py3.length ? py3 : bounds;
  return { min: list[0], max: list[list.length - 1] };
}

export function pipRequirement(catalog: Catalog, row: TfRow, tf: string): string {
  const v = (parseDotted(tf) ?? []).length === 3 ? tf : row.version;
  return compareDotted(majorMinor(v), catalog.tensorflow.gpuPackageLast) <= 0 ? `tensorflow-gpu==${v}` : `tensorflow==${v}`;
}

function andCudaSpecFor(catalog: Catalog, tf: string) {
  const mm = majorMinor(tf);
  return catalog.tensorflow.andCudaSpecs?.find((s) => compareDotted(mm, s.from) >= 0 && compareDotted(mm, s.to) <= 0);
}

/**
 * The pip requirement that brings CUDA and cuDNN as wheels (Linux and WSL2, TF ≥ andCudaFirst):
 * `tensorflow[and-cuda]==2.16.1`; a minor line ("2.16") pins its table row, and a release that cannot be
 * installed with the extra takes the catalog's pin instead (2.15.0 → 2.15.0.post1). undefined where none exists.
 */
export function andCudaRequirement(catalog: Catalog, tf: string): string | undefined {
  const match = findTfRow(catalog, tf, 'linux');
  if (!match || !hasAndCuda(catalog, match.row.version, 'linux')) return undefined;
  const asked = (parseDotted(tf) ?? []).length === 3 ? tf : match.row.version;
  const pin = andCudaSpecFor(catalog, asked)?.pin;
  const v = pin && compareDotted(asked, match.row.version) === 0 ? pin : asked;
  return `tensorflow[and-cuda]==${v}`;
}

/** The Pythons `tensorflow[and-cuda]` for that TF resolves on, as ranges ("3.9-3.10"). */
export function andCudaPythons(catalog: Catalog, tf: string): string[] {
  const row = findTfRow(catalog, tf, 'linux')?.row;
  const spec = andCudaSpecFor(catalog, tf);
  return spec?.python.length ? spec.python : (row?.python ?? []);
}

const inPythonRange = (python: string, range: string) => {
  const [lo, hi = lo] = range.split('-');
  const mm = majorMinor(python);
  return compareDotted(mm, lo) >= 0 && compareDotted(mm, hi) <= 0;
};

/** Why pip cannot install that TF's [and-cuda] on this Python (before a venv is made for it), or undefined. */
export function andCudaPythonProblem(catalog: Catalog, tf: string, python: string): { message: string; fix: string; pythons: string[]; source: string } | undefined {
  const requirement = andCudaRequirement(catalog, tf);
  if (!requirement || !/^\d+\.\d+/.test(python)) return undefined;
  const pythons = andCudaPythons(catalog, tf);
  if (pythons.length === 0 || pythons.some((r) => inPythonRange(python, r))) return undefined;
  const spec = andCudaSpecFor(catalog, tf);
  const source = spec?.source ?? catalog.tensorflow.sources.linux;
  return { message: catalogText.andCudaWrongPython(requirement, majorMinor(python), pythons.join(', ')), fix: catalogText.andCudaWrongPythonFix(pythons.join(', ')), pythons, source };
}

export function requirementsFor(catalog: Catalog, tf: string, os: OsName): Requirements {
  const match = findTfRow(catalog, tf, os);
  const notes: string[] = [];
  if (!match) {
    if (os === 'windows' && !isWindowsNativeGpuSupported(catalog, tf) && findTfRow(catalog, tf, 'linux')) {
      const linux = findTfRow(catalog, tf, 'linux')!;
      return {
        tensorflow: tf,
        row: linux.row.version,
        os,
        gpuSupported: false,
        alternatives: catalog.tensorflow.windowsAlternatives.map((a) => ({ id: a.id, ...catalogText.windowsAlternative(a) })),
        pip: `tensorflow==${tf}`,
        andCuda: false,
        python: { ...pythonRange(linux.row), listed: linux.row.python },
        cuda: null,
        cudnn: null,
        driverMin: null,
        driverFull: null,
        computeCapabilityMin: null,
        tensorflowComputeCapabilityMin: null,
        libraries: [],
        cudaInstaller: null,
        cudnnArchive: null,
        notes: [
          catalogText.windowsLastGpu(catalog.tensorflow.windowsNativeGpuLast),
          catalogText.underWsl2(majorMinor(linux.row.version), linux.row.cuda, linux.row.cudnn, tf),
          ...(catalog.tensorflow.removedRows ?? [])
            .filter((r) => r.os === os && majorMinor(r.version) === majorMinor(linux.row.version))
            .map((r) => catalogText.removedRow(r.version, r.cuda, r.cudnn, r.note)),
        ],
      };
    }
    const beyond = tfBeyondCatalog(catalog, tf, os);
    throw beyond ? beyondCatalogError(beyond, os) : unknownTfVersion(catalog, tf);
  }
  const { row, viaMinorLine } = match;
  if (viaMinorLine) notes.push(catalogText.viaMinorLine(tf, row.version));
  const release = findCudaRelease(catalog, row.cuda, os);
  const driver = release ? driverMinFor(catalog, release, os) : {};
  const cudnnPick = pickCudnnBuild(catalog, row.cudnn, row.cuda, os);
  const cudnnRelease = cudnnPick?.release;
  const archive = cudnnRelease?.archives[os];
  if (!release) {
    const oldest = [...catalog.cuda.releases].sort((a, b) => compareDotted(a.version, b.version))[0]?.version;
    const older = oldest && compareDotted(row.cuda, majorMinor(oldest)) < 0 ? catalogText.olderThanAny(oldest) : '';
    notes.push(catalogText.noInstaller(os, row.cuda, older));
  }
  if (release) {
    for (const fact of cudaUnverifiedFacts(release, os)) notes.push(catalogText.unverifiedCuda(release.version, fact));
  }
  if (!archive) notes.push(catalogText.noCudnnBuild(os, row.cudnn, row.cuda));
  else if (!archive.sha256 && archive.manifestUrl) notes.push(catalogText.manifestSha(cudnnRelease!.version, archive.manifestUrl));
  const andCuda = hasAndCuda(catalog, row.version, os);
  if (andCuda) {
    notes.push(catalogText.andCudaNote(String(andCudaRequirement(catalog, tf)), andCudaPythons(catalog, tf).join(', ')));
  }
  return {
    tensorflow: tf,
    row: row.version,
    os,
    gpuSupported: true,
    alternatives: [],
    pip: pipRequirement(catalog, row, tf),
    andCuda,
    python: { ...pythonRange(row), listed: row.python },
    cuda: row.cuda,
    cudnn: row.cudnn,
    driverMin: driver.min ?? null,
    driverFull: driver.full ?? null,
    computeCapabilityMin: cudaFamily(catalog, row.cuda)?.computeCapabilityMin ?? null,
    tensorflowComputeCapabilityMin: tensorflowOldestComputeCapability(catalog, row.version),
    libraries: librariesFor(catalog, os, row.cuda, row.cudnn),
    cudaInstaller: release?.installers[os] ? { version: release.version, ...release.installers[os]! } : null,
    cudnnArchive: cudnnPick ? archiveChoice(catalog, cudnnPick, os, row.cudnn) : null,
    notes,
  };
}
