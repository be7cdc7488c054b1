// Look inside a cuDNN archive without extracting it, and say whether it may be copied into a
// toolkit: one report with every refusal (a clear reason and fix each), so nothing is written first.
import { cudnnText as T } from '../i18n/cudnn.js';
import { describeFsError, isFsError } from '../fs-errors.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../format.js';
import { safetyText } from '../i18n/safety.js';
import { windowsText } from '../i18n/windows.js';
import { WINDOWS_ZLIB_FROM_CUDNN, type OsName } from '../platform.js';
import { compareDotted, major, parseDotted } from '../version.js';
import { detectFormat, listEntries, readMember } from './archive.js';
import { ArchiveReadError, type ArchiveEntry, type ArchiveFormat } from './archive-reader.js';
import { isTar, tarPass } from './tar-reader.js';
import { archiveOs, factsFromName, isCudnnArchive, mayBeMember, parseCudnnVersionHeader, recogniseLayout, versionHeader, type LayoutEra, type PlannedMember } from './layout.js';

export type RefusalCode =
  | 'unreadable'
  | 'not-an-archive'
  | 'corrupt'
  | 'not-cudnn'
  | 'no-version'
  | 'wrong-version'
  | 'wrong-cuda'
  | 'wrong-os'
  | 'unsafe-path'
  | 'unsupported-entry'
  | 'too-large'
  | 'too-many-entries'
  | 'duplicate-entry'
  | 'not-cudnn-file';

export interface ArchiveProblem {
  code: RefusalCode;
  message: string;
  fix: string;
}

export interface InspectLimits {
  /** Sum of the uncompressed sizes; default 8 GiB (a cuDNN 9 archive is ~1–2 GiB unpacked). */
  maxTotalBytes?: number;
  /** Default 10 000 (real archives hold tens to a few hundred). */
  maxEntries?: number;
}

export interface InspectOptions extends InspectLimits {
  /** The OS the toolkit is for. */
  os: OsName;
  /** What TensorFlow needs ("7.6", "8.1"): major equal, minor not older. */
  tfCudnn?: string;
  /** The toolkit's CUDA version ("10.1"); the archive's CUDA major must match. */
  cudaVersion?: string;
}

export interface ArchiveReport {
  ok: boolean;
  file: string;
  format?: ArchiveFormat;
  problems: ArchiveProblem[];
  warnings: string[];
  os?: OsName;
  layout?: LayoutEra;
  root?: string;
  /** From the header inside: "7.6.5". */
  version?: string;
  /** From the file name when it says: "7.6.5.32". */
  versionFromName?: string;
  /** The CUDA the build is for, from the file or top-folder name ("10.1", "12"). */
  cuda?: string;
  entryCount: number;
  totalBytes: number;
  /** What would be copied, and to which part of the toolkit. */
  members: PlannedMember[];
  /** Windows cuDNN 8.3+ needs zlibwapi.dll beside it. */
  needsZlibwapi: boolean;
}

export const DEFAULT_LIMITS = { maxTotalBytes: 8 * 1024 ** 3, maxEntries: 10_000 } as const;

// Read at each use, in the run's language (the tables are per call, not per module load).
const archiveKind = (os: OsName) => T.archiveKind(os === 'windows');
const getIt = () => T.getIt;

const refuseUnsafe = (message: string): ArchiveProblem => ({ code: 'unsafe-path', message, fix: T.notNvidias(getIt()) });

/** Why this one entry may not be written under the target, given the links listed before or beside it. */
function entryDangers(e: ArchiveEntry, links: ReadonlySet<string>): ArchiveProblem[] {
  const problems: ArchiveProblem[] = [];
  if (/^([a-zA-Z]:|[\\/])/.test(e.name) || e.name.includes('\\')) problems.push(refuseUnsafe(T.absolutePath(e.name)));
  else if (e.name.split('/').includes('..')) problems.push(refuseUnsafe(T.climbsOut(e.name)));
  const parts = e.name.split('/');
  for (let i = 1; i < parts.length; i++) {
    if (links.has(parts.slice(0, i).join('/'))) problems.push(refuseUnsafe(T.throughLink(e.name, parts.slice(0, i).join('/'))));
  }
  if (e.type === 'symlink') {
    const target = e.linkTarget ?? '';
    // cuDNN's own links (libcudnn.so → libcudnn.so.7) name a file in the same folder; anything else could point out.
    if (target === '' || path.posix.isAbsolute(target) || /^[a-zA-Z]:/.test(target) || path.posix.normalize(target).includes('/') || target === '..' || target === '.')
      problems.push(refuseUnsafe(T.linkOutside(e.name, target)));
  }
  return problems;
}

