// Copy cuDNN's bin, include and lib into a toolkit under a manifest with backups, so that a copy
// can be finished after a crash or rolled back to exactly what was there before.
//
// The OS is data here (it decides the layout: lib\x64 vs lib64, DLLs vs .so) while file I/O uses
// the host's path module, so a Windows toolkit can be laid out and asserted in a temp dir on Linux.
//
// This module runs an import; each job has its own module: the request (import-options.ts), the
// toolkit's checks (import-checks.ts), staging and the manifest (import-stage.ts), placing and
// finishing (import-place.ts), rollback (import-rollback.ts).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { cudnnText as T } from '../i18n/cudnn.js';
import { moveInto } from '../trust/write.js';
import { detectFormat } from './archive.js';
import { assertWritableToolkit, checkDestinations, exists, refusalError, resolvePartDirs } from './import-checks.js';
import type { ImportOptions } from './import-options.js';
import { importState, placeAll, type ImportState } from './import-place.js';
import { rollbackImport, setAsideLeftovers } from './import-rollback.js';
import { planManifest, stage, stagedFiles, type StagedFile } from './import-stage.js';
import { inspectArchive, inspectCudnnArchive, type ArchiveReport } from './inspect.js';
import type { ToolkitPart } from './layout.js';
import { manifestPaths, writeManifest, type Manifest } from './manifest.js';
import { isTar } from './tar-reader.js';

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
    const manifest = await planManifest(report, staged, partDirs, options);
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
