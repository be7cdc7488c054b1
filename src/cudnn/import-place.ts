// Placing a cuDNN import: each staged file renamed over its destination after a one-time backup of
// what was there, idempotently, so a killed copy is finished from its manifest (finishImport); and
// where a copy stands (importState).
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CudawizError } from '../errors.js';
import { cudnnText as T } from '../i18n/cudnn.js';
import { copyReplacing, makeSymlink, moveInto } from '../trust/write.js';
import { containment, type Containment } from './contain.js';
import { exists } from './import-checks.js';
import type { ImportProgress } from './import-options.js';
import { currentState, hostPath, manifestPaths, readManifest, sameState, writeManifest, type Manifest, type ManifestFile } from './manifest.js';

export type ImportState =
  | { state: 'none'; rolledBack?: Manifest }
  | { state: 'complete'; manifest: Manifest }
  | { state: 'interrupted'; manifest: Manifest; placed: string[]; pending: string[]; canFinish: boolean };

export async function placeAll(toolkitDir: string, manifest: Manifest, options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; throttleMs?: number; verifyStaged?: boolean }): Promise<void> {
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
export async function preflight(c: Containment, manifest: Manifest, withSources = true): Promise<void> {
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
