// Which checksum a download must match, and where that fact came from. Order: the catalog's own
// sha256/md5; NVIDIA's md5sum.txt for the release; the redist JSON manifest. None: refused unless allowed.
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { fetchText } from './http.js';
import { applyMirror } from './mirror.js';

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
  allowUnverified?: boolean;
  signal?: AbortSignal;
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
  if (sources.sha256) return { algorithm: 'sha256', value: sources.sha256.toLowerCase(), source: 'the catalog' };
  if (sources.md5) return { algorithm: 'md5', value: sources.md5.toLowerCase(), source: 'the catalog' };
  const tried: string[] = [];
  if (sources.md5sumUrl) {
    const url = applyMirror(sources.md5sumUrl, mirror);
    try {
      const md5 = parseMd5sumList(await fetchText(url, signal)).get(file);
      if (md5) return { algorithm: 'md5', value: md5, source: `NVIDIA's md5sum.txt (${url})` };
      tried.push(`${url}: no line for ${file}`);
    } catch (error) {
      if (signal?.aborted) throw error;
      tried.push(`${url}: ${(error as Error).message}`);
    }
  }
  if (sources.manifestUrl) {
    const url = applyMirror(sources.manifestUrl, mirror);
    try {
      const found = checksumFromManifest(JSON.parse(await fetchText(url, signal)), file);
      if (found?.sha256) return { algorithm: 'sha256', value: found.sha256, source: `the redist manifest (${url})` };
      if (found?.md5) return { algorithm: 'md5', value: found.md5, source: `the redist manifest (${url})` };
      tried.push(`${url}: no entry for ${file}`);
    } catch (error) {
      if (signal?.aborted) throw error;
      tried.push(`${url}: ${(error as Error).message}`);
    }
  }
  if (options.allowUnverified) return null;
  throw new CudawizError(`No checksum is known for ${file}, so it will not be downloaded.${tried.length ? `\n  tried: ${tried.join('\n  tried: ')}` : ''}`, {
    code: 'no-checksum',
    fix: 'Add its sha256 with a --catalog overlay, or pass --allow-unverified to accept the file unchecked.',
  });
}
