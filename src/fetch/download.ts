// fetchVerified: the one way cudawiz gets a file from the network. A verified file already in the
// cache is reused without a request; otherwise the bytes stream into `.part`, are checked against the
// expected checksum, and only a match is renamed into place.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { describeFsError } from '../fs-errors.js';
import { fetchText, shownSource } from '../i18n/fetch.js';
import { acquireLock } from '../lock/index.js';
import { cachePaths, type CachePaths } from './cache-paths.js';
import { fileWritableByOthers, writableByOthers } from '../trust/ownership.js';
import { resolveChecksum, type ChecksumSources, type ExpectedChecksum } from './checksum.js';
import { applyMirror } from './mirror.js';
import { hashFile, type Digests } from './ordered-hasher.js';
import { ProgressMeter, type ProgressListener } from './progress.js';
import { interruptedError } from './retry-policy.js';
import { Transfer, type TransferTuning } from './transfer.js';
import { copyVerified, privateCopy, VerifyFailure, type Expected } from '../trust/verified-file.js';
import { makeFolders, moveInto, replaceFile } from '../trust/write.js';

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
  /**
   * Where NVIDIA's checksum lists are read from: NVIDIA's own host, never the mirror. A loopback
   * origin may stand in for NVIDIA's host in tests (CUDAWIZ_TEST_NVIDIA_ORIGIN); nothing else is accepted.
   */
  nvidiaOrigin?: string;
  /** Things the user should know that do not stop the download (an untrusted cache, a discarded resume state). */
  onNotice?: (line: string) => void;
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
  /** What onNotice was told, in order. */
  notices: string[];
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
  await replaceFile(paths.verified, JSON.stringify(proof), { mode: 0o600 });
}

/** A proof agrees with what the catalog says now (a catalog checksum that changed invalidates it). */
function proofStillHolds(proof: Proof, req: FetchRequest): boolean {
  if (req.checksum.sha256) return proof.sha256 === req.checksum.sha256.toLowerCase();
  if (req.checksum.md5) return proof.md5 === req.checksum.md5.toLowerCase();
  return proof.source !== null || Boolean(req.allowUnverified);
}

function fromCache(paths: CachePaths, proof: Proof): Omit<FetchResult, 'seconds' | 'notices'> {
  return { path: paths.final, bytes: proof.size, sha256: proof.sha256, md5: proof.md5, source: proof.source, url: null, resumedFrom: proof.size, fromCache: true };
}

export function mismatchError(file: string, expected: ExpectedChecksum, got: Digests): CudawizError {
  return new CudawizError(
    fetchText.mismatch(file, expected.algorithm, expected.value, shownSource(expected.source), got[expected.algorithm] ?? ''),
    {
      code: 'checksum-mismatch',
      fix: fetchText.mismatchFix,
      details: { expected: expected.value, algorithm: expected.algorithm, source: expected.source, actual: got[expected.algorithm] },
    },
  );
}

export async function fetchVerified(req: FetchRequest): Promise<FetchResult> {
  const notices: string[] = [];
  const notice = (line: string) => {
    notices.push(line);
    req.onNotice?.(line);
  };
  const paths = cachePaths(req.cacheDir, req.file);
  try {
    const t0 = performance.now();
    await makeFolders(paths.dir, 0o700);
    // One run per cache entry: a second download of the same file waits for nobody and says who holds it.
    const lock = await acquireLock(paths.final, { onNotice: notice });
    try {
      const r = await fetchVerifiedUnguarded(req, paths, notice);
      return { ...r, seconds: Math.round(performance.now() - t0) / 1000, notices };
    } finally {
      await lock.release();
    }
  } catch (error) {
    // Ctrl+C while a checksum list is being read surfaces as got's AbortError: say it as an interruption.
    if (req.signal?.aborted && !(error instanceof CudawizError)) throw interruptedError(paths, 0);
    throw describeFsError(error, { path: paths.dir });
  }
}