/** Why an entry may not be written under the target: absolute, `..`, backslashes, links out. */
export function unsafeEntries(entries: readonly ArchiveEntry[]): ArchiveProblem[] {
  const links = new Set(entries.filter((e) => e.type === 'symlink' || e.type === 'hardlink').map((e) => e.name));
  return entries.flatMap((e) => entryDangers(e, links));
}

/** A refusal found while a tar pass was running; the pass stops at the entry that caused it. */
export class ArchiveRefusal extends Error {
  constructor(readonly problem: ArchiveProblem) {
    super(problem.message);
  }
}

/**
 * The checks a tar pass makes on each entry as it reaches it, before anything is written for it:
 * the entry and size bounds (the stream stops the moment one is passed), paths and links out, and
 * entries cuDNN never ships (hard links, devices).
 */
export function entryGuard(limits: Required<InspectLimits>): (e: ArchiveEntry) => void {
  const links = new Set<string>();
  const seen = new Set<string>();
  let count = 0;
  let bytes = 0;
  return (e) => {
    count += 1;
    bytes += e.type === 'file' ? e.size : 0;
    if (count > limits.maxEntries) throw new ArchiveRefusal({ code: 'too-many-entries', message: T.tooManyEntriesStreaming(limits.maxEntries), fix: getIt() });
    if (bytes > limits.maxTotalBytes) throw new ArchiveRefusal(tooLarge(bytes, limits.maxTotalBytes, true));
    const danger = entryDangers(e, links)[0] ?? unsupportedEntries([e], 'tar.gz')[0];
    if (danger) throw new ArchiveRefusal(danger);
    // A second entry of a name would replace the first after it was hashed: refused before it is written.
    if (e.type !== 'dir') {
      if (seen.has(e.name)) throw new ArchiveRefusal(duplicate(e.name));
      seen.add(e.name);
    }
    if (e.type === 'symlink') links.add(e.name);
  };
}

const duplicate = (name: string): ArchiveProblem => ({ code: 'duplicate-entry', message: safetyText.duplicateMember(name), fix: safetyText.duplicateMemberFix });

function duplicateEntries(entries: readonly ArchiveEntry[], os: OsName): ArchiveProblem[] {
  const seen = new Map<string, string>();
  for (const e of entries) {
    if (e.type === 'dir') continue;
    // Windows file names ignore case: cudnn64_7.dll and CUDNN64_7.DLL are one file there (found under Wine).
    const key = os === 'windows' ? e.name.toLowerCase() : e.name;
    const first = seen.get(key);
    if (first === e.name) return [duplicate(e.name)];
    if (first !== undefined) return [{ code: 'duplicate-entry', message: windowsText.caseTwins(first, e.name), fix: safetyText.duplicateMemberFix }];
    seen.set(key, e.name);
  }
  return [];
}

/** cuDNN's own file names: its headers and libraries, zlibwapi beside them on Windows, its license. */
const CUDNN_OWN = /^((lib)?cudnn|zlibwapi)|licen[cs]e/i;

/** Members that would write a file that is not cuDNN's (the toolkit's libcudart, cublas, nvcc …), or a cuDNN link to one. */
function foreignMembers(members: readonly PlannedMember[]): ArchiveProblem[] {
  const bad = members.filter((m) => !CUDNN_OWN.test(path.posix.basename(m.rel)) || (m.type === 'symlink' && !CUDNN_OWN.test(path.posix.basename(m.linkTarget ?? ''))));
  if (bad.length === 0) return [];
  const names = bad.map((m) => (m.type === 'symlink' && CUDNN_OWN.test(path.posix.basename(m.rel)) ? `${m.source} → ${m.linkTarget}` : m.source));
  return [{ code: 'not-cudnn-file', message: safetyText.notCudnnFile(names.slice(0, 5).join(', ') + (names.length > 5 ? ` (+${names.length - 5})` : '')), fix: safetyText.notCudnnFileFix }];
}

