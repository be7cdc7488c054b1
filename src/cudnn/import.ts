// Copy cuDNN's bin, include and lib into a toolkit under a manifest with backups, so that a copy
// can be finished after a crash or rolled back to exactly what was there before.
//
// The OS is data here (it decides the layout: lib\x64 vs lib64, DLLs vs .so) while file I/O uses
// the host's path module, so a Windows toolkit can be laid out and asserted in a temp dir on Linux.
import { describeFsError, isFsError } from '../fs-errors.js';
import { cudnnText as T } from '../i18n/cudnn.js';
import { access, constants, lstat, mkdir, readdir, realpath, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CudawizError, EXIT } from '../errors.js';
import { elevationHint, runsAsRoot, toolkitSubdirs, type OsName } from '../platform.js';
import { detectFormat, extractArchive } from './archive.js';
import { ArchiveReadError } from './archive-reader.js';
import { isTar } from './tar-reader.js';
import { inspectArchive, inspectCudnnArchive, type ArchiveReport, type InspectLimits } from './inspect.js';
import type { ToolkitPart } from './layout.js';
import { safetyText } from '../i18n/safety.js';
import { containment, nearestReal, within, type Containment } from './contain.js';
import { currentState, hostPath, manifestPaths, readManifest, sameState, sha256File, writeManifest, type FileState, type Manifest, type ManifestFile } from './manifest.js';
import { copyReplacing, makeSymlink, moveInto } from '../trust/write.js';

/** For a tar's one-pass 'extract' phase, `bytes`/`totalBytes` say how far through the archive it is (totalBytes 0 while unknown). */
export interface ImportProgress {
  phase: 'extract' | 'hash' | 'copy';
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  current?: string;
}

export interface ImportOptions extends InspectLimits {
  archive: string;
  /** The archive's name as the user gave it, recorded in the manifest when `archive` is cudawiz's private checked copy of it. */
  recordedAs?: string;
  toolkitDir: string;
  os: OsName;
  /** What TensorFlow needs ("7.6"); checked when given. */
  tfCudnn?: string;
  /** The toolkit's CUDA ("10.1"); checked when given. */
  cudaVersion?: string;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Roll back a previous complete import first (a re-copy); without it a second import is refused. */
  replacePrevious?: boolean;
  /** For tests only: wait this long before putting each file in place, so a copy can be killed midway. */
  throttleMs?: number;
  /** What inspection noticed but did not refuse (the name says one version, the header another). */
  onWarning?: (line: string) => void;
}

export type ImportState =
  | { state: 'none'; rolledBack?: Manifest }
  | { state: 'complete'; manifest: Manifest }
  | { state: 'interrupted'; manifest: Manifest; placed: string[]; pending: string[]; canFinish: boolean };

export interface RollbackReport {
  toolkitDir: string;
  /** What the manifest was in when the rollback started; 'none' when there was nothing to undo. */
  from: 'none' | 'copying' | 'complete';
  removed: string[];
  restored: string[];
  /** Files left alone: changed by the user since cudawiz wrote them (their originals stay in the backup). */
  kept: { path: string; reason: string }[];
  /** Files that were in the toolkit before cudawiz, identical to the archive's: never removed. */
  preexisting: string[];
  /** Where the originals of kept files are, when a backup was kept. */
  backup?: string;
  /** An interrupted run's scratch folders (.cudawiz/incoming, staging) were removed. */
  clearedScratch?: boolean;
}

/** The toolkit folder each part goes to, `/`-separated: Windows `lib/x64`, Linux `lib64`. */
export function toolkitPartDir(os: OsName, part: ToolkitPart): string {
  return toolkitSubdirs(os)[part].split(/[\\/]/).join('/');
}

export function refusalError(report: ArchiveReport): CudawizError {
  const first = report.problems[0];
  const more = report.problems.length > 1 ? T.andMore(report.problems.length - 1, report.problems.slice(1).map((p) => p.code).join(', ')) : '';
  return new CudawizError(T.refusing(path.basename(report.file), first.message, more), {
    code: 'cudnn-archive-refused',
    fix: first.fix,
    details: { problems: report.problems },
  });
}