async function fetchVerifiedUnguarded(req: FetchRequest, paths: CachePaths, notice: (line: string) => void): Promise<Omit<FetchResult, 'seconds' | 'notices'>> {
  // A cache others can write could hold their file and a proof to match: its proofs count for nothing.
  const othersCanWrite = (await writableByOthers(paths.dir)) ?? ((await fileWritableByOthers(paths.final)) || (await fileWritableByOthers(paths.verified)) ? paths.final : undefined);
  const proof = othersCanWrite ? undefined : await readProof(paths);
  if (proof && proofStillHolds(proof, req)) return fromCache(paths, proof);
  if (othersCanWrite && (await stat(paths.final).catch(() => undefined))) notice(fetchText.untrustedCache(paths.dir, othersCanWrite));

  const expected = await resolveChecksum({ file: req.file, sources: req.checksum, mirror: req.mirror, nvidiaOrigin: req.nvidiaOrigin, allowUnverified: req.allowUnverified, signal: req.signal, onNotice: notice });
  // A finished file without a proof (copied in by hand, or a proof lost): check it instead of fetching.
  const existing = await stat(paths.final).catch(() => undefined);
  if (existing?.isFile() && expected) {
    const d = await hashFile(paths.final);
    if (matches(expected, d)) {
      await writeProof(paths, d, expected.source);
      return ownCopyIfShared(othersCanWrite, { path: paths.final, bytes: d.bytes, sha256: d.sha256, md5: d.md5, source: expected.source, url: null, resumedFrom: d.bytes, fromCache: true });
    }
  }

  const meter = new ProgressMeter(req.onProgress, req.progressIntervalMs ?? 100);
  const url = applyMirror(req.url, req.mirror);
  const result = await new Transfer({ url, paths, connections: req.connections ?? 4, size: req.size, signal: req.signal, meter, tuning: req.tuning, onNotice: notice }).run();
  if (expected && !matches(expected, result)) {
    await rm(paths.part, { force: true });
    await rm(paths.partState, { force: true });
    throw mismatchError(req.file, expected, result);
  }
  await rm(paths.verified, { force: true });
  await moveInto(paths.part, paths.final);
  await rm(paths.partState, { force: true });
  await writeProof(paths, result, expected?.source ?? null);
  return ownCopyIfShared(othersCanWrite, { path: paths.final, bytes: result.bytes, sha256: result.sha256, md5: result.md5, source: expected?.source ?? null, url: result.url, resumedFrom: result.resumedFrom, fromCache: false });
}

/**
 * In a cache others can write, the verified file could be swapped after its check: the caller gets a
 * private copy instead (a fresh 0700 folder), made from one open of the file and hashed again (#37).
 */
async function ownCopyIfShared<R extends { path: string; bytes: number; sha256: string }>(othersCanWrite: string | undefined, r: R): Promise<R> {
  if (!othersCanWrite) return r;
  try {
    const copy = await privateCopy(r.path, tmpdir(), { sha256: r.sha256, size: r.bytes });
    return { ...r, path: copy.path };
  } catch (error) {
    if (!(error instanceof VerifyFailure)) throw error;
    throw new CudawizError(error.message, { code: 'checksum-mismatch', fix: fetchText.mismatchFix });
  }
}

/** Thrown when the user must fetch a file themselves (a login-gated cuDNN archive). */
export function loginNeededError(what: string, file: string, page: string): CudawizError {
  return new CudawizError(fetchText.loginOnly(what), {
    code: 'login-required',
    exitCode: 3,
    fix: fetchText.loginOnlyFix(page, file),
    details: { page, file },
  });
}

export interface CacheCopyRequest {
  /** The file on this machine (a bundle's): opened once, never through a link. */
  source: string;
  /** Its name in the cache. */
  file: string;
  cacheDir: string;
  /** What its bytes must be (the bundle's manifest, checked when the bundle was opened). */
  want: Expected & { sha256: string };
  /** Said as where the bytes came from. */
  from: string;
  signal?: AbortSignal;
}

/**
 * A file already on this machine, put where the plan reads it: copied into the cache while it is
 * hashed, and only that copy is used (#37). A proven copy already there is reused; a cache others can
 * write gets no entry (the copy goes to a fresh private folder instead).
 */
export async function cacheVerifiedCopy(req: CacheCopyRequest): Promise<FetchResult> {
  const t0 = performance.now();
  const paths = cachePaths(req.cacheDir, req.file);
  const done = (r: Omit<FetchResult, 'seconds' | 'notices' | 'source' | 'url' | 'resumedFrom' | 'fromCache'>, fromCacheAlready: boolean): FetchResult =>
    ({ ...r, source: req.from, url: null, resumedFrom: r.bytes, fromCache: fromCacheAlready, seconds: Math.round(performance.now() - t0) / 1000, notices: [] });
  try {
    await makeFolders(paths.dir, 0o700);
    if (await writableByOthers(paths.dir)) {
      const copy = await privateCopy(req.source, tmpdir(), req.want, { signal: req.signal });
      return done({ path: copy.path, bytes: copy.bytes, sha256: copy.sha256, md5: copy.md5 }, false);
    }
    const lock = await acquireLock(paths.final);
    try {
      const ours = !((await fileWritableByOthers(paths.final)) || (await fileWritableByOthers(paths.verified)));
      const proof = ours ? await readProof(paths) : undefined;
      if (proof && proof.sha256 === req.want.sha256.toLowerCase()) return done({ path: paths.final, bytes: proof.size, sha256: proof.sha256, md5: proof.md5 }, true);
      const tmp = path.join(paths.dir, `.${req.file}.cudawiz-${randomBytes(6).toString('hex')}.copy`);
      const got = await copyVerified(req.source, tmp, req.want, { mode: 0o600, signal: req.signal });
      await rm(paths.verified, { force: true });
      await moveInto(tmp, paths.final);
      await writeProof(paths, got, req.from);
      return done({ path: paths.final, bytes: got.bytes, sha256: got.sha256, md5: got.md5 }, false);
    } finally {
      await lock.release();
    }
  } catch (error) {
    throw describeFsError(error, { path: paths.dir });
  }
}
