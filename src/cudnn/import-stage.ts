// Staging a cuDNN import: the planned members extracted into `.cudawiz/staging` (same filesystem, so
// placing is a rename), hashed as written and checked against the listing; then the manifest that says
// where each goes and what it replaces, written before anything in the toolkit changes.
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { describeFsError, isFsError } from '../fs-errors.js';
import { cudnnText as T } from '../i18n/cudnn.js';
import { safetyText } from '../i18n/safety.js';
import { extractArchive } from './archive.js';
import { ArchiveReadError } from './archive-reader.js';
import { nearestReal, within } from './contain.js';
import { exists } from './import-checks.js';
import type { ImportOptions } from './import-options.js';
import type { ArchiveReport } from './inspect.js';
import type { ToolkitPart } from './layout.js';
import { currentState, hostPath, sha256File, type FileState, type Manifest, type ManifestFile } from './manifest.js';

export interface StagedFile extends FileState {
  source: string;
}

/** Extract the planned members into staging (same filesystem, so placing is a rename), hashed as they are written. */
export async function stage(report: ArchiveReport, staging: string, options: ImportOptions): Promise<Map<string, StagedFile>> {
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
export async function stagedFiles(report: ArchiveReport, staging: string, hashes: Map<string, string>, options: ImportOptions): Promise<Map<string, StagedFile>> {
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

/** The manifest of this import: each member's destination, its staged state and what it replaces. */
export async function planManifest(report: ArchiveReport, staged: Map<string, StagedFile>, partDirs: Record<ToolkitPart, string>, options: ImportOptions): Promise<Manifest> {
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
