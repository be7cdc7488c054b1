// The record of what cudawiz wrote into a toolkit: `<toolkit>/.cudawiz/manifest.json`, written
// before the first copy and after the last, so an interrupted copy can be finished or undone.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, readFile, readlink, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OsName } from '../platform.js';
import type { ArchiveFormat } from './archive.js';
import type { LayoutEra } from './layout.js';

export const MANIFEST_DIR = '.cudawiz';

export interface FileState {
  type: 'file' | 'symlink';
  size?: number;
  sha256?: string;
  linkTarget?: string;
}

export interface ManifestFile extends FileState {
  /** Relative to the toolkit, `/`-separated on every OS ("lib/x64/cudnn.lib", "lib64/libcudnn.so.7"). */
  path: string;
  /** The archive member it came from. */
  source: string;
  /** What was there before cudawiz wrote this file; its backup (for files) is under .cudawiz/backup/<path>. */
  original?: FileState;
}

export interface Manifest {
  tool: 'cudawiz';
  schema: 1;
  what: 'cudnn';
  state: 'copying' | 'complete' | 'rolled-back';
  os: OsName;
  toolkitDir: string;
  archive: { file: string; format: ArchiveFormat; layout: LayoutEra; version: string; cuda?: string };
  startedAt: string;
  finishedAt?: string;
  /** Folders cudawiz created (removed again on rollback when empty), parents first. */
  createdDirs: string[];
  files: ManifestFile[];
  /** Files a rollback left in place because the user changed them after cudawiz wrote them. */
  kept?: string[];
}

/** Host paths for a toolkit's bookkeeping. File I/O always uses the host's path module. */
export function manifestPaths(toolkitDir: string) {
  const dir = path.join(toolkitDir, MANIFEST_DIR);
  return { dir, manifest: path.join(dir, 'manifest.json'), backup: path.join(dir, 'backup'), staging: path.join(dir, 'staging') };
}

/** A manifest path ("lib/x64/cudnn.lib") under a host directory. */
export function hostPath(base: string, rel: string): string {
  return path.join(base, ...rel.split('/'));
}

export async function readManifest(toolkitDir: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await readFile(manifestPaths(toolkitDir).manifest, 'utf8');
  } catch {
    return undefined;
  }
  const m = JSON.parse(text) as Manifest;
  if (m.tool !== 'cudawiz' || m.schema !== 1 || !Array.isArray(m.files)) throw new Error(`${manifestPaths(toolkitDir).manifest} is not a cudawiz manifest`);
  return m;
}

/** Atomic: a reader (or a crash) sees the old manifest or the new one, never half of one. */
export async function writeManifest(toolkitDir: string, manifest: Manifest): Promise<void> {
  const p = manifestPaths(toolkitDir);
  await mkdir(p.dir, { recursive: true });
  const tmp = `${p.manifest}.tmp`;
  await writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(tmp, p.manifest);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What is at a path now, without following a link; undefined when nothing is. */
export async function currentState(file: string, withHash = true): Promise<(FileState & { isDir?: boolean }) | undefined> {
  let s;
  try {
    s = await lstat(file);
  } catch {
    return undefined;
  }
  if (s.isSymbolicLink()) return { type: 'symlink', linkTarget: await readlink(file) };
  if (s.isDirectory()) return { type: 'file', isDir: true };
  return { type: 'file', size: s.size, sha256: withHash ? await sha256File(file) : undefined };
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b || a.type !== b.type) return false;
  return a.type === 'symlink' ? a.linkTarget === b.linkTarget : a.size === b.size && a.sha256 === b.sha256;
}