const tooLarge = (bytes: number, limit: number, atLeast = false): ArchiveProblem => ({ code: 'too-large', message: T.tooLarge(formatBytes(bytes), formatBytes(limit), atLeast), fix: getIt() });

/** Headers that may hold the version: kept in memory when a tar pass meets them. */
const mayBeVersionHeader = (e: ArchiveEntry) => e.type === 'file' && /^[^/]+\/include\/cudnn(_version)?\.h$/.test(e.name) && e.size <= 1024 * 1024;

function unsupportedEntries(entries: readonly ArchiveEntry[], format: ArchiveFormat): ArchiveProblem[] {
  const odd = entries.filter((e) => e.type === 'hardlink' || e.type === 'other' || (format === 'zip' && e.type === 'symlink'));
  if (odd.length === 0) return [];
  return [{ code: 'unsupported-entry', message: T.unsupportedEntries(odd.length, odd[0].name), fix: getIt() }];
}

function versionProblems(report: ArchiveReport, options: InspectOptions): ArchiveProblem[] {
  const problems: ArchiveProblem[] = [];
  const v = parseDotted(report.version ?? '') ?? [];
  if (options.tfCudnn) {
    const want = parseDotted(options.tfCudnn) ?? [];
    const tooOld = want.length > 1 && v[0] === want[0] && (v[1] ?? 0) < (want[1] ?? 0);
    if (v[0] !== want[0] || tooOld) {
      problems.push({
        code: 'wrong-version',
        message: T.wrongVersion(report.version, options.tfCudnn, want[0], want[1] ?? 0),
        fix: T.wrongVersionFix(options.tfCudnn, options.cudaVersion, archiveKind(options.os)),
      });
    }
  }
  if (options.cudaVersion && report.cuda && major(report.cuda) !== major(options.cudaVersion)) {
    problems.push({
      code: 'wrong-cuda',
      message: T.wrongCuda(report.cuda, options.cudaVersion),
      fix: T.wrongCudaFix(report.version, options.cudaVersion),
    });
  }
  return problems;
}

export async function inspectCudnnArchive(file: string, options: InspectOptions): Promise<ArchiveReport> {
  return (await inspectArchive(file, options)).report;
}

/** Where a one-pass import writes what it reads: every entry that could be a member, hashed while written. */
export interface StagingPass {
  dest: string;
  signal?: AbortSignal;
  onFile?: (name: string, bytes: number) => void;
  /** How far the pass is (see TarPassOptions.onRead). */
  onRead?: (done: number, total: number) => void;
}

/**
 * Inspects the archive; given `staging` and a tar, writes the candidate members into `staging.dest`
 * in the same pass (hashes returned), so the archive is read once. Zips are only inspected here.
 */
