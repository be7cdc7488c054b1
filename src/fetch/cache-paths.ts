// Every path in the download cache comes from cachePaths(), so the downloader, the plan runner and the
// tests can never build the same entry two different ways (Jimver/cuda-toolkit's cache-key bug).
import path from 'node:path';
import envPaths from 'env-paths';
import { UsageError } from '../errors.js';
import { fetchText } from '../i18n/fetch.js';

export interface CachePaths {
  dir: string;
  /** The verified file, only ever created by an atomic rename. */
  final: string;
  /** Bytes in flight; kept on crash, Ctrl+C or a dropped connection so the next run resumes. */
  part: string;
  /** Resume state for the .part: validator (ETag), total size, pieces done. */
  partState: string;
  /** Proof that `final` was verified: its checksums, size and mtime at that moment. */
  verified: string;
}

export type CacheEntryKind = keyof Omit<CachePaths, 'dir'>;
const SUFFIX: Record<CacheEntryKind, string> = { final: '', part: '.part', partState: '.part.json', verified: '.verified.json' };

/** The cache directory: --cache-dir / CUDAWIZ_CACHE_DIR (already merged by the CLI), else env-paths. */
export function resolveCacheDir(fromFlagOrEnv: string | undefined): string {
  return path.resolve(fromFlagOrEnv ?? envPaths('cudawiz', { suffix: '' }).cache);
}

/** A catalog or overlay gives the file name; it must not climb out of the cache. */
export function assertPlainFileName(file: string): void {
  // A name ending like one of our own entries (x.part) would make the cache ambiguous.
  const ownSuffix = Object.values(SUFFIX).some((sfx) => sfx && file.endsWith(sfx));
  if (!file || ownSuffix || file !== path.basename(file) || file !== path.win32.basename(file) || file === '.' || file === '..' || file.includes('\0')) {
    throw new UsageError(fetchText.notPlainFileName(file), fetchText.notPlainFileNameFix);
  }
}

export function cachePaths(cacheDir: string, file: string): CachePaths {
  assertPlainFileName(file);
  const dir = path.resolve(cacheDir);
  const at = (kind: CacheEntryKind) => path.join(dir, file + SUFFIX[kind]);
  return { dir, final: at('final'), part: at('part'), partState: at('partState'), verified: at('verified') };
}

/** The inverse of cachePaths: which file and which kind of entry a path in the cache is. */
export function cacheEntryOf(entryPath: string): { dir: string; file: string; kind: CacheEntryKind } {
  const base = path.basename(entryPath);
  // Longest suffix first: ".part.json" must not be read as ".json" of a file ending ".part".
  const kinds = (Object.keys(SUFFIX) as CacheEntryKind[]).filter((k) => SUFFIX[k]).sort((a, b) => SUFFIX[b].length - SUFFIX[a].length);
  const kind = kinds.find((k) => base.endsWith(SUFFIX[k]) && base.length > SUFFIX[k].length) ?? 'final';
  return { dir: path.dirname(path.resolve(entryPath)), file: base.slice(0, base.length - SUFFIX[kind].length), kind };
}