const interrupted = (message: string, fix?: string) => new CudawizError(message, { code: 'interrupted', exitCode: EXIT.interrupted, fix });

export async function importCudnn(options: ImportOptions): Promise<Manifest> {
  const { archive, toolkitDir, os, signal } = options;
  // A tar whose toolkit can take it is read once: listed, checked, staged and hashed in one pass.
  // Otherwise the archive is inspected first, so its refusal comes before the toolkit's, as always.
  if (isTar(await detectFormat(archive).catch(() => undefined)) && (await toolkitTakesOnePass(options))) return importInOnePass(options);
  const report = await inspectCudnnArchive(archive, options);
  if (!report.ok) throw refusalError(report);
  await assertWritableToolkit(toolkitDir, os);
  await checkPrevious(options);
  let partDirs = await resolvePartDirs(toolkitDir, os);
  await checkDestinations(report, partDirs, toolkitDir);
  const paths = manifestPaths(toolkitDir);
  const incoming = path.join(paths.dir, 'incoming');
  const madeBookkeeping = !(await exists(paths.dir));
  // Staged and checked in full (every CRC, every file as listed) before an earlier copy is touched:
  // a damaged archive leaves the working cuDNN in place.
  let staged: Map<string, StagedFile>;
  try {
    await rm(incoming, { recursive: true, force: true });
    staged = await stage(report, incoming, options);
  } catch (error) {
    await rm(madeBookkeeping ? paths.dir : incoming, { recursive: true, force: true });
    if (signal?.aborted) throw interrupted(T.cancelledBefore);
    throw error;
  }
  try {
    await clearPrevious(options);
    partDirs = await resolvePartDirs(toolkitDir, os);
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    throw error;
  }
  return placeStaged(options, madeBookkeeping, partDirs, async () => {
    await rm(paths.staging, { recursive: true, force: true });
    await moveInto(incoming, paths.staging);
    return { report, staged };
  });
}

/** Every toolkit check passes without changing anything: writable, no earlier copy in the way, parts inside it. */
async function toolkitTakesOnePass(options: ImportOptions): Promise<boolean> {
  try {
    await assertWritableToolkit(options.toolkitDir, options.os);
    await resolvePartDirs(options.toolkitDir, options.os);
  } catch {
    return false;
  }
  const previous = await importState(options.toolkitDir);
  return previous.state === 'none' || (previous.state === 'complete' && options.replacePrevious === true);
}

/**
 * The tar's single pass writes into `.cudawiz/incoming`, not staging: an earlier copy's rollback
 * (a re-copy) must wait until the archive is known good, and that rollback clears staging.
 */
async function importInOnePass(options: ImportOptions): Promise<Manifest> {
  const { archive, toolkitDir, os, signal } = options;
  const paths = manifestPaths(toolkitDir);
  const incoming = path.join(paths.dir, 'incoming');
  const madeBookkeeping = !(await exists(paths.dir));
  let progress = { done: 0, total: 0 };
  let files = 0;
  let report: ArchiveReport;
  let hashes: Map<string, string>;
  try {
    await rm(incoming, { recursive: true, force: true });
    ({ report, hashes } = await inspectArchive(archive, options, {
      dest: incoming,
      signal,
      onRead: (done, total) => (progress = { done, total }),
      // Until the pass ends the members are not all known: bytes say how far through the archive it is.
      onFile: (name) => options.onProgress?.({ phase: 'extract', files: ++files, totalFiles: files, bytes: progress.done, totalBytes: progress.total, current: name }),
    }));
    if (!report.ok) throw refusalError(report);
    await checkDestinations(report, await resolvePartDirs(toolkitDir, os), toolkitDir);
  } catch (error) {
    await rm(madeBookkeeping ? paths.dir : incoming, { recursive: true, force: true });
    if (signal?.aborted) throw interrupted(T.cancelledBefore);
    throw error;
  }
  let partDirs: Record<ToolkitPart, string>;
  try {
    await clearPrevious(options);
    partDirs = await resolvePartDirs(toolkitDir, os);
  } catch (error) {
    await rm(incoming, { recursive: true, force: true }); // the toolkit changed under us since the checks: leave no half-import
    throw error;
  }
  return placeStaged(options, madeBookkeeping, partDirs, async () => {
    await rm(paths.staging, { recursive: true, force: true });
    await moveInto(incoming, paths.staging);
    return { report, staged: await stagedFiles(report, paths.staging, hashes, options) };
  });
}

