// Undoing a cuDNN import: what cudawiz wrote removed (if unchanged since), every original restored,
// nothing removed that was there before; an unfinished pass's scratch folders cleared; a kept
// rollback's record and backups set aside before the next import.
import { lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { cudnnText as T } from '../i18n/cudnn.js';
import { safetyText } from '../i18n/safety.js';
import { makeSymlink, moveInto } from '../trust/write.js';
import { containment } from './contain.js';
import { exists } from './import-checks.js';
import { preflight } from './import-place.js';
import { currentState, manifestPaths, readManifest, sameState, writeManifest, type ManifestFile } from './manifest.js';

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

/** A rollback that kept user-changed files left its record and backups: keep them, under dated names, out of the new import's way. */
export async function setAsideLeftovers(toolkitDir: string): Promise<void> {
  const p = manifestPaths(toolkitDir);
  if (!(await exists(p.manifest))) return;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (await exists(p.backup)) await moveInto(p.backup, `${p.backup}-${stamp}`);
  await moveInto(p.manifest, path.join(p.dir, `manifest-rolled-back-${stamp}.json`));
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
