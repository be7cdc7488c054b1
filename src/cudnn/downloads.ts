// Finding the cuDNN archive the user downloads in their browser: by its expected name in the
// Downloads folder, or by waiting (fs.watch) until it appears there complete and stops growing.
import { watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Browsers write here first and rename when done (Chrome/Edge, Firefox, Safari). */
const PARTIAL_SUFFIXES = ['.crdownload', '.part', '.download', '.partial'];

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The names a download of `expectedName` may have: exact, a browser's duplicate ("name (1).zip", "name(2).zip"), any case. */
function downloadNamePattern(expectedName: string): RegExp {
  const ext = /(\.tar\.xz|\.tar\.gz|\.tgz|\.zip)$/i.exec(expectedName)?.[1] ?? path.extname(expectedName);
  const stem = expectedName.slice(0, expectedName.length - ext.length);
  return new RegExp(`^${escape(stem)}( ?\\(\\d+\\))?${escape(ext)}$`, 'i');
}

/**
 * Whether a file name is one discovery would take as `expectedName`: whatever it matched, the
 * catalog's checks for that archive (its sha256) apply to it.
 */
export function isDownloadOf(fileName: string, expectedName: string): boolean {
  return downloadNamePattern(expectedName).test(fileName);
}

/** The exact name, or a browser's duplicate ("name (1).zip"); the newest one wins. */
export async function findArchiveInDownloads(dir: string, expectedName: string): Promise<string | undefined> {
  const pattern = downloadNamePattern(expectedName);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const found: { file: string; mtime: number }[] = [];
  for (const n of names.filter((x) => pattern.test(x))) {
    const s = await stat(path.join(dir, n)).catch(() => undefined);
    if (s?.isFile() && s.size > 0) found.push({ file: path.join(dir, n), mtime: s.mtimeMs });
  }
  found.sort((a, b) => b.mtime - a.mtime || a.file.length - b.file.length);
  return found[0]?.file;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** How long the size must stay unchanged, with no partial file beside it; default 2 s. */
  stableMs?: number;
}

/** Resolves with the path once the expected archive is in `dir`, complete and no longer growing. */
export function waitForArchiveInDownloads(dir: string, expectedName: string, options: WaitOptions = {}): Promise<string> {
  const stableMs = options.stableMs ?? 2000;
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let lastSize = -1;
    let done = false;
    const watcher = watch(dir, { persistent: true });
    const finish = (error: unknown, file?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      watcher.close();
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(file!);
    };
    const onAbort = () => finish(options.signal?.reason ?? new DOMException('aborted', 'AbortError'));
    const hasPartial = async () => {
      const names = await readdir(dir).catch(() => [] as string[]);
      return names.some((n) => PARTIAL_SUFFIXES.some((s) => n.toLowerCase().endsWith(s)) && n.toLowerCase().startsWith(expectedName.toLowerCase().replace(/\.[^.]+$/, '')));
    };
    // Each change restarts the clock; the file counts once its size held still for stableMs.
    const check = async () => {
      if (done) return;
      const file = await findArchiveInDownloads(dir, expectedName);
      if (!file) return;
      const size = (await stat(file).catch(() => undefined))?.size ?? -1;
      if (size > 0 && size === lastSize && !(await hasPartial())) return finish(undefined, file);
      lastSize = size;
      clearTimeout(timer);
      timer = setTimeout(() => void check(), stableMs);
    };
    watcher.on('change', () => {
      lastSize = -1;
      clearTimeout(timer);
      void check();
    });
    watcher.on('error', (e) => finish(e));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    void check();
  });
}