/** Refuses an interrupted copy, and a complete one unless asked to replace it; changes nothing. */
async function checkPrevious(options: ImportOptions): Promise<ImportState> {
  const { toolkitDir } = options;
  const previous = await importState(toolkitDir);
  if (previous.state === 'interrupted')
    throw new CudawizError(T.interruptedBefore(toolkitDir), {
      code: 'import-interrupted',
      fix: T.finishOrUndo(toolkitDir),
    });
  if (previous.state === 'complete' && !options.replacePrevious)
    throw new CudawizError(T.alreadyCopied(previous.manifest.archive.version, toolkitDir), {
      code: 'already-imported',
      fix: T.alreadyCopiedFix(toolkitDir),
    });
  return previous;
}

/** The checks of checkPrevious, then a complete earlier copy rolled back (a re-copy) and a kept rollback's leftovers set aside. */
async function clearPrevious(options: ImportOptions): Promise<void> {
  const previous = await checkPrevious(options);
  if (previous.state === 'complete') await rollbackImport(options.toolkitDir);
  await setAsideLeftovers(options.toolkitDir);
}

/** Every member's destination folder resolves inside the toolkit (no folder link carries it out). */
async function checkDestinations(report: ArchiveReport, partDirs: Record<ToolkitPart, string>, toolkitDir: string): Promise<void> {
  const root = await realpath(toolkitDir);
  for (const m of report.members) {
    const dir = path.dirname(hostPath(toolkitDir, `${partDirs[m.part]}/${m.rel}`));
    const real = await nearestReal(dir);
    if (!within(root, real)) throw new CudawizError(safetyText.pathEscapes(dir, real, toolkitDir), { code: 'link-out', fix: safetyText.pathEscapesFix });
  }
}

/** Staging filled by `fill`, then the manifest and the renames into place; a failure before the manifest leaves the toolkit as it was. */
async function placeStaged(
  options: ImportOptions,
  madeBookkeeping: boolean,
  partDirs: Record<ToolkitPart, string>,
  fill: () => Promise<{ report: ArchiveReport; staged: Map<string, StagedFile> }>,
): Promise<Manifest> {
  const { toolkitDir, signal } = options;
  const paths = manifestPaths(toolkitDir);
  try {
    const { report, staged } = await fill();
    for (const w of report.warnings) options.onWarning?.(w);
    const manifest = await plan(report, staged, partDirs, options);
    await writeManifest(toolkitDir, manifest);
    await placeAll(toolkitDir, manifest, options);
    return manifest;
  } catch (error) {
    if (!(await exists(paths.manifest))) {
      // Nothing reached the toolkit yet: leave it exactly as it was.
      await rm(madeBookkeeping ? paths.dir : paths.staging, { recursive: true, force: true });
      if (signal?.aborted) throw interrupted(T.cancelledBefore);
    } else if (signal?.aborted) {
      throw interrupted(T.interruptedMidway(toolkitDir), T.finishOrUndo(toolkitDir));
    } else if (!(error instanceof CudawizError)) {
      throw new CudawizError(T.stoppedMidway(toolkitDir, (error as Error).message), {
        code: 'import-failed',
        fix: T.fixThenFinish(toolkitDir),
      });
    }
    throw error;
  }
}