export async function inspectArchive(file: string, options: InspectOptions, staging?: StagingPass): Promise<{ report: ArchiveReport; hashes: Map<string, string> }> {
  const report: ArchiveReport = { ok: false, file, problems: [], warnings: [], entryCount: 0, totalBytes: 0, members: [], needsZlibwapi: false };
  const hashes = new Map<string, string>();
  const refuse = (p: ArchiveProblem) => {
    report.problems.push(p);
    return { report, hashes };
  };
  const limits = { ...DEFAULT_LIMITS, ...stripUndefined({ maxTotalBytes: options.maxTotalBytes, maxEntries: options.maxEntries }) };
  try {
    const s = await stat(file);
    if (!s.isFile()) return refuse({ code: 'unreadable', message: T.notAFile(file), fix: T.notAFileFix });
    report.format = await detectFormat(file);
  } catch (error) {
    return refuse({ code: 'unreadable', message: T.cannotRead(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), fix: T.cannotReadFix });
  }
  if (!report.format) return refuse({ code: 'not-an-archive', message: T.notAnArchive(path.basename(file)), fix: T.comesAs(archiveKind(options.os), getIt()) });
  const format = report.format;

  let entries: ArchiveEntry[];
  let kept = new Map<string, Buffer>();
  try {
    if (isTar(format)) {
      // One pass: listed, checked entry by entry, the version header kept, and (importing) the members staged.
      const pass = await tarPass(file, format, staging?.dest, { ...staging, check: entryGuard(limits), keep: mayBeVersionHeader, write: mayBeMember });
      ({ entries, kept } = pass);
      for (const [k, v] of pass.hashes) hashes.set(k, v);
    } else entries = await listEntries(file, format);
  } catch (error) {
    if (error instanceof ArchiveRefusal) return refuse(error.problem);
    if (staging?.signal?.aborted) throw error;
    // A full disk or an unwritable staging folder is not the archive's fault: say what it is.
    if (isFsError(error)) throw describeFsError(error);
    return refuse(readFailure(error, file));
  }
  report.entryCount = entries.length;
  report.totalBytes = entries.reduce((n, e) => n + (e.type === 'file' ? e.size : 0), 0);
  if (entries.length > limits.maxEntries) refuse({ code: 'too-many-entries', message: T.tooManyEntries(entries.length, limits.maxEntries), fix: getIt() });
  if (report.totalBytes > limits.maxTotalBytes) refuse(tooLarge(report.totalBytes, limits.maxTotalBytes));
  report.problems.push(...unsafeEntries(entries), ...unsupportedEntries(entries, format), ...duplicateEntries(entries, options.os));
  if (report.problems.length > 0) return { report, hashes };

  const layout = recogniseLayout(entries);
  if (!layout || !isCudnnArchive(layout.members))
    return refuse({ code: 'not-cudnn', message: T.notCudnn(path.basename(file)), fix: T.downloadAs(archiveKind(options.os)) });
  Object.assign(report, { layout: layout.era, root: layout.root, members: layout.members });
  const foreign = foreignMembers(layout.members);
  if (foreign.length) return refuse(foreign[0]);

  const nameFacts = { ...factsFromName(layout.root), ...stripUndefined(factsFromName(path.basename(file))) };
  report.versionFromName = nameFacts.version;
  report.cuda = nameFacts.cuda;
  report.os = archiveOs(layout.members) ?? nameFacts.os;
  if (report.os && report.os !== options.os) {
    refuse({
      code: 'wrong-os',
      message: T.wrongOs(report.os === 'windows', options.os === 'windows'),
      fix: T.wrongOsFix(archiveKind(options.os)),
    });
  }

  const header = versionHeader(layout.members);
  let text: string | undefined;
  try {
    text = header ? (kept.get(header.source) ?? (await readMember(file, format, header.source, header.size, 1024 * 1024)))?.toString('utf8') : undefined;
  } catch (error) {
    return refuse(readFailure(error, file));
  }
  report.version = text === undefined ? undefined : parseCudnnVersionHeader(text);
  if (!report.version) return refuse({ code: 'no-version', message: T.noVersion, fix: getIt() });
  if (report.versionFromName && compareDotted(report.versionFromName.split('.').slice(0, 3).join('.'), report.version) !== 0)
    report.warnings.push(T.nameDisagrees(report.versionFromName, report.version));
  if (!report.cuda && options.cudaVersion) report.warnings.push(T.cudaUnknown);
  report.problems.push(...versionProblems(report, options));
  report.needsZlibwapi = options.os === 'windows' && compareDotted(report.version, WINDOWS_ZLIB_FROM_CUDNN) >= 0;
  report.ok = report.problems.length === 0;
  return { report, hashes };
}

function readFailure(error: unknown, file: string): ArchiveProblem {
  if (error instanceof ArchiveReadError && error.reason === 'unsafe-path')
    return { code: 'unsafe-path', message: T.entryOutside(error.message), fix: T.notNvidias(getIt()) };
  if (error instanceof ArchiveReadError && error.reason === 'unsupported') return { code: 'unreadable', message: error.message, fix: T.installXz };
  return { code: 'corrupt', message: T.damaged(path.basename(file), (error as Error).message), fix: T.stoppedEarly(getIt()) };
}


function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
