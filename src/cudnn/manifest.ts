// The record of what cudawiz wrote into a toolkit: `<toolkit>/.cudawiz/manifest.json`, written
// before the first copy and after the last, so an interrupted copy can be finished or undone.
import { envText } from '../i18n/env.js';
import { cudnnText } from '../i18n/cudnn.js';
import { lstat, mkdir, readFile, readlink, rm } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { CudawizError } from '../errors.js';
import { safetyText } from '../i18n/safety.js';
import type { OsName } from '../platform.js';
import type { ArchiveFormat } from './archive-reader.js';
import type { LayoutEra } from './layout.js';
import { sha256File } from './file-hasher.js';
import { hostPath, isRelativeInside } from './member-paths.js';
import { untrustedBookkeeping } from '../trust/ownership.js';
import { readBookkeeping } from '../trust/bookkeeping.js';
import { replaceFile } from '../trust/write.js';

export { hostPath, isRelativeInside, sha256File };

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

const relPath = z.string().min(1).max(4096);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const fileState = z.object({
  type: z.enum(['file', 'symlink']),
  size: z.number().int().nonnegative().optional(),
  sha256: sha256.optional(),
  linkTarget: z.string().min(1).max(4096).optional(),
});
const stateOk = (s: z.infer<typeof fileState>) => (s.type === 'symlink' ? s.linkTarget !== undefined : s.size !== undefined && s.sha256 !== undefined);

/** What a manifest cudawiz wrote looks like; anything else is refused on read. */
export const manifestSchema = z.object({
  tool: z.literal('cudawiz'),
  schema: z.literal(1),
  what: z.literal('cudnn'),
  state: z.enum(['copying', 'complete', 'rolled-back']),
  os: z.enum(['linux', 'windows']),
  toolkitDir: z.string(),
  archive: z.object({ file: z.string(), format: z.enum(['zip', 'tar.gz', 'tar.xz']), layout: z.enum(['cuda-folder', 'archive-folder', 'archive-bin-x64']), version: z.string(), cuda: z.string().optional() }),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  createdDirs: z.array(relPath),
  files: z.array(fileState.extend({ path: relPath, source: relPath, original: fileState.refine(stateOk, { error: () => cudnnText.manifestOriginalState }).optional() }).refine(stateOk, { error: () => cudnnText.manifestFileState })),
  kept: z.array(relPath).optional(),
});

/** Host paths for a toolkit's bookkeeping. File I/O always uses the host's path module. */
export function manifestPaths(toolkitDir: string) {
  const dir = path.join(toolkitDir, MANIFEST_DIR);
  return { dir, manifest: path.join(dir, 'manifest.json'), backup: path.join(dir, 'backup'), staging: path.join(dir, 'staging') };
}

/**
 * A toolkit's manifest, read and checked: its shape by the schema (a truncated or edited file is a
 * CudawizError with a fix, never a stack trace), then every path in it contained (see contain.ts).
 * `toolkitDir` is the folder it was found in, whatever the file records.
 */
export async function readManifest(toolkitDir: string): Promise<Manifest | undefined> {
  const paths = manifestPaths(toolkitDir);
  const file = paths.manifest;
  // Someone else's manifest (or one they could have rewritten) would hand them cudawiz's writes and deletions:
  // believed as src/trust/bookkeeping.ts says (the toolkit, .cudawiz, backup and the file, read once, never a link).
  const read = await readBookkeeping(file, [toolkitDir, paths.dir, paths.backup]);
  if ('missing' in read) return undefined;
  if ('untrusted' in read) throw new CudawizError(safetyText.unsafeOwner(toolkitDir, read.untrusted), { code: 'manifest-unsafe', fix: safetyText.unsafeOwnerFix(toolkitDir) });
  if ('unreadable' in read) throw new CudawizError(safetyText.manifestUnreadable(file, read.unreadable), { code: 'manifest-invalid', fix: safetyText.manifestUnreadableFix(file) });
  const text = read.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CudawizError(safetyText.manifestUnreadable(file, envText.notCompleteJson), { code: 'manifest-invalid', fix: safetyText.manifestUnreadableFix(file) });
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new CudawizError(safetyText.manifestUnreadable(file, `${where}${issue.message}`), { code: 'manifest-invalid', fix: safetyText.manifestUnreadableFix(file) });
  }
  const manifest = { ...(parsed.data as Manifest), toolkitDir };
  for (const rel of [...manifest.files.flatMap((f) => [f.path, f.source]), ...manifest.createdDirs, ...(manifest.kept ?? [])]) {
    if (!isRelativeInside(rel)) throw new CudawizError(safetyText.manifestOutside(file, rel, toolkitDir), { code: 'manifest-unsafe', fix: safetyText.manifestOutsideFix(toolkitDir) });
  }
  // cuDNN's own links name a file in the same folder (inspection refuses any other).
  for (const f of manifest.files) {
    if (f.type === 'symlink' && (!isRelativeInside(f.linkTarget!) || f.linkTarget!.includes('/')))
      throw new CudawizError(safetyText.manifestOutside(file, `${f.path} → ${f.linkTarget}`, toolkitDir), { code: 'manifest-unsafe', fix: safetyText.manifestOutsideFix(toolkitDir) });
  }
  return manifest;
}

/** Atomic: a reader (or a crash) sees the old manifest or the new one, never half of one. */
export async function writeManifest(toolkitDir: string, manifest: Manifest): Promise<void> {
  const p = manifestPaths(toolkitDir);
  await mkdir(p.dir, { recursive: true, mode: 0o755 });
  // Never into a folder another user owns or could change, never through a link.
  const untrusted = await untrustedBookkeeping([toolkitDir, p.dir]);
  if (untrusted) throw new CudawizError(safetyText.unsafeOwner(toolkitDir, untrusted), { code: 'manifest-unsafe', fix: safetyText.unsafeOwnerFix(toolkitDir) });
  await replaceFile(p.manifest, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
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