/** A rollback that kept user-changed files left its record and backups: keep them, under dated names, out of the new import's way. */
async function setAsideLeftovers(toolkitDir: string): Promise<void> {
  const p = manifestPaths(toolkitDir);
  if (!(await exists(p.manifest))) return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (await exists(p.backup)) await moveInto(p.backup, `${p.backup}-${stamp}`);
  await moveInto(p.manifest, path.join(p.dir, `manifest-rolled-back-${stamp}.json`));
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

async function assertWritableToolkit(toolkitDir: string, os: OsName): Promise<void> {
  const s = await lstat(toolkitDir).catch(() => undefined);
  if (!s?.isDirectory() && !(s?.isSymbolicLink() && (await realpath(toolkitDir).then((r) => lstat(r)).then((r) => r.isDirectory(), () => false))))
    throw new CudawizError(T.noToolkitFolder(toolkitDir), { code: 'no-toolkit', fix: T.noToolkitFolderFix });
  try {
    await access(toolkitDir, constants.W_OK);
  } catch {
    throw new CudawizError(T.noWritePermission(toolkitDir), { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: os === 'linux' && runsAsRoot() ? safetyText.rootCannotWrite(toolkitDir) : elevationHint(os, 'cudawiz install …') });
  }
}

/** Each part's folder, refusing one that is a link out of the toolkit (Linux lib64 → targets/… inside is normal). */
async function resolvePartDirs(toolkitDir: string, os: OsName): Promise<Record<ToolkitPart, string>> {
  const root = await realpath(toolkitDir);
  // cudawiz's own folder must be a real folder of the toolkit: staging, backups and the manifest are written there.
  const own = manifestPaths(toolkitDir).dir;
  const ownStat = await lstat(own).catch(() => undefined);
  if (ownStat && !ownStat.isDirectory()) {
    const real = await realpath(own).catch(() => own);
    throw new CudawizError(safetyText.pathEscapes(own, real, toolkitDir), { code: 'link-out', fix: safetyText.bookkeepingNotFolderFix(own) });
  }
  const out = {} as Record<ToolkitPart, string>;
  for (const part of ['bin', 'include', 'lib'] as const) {
    const rel = toolkitPartDir(os, part);
    out[part] = rel;
    const real = await realpath(hostPath(toolkitDir, rel)).catch(() => undefined);
    if (real !== undefined && real !== root && !real.startsWith(root + path.sep))
      throw new CudawizError(T.pointsOutside(hostPath(toolkitDir, rel), real), {
        code: 'link-out',
        fix: T.pointsOutsideFix,
      });
  }
  return out;
}

interface StagedFile extends FileState {
  source: string;
}

/** Extract the planned members into staging (same filesystem, so placing is a rename), hashed as they are written. */
async function stage(report: ArchiveReport, staging: string, options: ImportOptions): Promise<Map<string, StagedFile>> {
  const totalFiles = report.members.length;
  const totalBytes = report.members.reduce((n, m) => n + m.size, 0);
  let files = 0;
  let bytes = 0;
  const hashes = await extractArchive(options.archive, report.format!, staging, {
    signal: options.signal,
    only: new Set(report.members.map((m) => m.source)),
    onFile: (name, size) => options.onProgress?.({ phase: 'extract', files: ++files, totalFiles, bytes: (bytes += size), totalBytes, current: name }),
  }).catch((error: unknown) => {
    // A full disk or an unwritable staging folder is not the archive's fault: say what it is.
    if (isFsError(error)) throw describeFsError(error);
    if (!(error instanceof ArchiveReadError)) throw error;
    throw new CudawizError(T.damagedRefusing(path.basename(options.archive), error.message), {
      code: 'cudnn-archive-refused',
      fix: T.damagedRefusingFix,
      details: { problems: [{ code: 'corrupt', message: error.message }] },
    });
  });
  return stagedFiles(report, staging, hashes, options);
}

/** Each planned member as it lies in staging, checked against the listing; a file not hashed while written is hashed now. */
async function stagedFiles(report: ArchiveReport, staging: string, hashes: Map<string, string>, options: ImportOptions): Promise<Map<string, StagedFile>> {
  const totalFiles = report.members.length;
  const totalBytes = report.members.reduce((n, m) => n + m.size, 0);
  const staged = new Map<string, StagedFile>();
  let files = 0;
  let bytes = 0;
  for (const m of report.members) {
    options.signal?.throwIfAborted();
    const file = hostPath(staging, m.source);
    const s = await lstat(file).catch(() => undefined);
    if (m.type === 'symlink') {
      if (!s?.isSymbolicLink()) throw new CudawizError(T.unpackedWrong(m.source), { code: 'corrupt' });
      staged.set(m.source, { source: m.source, type: 'symlink', linkTarget: m.linkTarget });
      continue;
    }
    if (!s?.isFile()) throw new CudawizError(T.unpackedWrong(m.source), { code: 'corrupt', fix: T.downloadAgain });
    const sha256 = hashes.get(m.source) ?? (await sha256File(file));
    staged.set(m.source, { source: m.source, type: 'file', size: s.size, sha256 });
    if (!hashes.has(m.source)) options.onProgress?.({ phase: 'hash', files: ++files, totalFiles, bytes: (bytes += s.size), totalBytes, current: m.source });
  }
  return staged;
}

async function plan(report: ArchiveReport, staged: Map<string, StagedFile>, partDirs: Record<ToolkitPart, string>, options: ImportOptions): Promise<Manifest> {
  const byPath = new Map<string, ManifestFile>();
  const createdDirs = new Set<string>();
  const root = await realpath(options.toolkitDir);
  for (const m of report.members) {
    const rel = `${partDirs[m.part]}/${m.rel}`;
    const dest = hostPath(options.toolkitDir, rel);
    // Every destination's folder, resolved: a link such as include/thrust → /elsewhere carries nothing out.
    const parent = await nearestReal(path.dirname(dest));
    if (!within(root, parent))
      throw new CudawizError(safetyText.pathEscapes(path.dirname(dest), parent, options.toolkitDir), { code: 'link-out', fix: safetyText.pathEscapesFix });
    const segments = rel.split('/');
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/');
      if (!createdDirs.has(dir) && !(await exists(hostPath(options.toolkitDir, dir)))) createdDirs.add(dir);
    }
    const now = await currentState(dest);
    if (now?.isDir) throw new CudawizError(T.folderInTheWay(dest), { code: 'conflict', fix: T.folderInTheWayFix });
    const { source: _source, ...state } = staged.get(m.source)!;
    byPath.set(rel, { path: rel, source: m.source, ...state, original: now });
  }
  return {
    tool: 'cudawiz',
    schema: 1,
    what: 'cudnn',
    state: 'copying',
    os: options.os,
    toolkitDir: options.toolkitDir,
    archive: { file: path.resolve(options.recordedAs ?? options.archive), format: report.format!, layout: report.layout!, version: report.version!, cuda: report.cuda },
    startedAt: new Date().toISOString(),
    createdDirs: [...createdDirs],
    files: [...byPath.values()],
  };
}

