// fetchVerified: the one way cudawiz gets a file from the network. A verified file already in the
// cache is reused without a request; otherwise the bytes stream into `.part`, are checked against the
// expected checksum, and only a match is renamed into place.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { CudawizError } from '../errors.js';
import { cachePaths, type CachePaths } from './cache-paths.js';
import { resolveChecksum, type ChecksumSources, type ExpectedChecksum } from './checksum.js';
import { applyMirror } from './mirror.js';
import { hashFile, type Digests } from './ordered-hasher.js';
import { ProgressMeter, type ProgressListener } from './progress.js';
import { interruptedError, Transfer, type TransferTuning } from './transfer.js';

export interface FetchRequest {
  /** NVIDIA's URL as the catalog has it; the mirror is applied here. */
  url: string;
  /** The file name in the cache (a bare name). */
  file: string;
  checksum: ChecksumSources;
  cacheDir: string;
  mirror?: string;
  /** Parallel connections for large files when the server honours Range (default 4). */
  connections?: number;
  /** Size from the catalog, when it has one: checked against the server's, used for the space check. */
  size?: number;
  allowUnverified?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Throttle for onProgress (default 100 ms: at most ~10 events a second). */
  progressIntervalMs?: number;
  tuning?: TransferTuning;
}

export interface FetchResult {
  /** The verified file in the cache. */
  path: string;
  bytes: number;
  sha256: string;
  md5: string;
  /** Where the expected checksum came from; null when accepted unverified. */
  source: string | null;
  /** The URL the bytes came from (mirror applied); null when reused from the cache. */
  url: string | null;
  resumedFrom: number;
  fromCache: boolean;
  /** Time spent in this call, checksum lookup and verification included. */
  seconds: number;
}

interface Proof extends Digests {
  size: number;
  mtimeMs: number;
  source: string | null;
}

function matches(expected: ExpectedChecksum, d: Digests): boolean {
  return d[expected.algorithm] === expected.value;
}

async function readProof(paths: CachePaths): Promise<Proof | undefined> {
  try {
    const proof = JSON.parse(await readFile(paths.verified, 'utf8')) as Proof;
    const s = await stat(paths.final);
    return s.size === proof.size && s.mtimeMs === proof.mtimeMs ? proof : undefined;
  } catch {
    return undefined;
  }
}

async function writeProof(paths: CachePaths, digests: Digests, source: string | null): Promise<void> {
  const s = await stat(paths.final);
  const proof: Proof = { ...digests, size: s.size, mtimeMs: s.mtimeMs, source };
  await writeFile(paths.verified, JSON.stringify(proof));
}

/** A proof agrees with what the catalog says now (a catalog checksum that changed invalidates it). */
function proofStillHolds(proof: Proof, req: FetchRequest): boolean {
  if (req.checksum.sha256) return proof.sha256 === req.checksum.sha256.toLowerCase();
  if (req.checksum.md5) return proof.md5 === req.checksum.md5.toLowerCase();
  return proof.source !== null || Boolean(req.allowUnverified);
}

function fromCache(paths: CachePaths, proof: Proof): Omit<FetchResult, 'seconds'> {
  return { path: paths.final, bytes: proof.size, sha256: proof.sha256, md5: proof.md5, source: proof.source, url: null, resumedFrom: proof.size, fromCache: true };
}

export function mismatchError(file: string, expected: ExpectedChecksum, got: Digests): CudawizError {
  return new CudawizError(
    `${file} failed verification and was deleted: expected ${expected.algorithm} ${expected.value} (from ${expected.source}), got ${got[expected.algorithm]}.`,
    {
      code: 'checksum-mismatch',
      fix: 'Run the command again to download it afresh. If it fails again, the mirror or the network is altering the file: try without --mirror or from another network.',
      details: { expected: expected.value, algorithm: expected.algorithm, source: expected.source, actual: got[expected.algorithm] },
    },
  );
}

export async function fetchVerified(req: FetchRequest): Promise<FetchResult> {
  try {
    const t0 = performance.now();
    const r = await fetchVerifiedUnguarded(req);
    return { ...r, seconds: Math.round(performance.now() - t0) / 1000 };
  } catch (error) {
    // Ctrl+C while a checksum list is being read surfaces as got's AbortError: say it as an interruption.
    if (req.signal?.aborted && !(error instanceof CudawizError)) throw interruptedError(cachePaths(req.cacheDir, req.file), 0);
    throw error;
  }
}

async function fetchVerifiedUnguarded(req: FetchRequest): Promise<Omit<FetchResult, 'seconds'>> {
  const paths = cachePaths(req.cacheDir, req.file);
  await mkdir(paths.dir, { recursive: true });
  const proof = await readProof(paths);
  if (proof && proofStillHolds(proof, req)) return fromCache(paths, proof);

  const expected = await resolveChecksum({ file: req.file, sources: req.checksum, mirror: req.mirror, allowUnverified: req.allowUnverified, signal: req.signal });
  // A finished file without a proof (copied in by hand, or a proof lost): check it instead of fetching.
  const existing = await stat(paths.final).catch(() => undefined);
  if (existing?.isFile() && expected) {
    const d = await hashFile(paths.final);
    if (matches(expected, d)) {
      await writeProof(paths, d, expected.source);
      return { path: paths.final, bytes: d.bytes, sha256: d.sha256, md5: d.md5, source: expected.source, url: null, resumedFrom: d.bytes, fromCache: true };
    }
  }

  const meter = new ProgressMeter(req.onProgress, req.progressIntervalMs ?? 100);
  const url = applyMirror(req.url, req.mirror);
  const result = await new Transfer({ url, paths, connections: req.connections ?? 4, size: req.size, signal: req.signal, meter, tuning: req.tuning }).run();
  if (expected && !matches(expected, result)) {
    await rm(paths.part, { force: true });
    await rm(paths.partState, { force: true });
    throw mismatchError(req.file, expected, result);
  }
  await rm(paths.verified, { force: true });
  await rename(paths.part, paths.final);
  await rm(paths.partState, { force: true });
  await writeProof(paths, result, expected?.source ?? null);
  return { path: paths.final, bytes: result.bytes, sha256: result.sha256, md5: result.md5, source: expected?.source ?? null, url: result.url, resumedFrom: result.resumedFrom, fromCache: false };
}

/** Thrown when the user must fetch a file themselves (a login-gated cuDNN archive). */
export function loginNeededError(what: string, file: string, page: string): CudawizError {
  return new CudawizError(`${what} is only available after logging in to NVIDIA's developer site.`, {
    code: 'login-required',
    exitCode: 3,
    fix: `Log in at ${page}, download the file named exactly ${file}, then give it to cudawiz: cudawiz install --tf V --cudnn-archive PATH/${file}`,
    details: { page, file },
  });
}
