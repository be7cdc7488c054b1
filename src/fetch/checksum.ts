// Which checksum a download must match, and where that fact came from. Order: the catalog's own
// sha256/md5; NVIDIA's md5sum.txt for the release; the redist JSON manifest. None: refused unless allowed.
// The lists are read from NVIDIA's own host even when the file comes through a mirror: a mirror that
// served both the file and its checksum would only be vouching for itself.
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { checksumSourceId, fetchText as t } from '../i18n/fetch.js';
import { fetchText } from './http.js';
import { checksumListUrl } from './mirror.js';

export type ChecksumAlgorithm = 'sha256' | 'md5';

export interface ExpectedChecksum {
  algorithm: ChecksumAlgorithm;
  value: string;
  /** Said to the user: "the catalog", "NVIDIA's md5sum.txt (URL)", "the redist manifest (URL)". */
  source: string;
}

/** What the catalog knows about a file's checksum, directly or by reference. */
export interface ChecksumSources {
  sha256?: string;
  md5?: string;
  md5sumUrl?: string;
  manifestUrl?: string;
}

export interface ResolveOptions {
  file: string;
  sources: ChecksumSources;
  mirror?: string;
  /** A loopback stand-in for NVIDIA's host (tests only, see checksumListUrl). */
  nvidiaOrigin?: string;
  allowUnverified?: boolean;
  signal?: AbortSignal;
  onNotice?: (line: string) => void;
}

/** `<md5>  <file>` lines; a leading `*` marks binary mode in md5sum's own output. */
export function parseMd5sumList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{32})\s+\*?(.+?)\s*$/.exec(line.trim());
    if (m) out.set(path.posix.basename(m[2].replace(/\\/g, '/')), m[1].toLowerCase());
  }
  return out;
}

/** Finds the entry whose relative_path names this file, anywhere in an NVIDIA redist manifest. */
export function checksumFromManifest(manifest: unknown, file: string): { sha256?: string; md5?: string } | undefined {
  const stack: unknown[] = [manifest];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const rec = node as Record<string, unknown>;
    if (typeof rec.relative_path === 'string' && path.posix.basename(rec.relative_path) === file) {
      const sha256 = typeof rec.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(rec.sha256) ? rec.sha256.toLowerCase() : undefined;
      const md5 = typeof rec.md5 === 'string' && /^[0-9a-f]{32}$/i.test(rec.md5) ? rec.md5.toLowerCase() : undefined;
      if (sha256 || md5) return { sha256, md5 };
    }
    stack.push(...Object.values(rec));
  }
  return undefined;
}

/** The checksum to verify against, or null when none is known and --allow-unverified was given. */
export async function resolveChecksum(options: ResolveOptions): Promise<ExpectedChecksum | null> {
  const { file, sources, mirror, signal } = options;
  const listUrl = (url: string) => checksumListUrl(url, options.nvidiaOrigin);
  if (sources.sha256) return { algorithm: 'sha256', value: sources.sha256.toLowerCase(), source: checksumSourceId.catalog };
  if (sources.md5) return { algorithm: 'md5', value: sources.md5.toLowerCase(), source: checksumSourceId.catalog };
  const tried: string[] = [];
  if (sources.md5sumUrl) {
    const url = listUrl(sources.md5sumUrl);
    try {
      const md5 = parseMd5sumList(await fetchText(url, signal)).get(file);
      if (md5) {
        if (mirror) options.onNotice?.(t.mirrorListNotTrusted(mirror));
        return { algorithm: 'md5', value: md5, source: checksumSourceId.md5sum(url) };
      }
      tried.push(t.noLineFor(url, file));
    } catch (error) {
      if (signal?.aborted) throw error;
      tried.push(`${url}: ${(error as Error).message}`);
    }
  }
  if (sources.manifestUrl) {
    const url = listUrl(sources.manifestUrl);
    try {
      const found = checksumFromManifest(JSON.parse(await fetchText(url, signal)), file);
      if (found && mirror) options.onNotice?.(t.mirrorListNotTrusted(mirror));
      if (found?.sha256) return { algorithm: 'sha256', value: found.sha256, source: checksumSourceId.manifest(url) };
      if (found?.md5) return { algorithm: 'md5', value: found.md5, source: checksumSourceId.manifest(url) };
      tried.push(t.noEntryFor(url, file));
    } catch (error) {
      if (signal?.aborted) throw error;
      tried.push(`${url}: ${(error as Error).message}`);
    }
  }
  if (options.allowUnverified) return null;
  throw new CudawizError(`${t.noChecksum(file)}${t.triedList(tried)}`, {
    code: 'no-checksum',
    fix: mirror && tried.length ? t.noChecksumMirrorFix : t.noChecksumFix,
  });
}