async function placeAll(toolkitDir: string, manifest: Manifest, options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; throttleMs?: number; verifyStaged?: boolean }): Promise<void> {
  const c = await containment(toolkitDir);
  // Every path is checked before the first change, and again right before its own.
  await preflight(c, manifest);
  for (const d of manifest.createdDirs) await mkdir(await c.inToolkit(d), { recursive: true });
  const totalBytes = manifest.files.reduce((n, f) => n + (f.size ?? 0), 0);
  let bytes = 0;
  let files = 0;
  for (const f of manifest.files) {
    options.signal?.throwIfAborted();
    if (options.throttleMs) await delay(options.throttleMs, undefined, { signal: options.signal });
    await placeFile(c, toolkitDir, f, options.verifyStaged === true);
    bytes += f.size ?? 0;
    options.onProgress?.({ phase: 'copy', files: ++files, totalFiles: manifest.files.length, bytes, totalBytes, current: f.path });
  }
  manifest.state = 'complete';
  manifest.finishedAt = new Date().toISOString();
  await writeManifest(toolkitDir, manifest);
  await rm(manifestPaths(toolkitDir).staging, { recursive: true, force: true });
}

/** Every path a manifest names, inside the toolkit (its backups inside .cudawiz/backup, its sources inside staging), before anything changes. */
async function preflight(c: Containment, manifest: Manifest, withSources = true): Promise<void> {
  for (const d of manifest.createdDirs) await c.inToolkit(d);
  for (const f of manifest.files) {
    await c.inToolkit(f.path);
    await c.inBackup(f.path);
    if (withSources) await c.inStaging(f.source);
  }
}

/** Idempotent: back up what is there (once, atomically), then rename the staged copy over it. */
async function placeFile(c: Containment, toolkitDir: string, f: ManifestFile, verifyStaged: boolean): Promise<void> {
  const dest = await c.inToolkit(f.path);
  const quick = await currentState(dest, false);
  if (quick) {
    const now = quick.type === 'file' ? await currentState(dest) : quick;
    if (sameState(now, f)) return;
    const saved = await c.inBackup(f.path);
    if (now?.type === 'file' && !(await exists(saved))) {
      await mkdir(path.dirname(saved), { recursive: true });
      await copyReplacing(dest, await c.inBackup(f.path));
    }
  }
  const from = await c.inStaging(f.source);
  const staged = await currentState(from, verifyStaged);
  const missing = () =>
    new CudawizError(T.stagedGone(f.source), {
      code: 'staging-missing',
      fix: T.stagedGoneFix(toolkitDir),
    });
  if (!staged || staged.isDir) throw missing();
  // Finishing a copy a killed run left: what lies in staging must still be what the manifest says.
  if (verifyStaged && !sameState(staged, f)) throw missing();
  const to = await c.inToolkit(f.path);
  try {
    await moveInto(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    if (f.type === 'symlink') {
      await rm(to, { force: true });
      await makeSymlink(f.linkTarget!, to);
    } else await copyReplacing(from, to);
  }
}

export async function importState(toolkitDir: string): Promise<ImportState> {
  const manifest = await readManifest(toolkitDir);
  if (!manifest) return { state: 'none' };
  if (manifest.state === 'rolled-back') return { state: 'none', rolledBack: manifest };
  if (manifest.state === 'complete') return { state: 'complete', manifest };
  const placed: string[] = [];
  const pending: string[] = [];
  let canFinish = true;
  for (const f of manifest.files) {
    if (sameState(await currentState(hostPath(toolkitDir, f.path)), f)) placed.push(f.path);
    else {
      pending.push(f.path);
      if (!(await exists(hostPath(manifestPaths(toolkitDir).staging, f.source)))) canFinish = false;
    }
  }
  return { state: 'interrupted', manifest, placed, pending, canFinish };
}

/** Finish an interrupted copy from its staged files; a complete one is returned as is. */
export async function finishImport(toolkitDir: string, options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void } = {}): Promise<Manifest> {
  const manifest = await readManifest(toolkitDir);
  if (!manifest || manifest.state === 'rolled-back')
    throw new CudawizError(T.nothingToFinish(toolkitDir), { code: 'nothing-to-finish', fix: T.nothingToFinishFix });
  if (manifest.state === 'complete') return manifest;
  await placeAll(toolkitDir, manifest, { ...options, verifyStaged: true });
  return manifest;
}

/**
 * A pass killed before its manifest was written leaves only cudawiz's own scratch folders
 * (`.cudawiz/incoming`, `.cudawiz/staging`); nothing in the toolkit was touched yet, so they go.
 */
async function removeUnfinishedStaging(toolkitDir: string): Promise<boolean> {
  const paths = manifestPaths(toolkitDir);
  const dir = await lstat(paths.dir).catch(() => undefined);
  if (!dir?.isDirectory()) return false; // absent, or a link: not cudawiz's folder to empty
  const scratch = [path.join(paths.dir, 'incoming'), paths.staging];
  const found = (await Promise.all(scratch.map(exists))).some(Boolean);
  for (const p of scratch) await rm(p, { recursive: true, force: true });
  await rmdir(paths.dir).catch(() => undefined); // only when nothing else of cudawiz's is left there
  return found;
}

/** Undo cudawiz's copy: remove what it wrote (if unchanged since), restore every original, never remove what was there before. */
export async function rollbackImport(toolkitDir: string): Promise<RollbackReport> {
  const manifest = await readManifest(toolkitDir);
  const report: RollbackReport = { toolkitDir, from: 'none', removed: [], restored: [], kept: [], preexisting: [] };
  if (!manifest || manifest.state === 'rolled-back') {
    if (await removeUnfinishedStaging(toolkitDir)) report.clearedScratch = true;
    return report;
  }
  report.from = manifest.state;
  const paths = manifestPaths(toolkitDir);
  const c = await containment(toolkitDir);
  await preflight(c, manifest, false);
  const kept: string[] = [];
  const backupOf = async (f: ManifestFile) => {
    const saved = await c.inBackup(f.path);
    return (await lstat(saved).catch(() => undefined))?.isFile() ? saved : undefined;
  };
  for (const f of [...manifest.files].reverse()) {
    const dest = await c.inToolkit(f.path);
    const now = await currentState(dest);
    const ours = sameState(now, f);
    // In the toolkit before cudawiz, byte for byte: the import changed nothing there, so neither does this.
    if (f.original && sameState(f.original, f)) {
      report.preexisting.push(f.path);
      continue;
    }
    if (now && !ours) {
      if (f.original && sameState(now, f.original)) {
        const saved = await backupOf(f);
        if (saved) await rm(saved, { force: true }); // never replaced: nothing to undo
      } else {
        report.kept.push({ path: f.path, reason: T.changedSince });
        kept.push(f.path);
      }
      continue;
    }
    const saved = f.original?.type === 'file' ? await backupOf(f) : undefined;
    if (f.original?.type === 'file' && !saved) {
      // cudawiz's copy stays rather than leave nothing where the user's file was.
      report.kept.push({ path: f.path, reason: safetyText.keptNoBackup });
      continue;
    }
    const linkOut = f.original?.type === 'symlink' && !(await c.linkStaysInside(f.path, f.original.linkTarget!));
    if (ours) {
      await unlink(await c.inToolkit(f.path));
      report.removed.push(f.path);
    }
    if (f.original?.type === 'symlink') {
      if (linkOut) report.kept.push({ path: f.path, reason: safetyText.linkNotRecreated(f.original.linkTarget!) });
      else {
        await makeSymlink(f.original.linkTarget!, await c.inToolkit(f.path));
        report.restored.push(f.path);
      }
    } else if (saved) {
      await moveInto(await c.inBackup(f.path), await c.inToolkit(f.path));
      report.restored.push(f.path);
    }
  }
  for (const d of [...manifest.createdDirs].reverse()) await rmdir(await c.inToolkit(d)).catch(() => undefined);
  await rm(paths.staging, { recursive: true, force: true });
  if (kept.length === 0) {
    await rm(paths.backup, { recursive: true, force: true });
    await rm(paths.manifest, { force: true });
    if ((await readdir(paths.dir).catch(() => ['?'])).length === 0) await rmdir(paths.dir);
  } else {
    report.backup = paths.backup;
    await writeManifest(toolkitDir, { ...manifest, state: 'rolled-back', finishedAt: new Date().toISOString(), kept });
  }
  return report;
}
