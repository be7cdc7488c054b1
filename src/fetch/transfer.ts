// Moves the bytes of one URL into `<cache>/<name>.part`: resumable pieces over one or several
// connections, retries with backoff (Retry-After honoured), hashing in order as it goes.
import { readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import { setMaxListeners } from 'node:events';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { CudawizError, EXIT } from '../errors.js';
import { describeFsError, isDiskFull } from '../fs-errors.js';
import { fetchText } from '../i18n/fetch.js';
import type { CachePaths } from './cache-paths.js';
import { formatBytes } from '../format.js';
import { freeSpace as realFreeSpace, type FreeSpaceProbe } from './disk-space.js';
import { openResponse, type OpenedResponse } from './http.js';
import { OrderedHasher, type Digests } from './ordered-hasher.js';
import type { ProgressMeter } from './progress.js';
import { openOwnFileForUpdate, replaceFile, writeNewFile } from '../trust/write.js';

export interface TransferTuning {
  /** Consecutive failed attempts per piece before giving up (an attempt that moved bytes resets it). */
  retries?: number;
  /** First backoff; doubles each time, capped at 30 s. */
  retryBaseMs?: number;
  /** A Retry-After longer than this ends the download with a message instead of waiting. */
  maxRetryAfterMs?: number;
  /** Files at least this large are fetched over several connections when the server honours Range. */
  segmentMinBytes?: number;
  /** Size of the pieces handed out to connections. */
  pieceBytes?: number;
  /** Socket inactivity before an attempt counts as failed. */
  idleTimeoutMs?: number;
  /** How often the resume state is written (and the hasher catches up). */
  stateIntervalMs?: number;
  /** Slower than this (bytes/s) over a whole `lowSpeedWindowMs` = a stalled attempt (a server trickling bytes never idles). */
  minBytesPerSec?: number;
  lowSpeedWindowMs?: number;
  /** A body without a length is cut off past the catalog's size, or past this when the catalog has none. */
  maxUnknownLengthBytes?: number;
  freeSpace?: FreeSpaceProbe;
}

export interface TransferRequest {
  url: string;
  paths: CachePaths;
  connections: number;
  /** The size the catalog gives, checked against the server's. */
  size?: number;
  signal?: AbortSignal;
  meter: ProgressMeter;
  tuning?: TransferTuning;
  onNotice?: (line: string) => void;
}

export interface TransferResult extends Digests {
  bytes: number;
  resumedFrom: number;
  /** The URL the bytes came from, after redirects. */
  url: string;
}

interface Piece {
  start: number;
  /** Exclusive; null while the size is unknown (a server that sends no length). */
  end: number | null;
  done: number;
}

interface PartState {
  v: 1;
  url: string;
  total: number | null;
  etag?: string;
  lastModified?: string;
  ranges: boolean;
  pieces: Piece[];
}

/** The file on the server changed, or the server ignores Range: drop the .part and start over. */
class RestartNeeded extends Error {}
/** A failure worth another attempt (network, 5xx), with the server's Retry-After if it sent one. */
class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
/** An attempt that moved bytes, but too few: counts as a failure even though it made progress. */
class TooSlow extends Retryable {
  constructor(
    message: string,
    /** The window it was measured over, in ms. */
    readonly windowMs: number,
  ) {
    super(message);
  }
}
/** A body without a length that went past any size this file can have. */
class BodyTooLong extends Error {}

/** A duration as said to the user: "0.3", "12", never "0". */
const seconds = (ms: number) => (ms < 10_000 ? (Math.max(ms, 100) / 1000).toFixed(1) : String(Math.round(ms / 1000)));

const DEFAULTS = {
  retries: 5,
  retryBaseMs: 500,
  maxRetryAfterMs: 120_000,
  segmentMinBytes: 64 * 1024 * 1024,
  pieceBytes: 16 * 1024 * 1024,
  idleTimeoutMs: 60_000,
  stateIntervalMs: 500,
  minBytesPerSec: 4 * 1024,
  lowSpeedWindowMs: 60_000,
  // The largest CUDA installer is ~4.5 GB; four times that is not a CUDA file.
  maxUnknownLengthBytes: 16 * 1024 ** 3,
};

/** "45 s", "12 min", "3 h", "2 days": how long a server asked us to wait. */
export function waitSpan(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return fetchText.waitSeconds(s);
  if (s < 2 * 3600) return fetchText.waitMinutes(Math.round(s / 60));
  if (s < 2 * 86_400) return fetchText.waitHours(Math.round(s / 3600));
  return fetchText.waitDays(Math.round(s / 86_400));
}

function retryLaterError(url: string, waitMs: number): CudawizError {
  return new CudawizError(fetchText.retryAfter(url, waitSpan(waitMs)), { code: 'retry-later', fix: fetchText.retryAfterFix, details: { retryAfterMs: Math.round(waitMs) } });
}

const nonNegInt = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** A .part.json as written by writeState, or undefined for anything else (garbage, an older shape, a hand edit). */
export function validPartState(value: unknown): PartState | undefined {
  const v = value as Partial<PartState> | null;
  if (typeof v !== 'object' || v === null || v.v !== 1 || typeof v.url !== 'string' || typeof v.ranges !== 'boolean') return undefined;
  if (!(v.total === null || nonNegInt(v.total))) return undefined;
  if (!Array.isArray(v.pieces) || v.pieces.length === 0) return undefined;
  for (const p of v.pieces as unknown[]) {
    const q = p as Partial<Piece> | null;
    if (typeof q !== 'object' || q === null || !nonNegInt(q.start) || !nonNegInt(q.done) || !(q.end === null || (nonNegInt(q.end) && q.end >= q.start))) return undefined;
    if (v.total !== null && q.end !== null && q.end > v.total) return undefined;
  }
  return v as PartState;
}

const pieceEnd = (p: Piece) => (p.end === null ? Infinity : p.end);
const pieceComplete = (p: Piece) => p.end !== null && p.start + p.done >= p.end;

export function parseContentRange(value: string | undefined): { start: number; end: number; total: number | null } | undefined {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]) + 1, total: m[3] === '*' ? null : Number(m[3]) };
}

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isLocalFileError(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.syscall === 'string' && ['open', 'write', 'read', 'close', 'fstat', 'ftruncate'].includes(e.syscall);
}

export function interruptedError(paths: CachePaths, bytes: number): CudawizError {
  return new CudawizError(bytes > 0 ? fetchText.interruptedKept(formatBytes(bytes), paths.part) : fetchText.interruptedNothing, {
    exitCode: EXIT.interrupted,
    code: 'interrupted',
    fix: fetchText.interruptedFix,
  });
}

export class Transfer {
  private readonly t: Required<Omit<TransferTuning, 'freeSpace'>> & { freeSpace: FreeSpaceProbe };
  private state!: PartState;
  private hasher!: OrderedHasher;
  private inner = new AbortController();
  private firstError: unknown;
  private finalUrl: string;
  private restarts = 0;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly req: TransferRequest) {
    this.t = { ...DEFAULTS, freeSpace: realFreeSpace, ...stripUndefined(req.tuning ?? {}) };
    this.finalUrl = req.url;
    req.signal?.addEventListener('abort', () => this.inner.abort(), { once: true });
  }

  async run(): Promise<TransferResult> {
    for (;;) {
      try {
        return await this.attemptWhole();
      } catch (error) {
        if (error instanceof BodyTooLong || this.firstError instanceof BodyTooLong) {
          await this.discardPart();
          throw new CudawizError(fetchText.tooLong(this.req.url, formatBytes(this.unknownLengthCap())), { code: 'body-too-long', fix: fetchText.tooLongFix });
        }
        if (!(error instanceof RestartNeeded) || this.restarts >= this.t.retries) throw this.explain(error);
        this.restarts++;
        await this.discardPart();
      }
    }
  }

  private async attemptWhole(): Promise<TransferResult> {
    const { paths, meter } = this.req;
    this.inner = new AbortController();
    // One signal is shared by every request and pipe of this download.
    setMaxListeners(0, this.inner.signal);
    this.firstError = undefined;
    if (this.req.signal?.aborted) this.inner.abort();
    let first: OpenedResponse | undefined;
    const resumed = await this.loadState();
    if (!resumed) first = await this.withRetries(() => this.openFirst());
    const onDisk = this.state.pieces.reduce((n, p) => n + p.done, 0);
    if (this.state.total !== null) await this.checkFreeSpace(this.state.total - onDisk, first);
    if (!resumed) {
      await rm(paths.part, { force: true });
      await writeNewFile(paths.part, '', 0o600);
    }
    meter.start(onDisk, this.state.total ?? undefined);
    this.hasher = new OrderedHasher(paths.part, () => this.writtenEdge());
    await this.hasher.catchUp();
    await this.saveState();
    const timer = setInterval(() => {
      void this.saveState().catch(() => undefined);
      void this.hasher.catchUp().catch(() => undefined);
    }, this.t.stateIntervalMs);
    try {
      await this.runWorkers(first);
    } finally {
      clearInterval(timer);
      meter.connections = 0;
      await this.saveState().catch(() => undefined);
    }
    const total = this.state.total ?? this.state.pieces[0].done;
    await this.hasher.catchUp();
    if (this.hasher.hashed !== total) throw new Retryable(fetchText.hashedShort(this.hasher.hashed, total));
    meter.finish();
    return { ...this.hasher.digests(), bytes: total, resumedFrom: meter.resumedFrom, url: this.finalUrl };
  }

  // ------------------------------------------------------------------ state on disk
  private async loadState(): Promise<boolean> {
    const { paths, url, size } = this.req;
    const partSize = await stat(paths.part).then((s) => s.size, () => -1);
    if (partSize < 0) {
      await rm(paths.partState, { force: true });
      return false;
    }
    let saved: PartState | undefined;
    const text = await readFile(paths.partState, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        saved = validPartState(JSON.parse(text));
      } catch {
        saved = undefined;
      }
      if (!saved) {
        // Which bytes of the .part are good is unknown without it: start the file over.
        this.req.onNotice?.(fetchText.partStateDiscarded(paths.partState));
        await this.discardPart();
        return false;
      }
    }
    if (saved && size !== undefined && saved.total !== null && saved.total !== size) saved = undefined;
    if (saved && !saved.ranges) saved = undefined;
    if (saved) {
      // The state may lag the file (written every half second); never trust more than is on disk.
      for (const p of saved.pieces) {
        p.done = Math.max(0, Math.min(p.done, partSize - p.start, pieceEnd(p) - p.start));
        // Each piece is written in order, so the one holding the file's last byte wrote all before it too.
        if (p.start < partSize && partSize <= pieceEnd(p)) p.done = partSize - p.start;
      }
      this.state = saved;
      return true;
    }
    if (partSize === 0) return false;
    // A .part without state (killed before the first save): resume by length, checked by Content-Range.
    const total = size ?? null;
    this.state = { v: 1, url, total, ranges: true, pieces: [{ start: 0, end: total, done: partSize }] };
    return true;
  }

  /** One save at a time, so the timer's save cannot interleave with the last one or outlive it. */
  private saveState(): Promise<void> {
    this.saving = this.saving.catch(() => undefined).then(() => this.writeState());
    return this.saving;
  }

  private async writeState(): Promise<void> {
    const snapshot: PartState = { ...this.state, pieces: this.state.pieces.map((p) => ({ ...p })) };
    await replaceFile(this.req.paths.partState, JSON.stringify(snapshot), { mode: 0o600 });
  }

  private async discardPart(): Promise<void> {
    await rm(this.req.paths.part, { force: true });
    await rm(this.req.paths.partState, { force: true });
  }

  /** How far from byte 0 the .part is complete on disk. */
  private writtenEdge(): number {
    let edge = 0;
    for (const p of this.state.pieces) {
      if (p.start !== edge) break;
      edge = p.start + p.done;
      if (p.end === null || edge < p.end) break;
    }
    return edge;
  }

  private async checkFreeSpace(needed: number, first?: OpenedResponse): Promise<void> {
    const { paths } = this.req;
    const free = await this.t.freeSpace(paths.dir);
    if (free >= needed) return;
    first?.body.destroy();
    throw new CudawizError(
      fetchText.notEnoughSpace(paths.dir, formatBytes(needed), needed, formatBytes(free)),
      { code: 'disk-full', fix: fetchText.notEnoughSpaceFix, details: { needed, free } },
    );
  }

  // ------------------------------------------------------------------ requests
  private validatorHeaders(): Record<string, string> {
    const { etag, lastModified } = this.state;
    if (etag && !etag.startsWith('W/')) return { 'if-range': etag };
    if (lastModified) return { 'if-range': lastModified };
    return {};
  }

  /** A fresh start: ask for the first piece; the answer tells us the size and whether Range works. */
  private async openFirst(): Promise<OpenedResponse> {
    const { url, size, connections } = this.req;
    const r = await this.open(url, { range: `bytes=0-${this.t.pieceBytes - 1}` });
    const etag = r.headers.etag;
    const lastModified = r.headers['last-modified'];
    if (r.status === 206) {
      const cr = parseContentRange(r.headers['content-range']);
      if (!cr || cr.start !== 0) {
        r.body.destroy();
        throw new Retryable(fetchText.unexpectedContentRange(r.headers['content-range']));
      }
      const total = cr.total ?? size ?? null;
      this.state = { v: 1, url, total, etag, lastModified, ranges: total !== null, pieces: this.planPieces(total, cr.end, connections) };
    } else {
      const length = Number(r.headers['content-length']);
      const total = Number.isFinite(length) && r.headers['content-length'] !== undefined ? length : null;
      this.state = { v: 1, url, total, etag, lastModified, ranges: false, pieces: [{ start: 0, end: total, done: 0 }] };
    }
    if (size !== undefined && this.state.total !== null && this.state.total !== size) {
      r.body.destroy();
      throw new CudawizError(fetchText.sizeMismatch(this.req.paths.final, this.state.total, size), {
        code: 'size-mismatch',
        fix: fetchText.sizeMismatchFix,
      });
    }
    return r;
  }

  private planPieces(total: number | null, firstEnd: number, connections: number): Piece[] {
    if (total === null) return [{ start: 0, end: null, done: 0 }];
    const pieces: Piece[] = [{ start: 0, end: Math.min(firstEnd, total), done: 0 }];
    if (connections <= 1 || total < this.t.segmentMinBytes) {
      if (total > firstEnd) pieces.push({ start: firstEnd, end: total, done: 0 });
      return pieces;
    }
    for (let s = firstEnd; s < total; s += this.t.pieceBytes) pieces.push({ start: s, end: Math.min(total, s + this.t.pieceBytes), done: 0 });
    return pieces;
  }

  private async open(url: string, opts: { range?: string; validated?: boolean }): Promise<OpenedResponse> {
    const headers: Record<string, string> = {};
    if (opts.range) headers.range = opts.range;
    if (opts.validated) Object.assign(headers, this.validatorHeaders());
    let r: OpenedResponse;
    try {
      r = await openResponse(url, { headers, signal: this.inner.signal, idleTimeoutMs: this.t.idleTimeoutMs });
    } catch (error) {
      if (error instanceof CudawizError || this.inner.signal.aborted) throw error;
      throw new Retryable((error as Error).message);
    }
    this.finalUrl = r.url;
    if (r.status >= 500 || r.status === 429 || r.status === 408) {
      r.body.destroy();
      throw new Retryable(fetchText.serverAnswered(r.status), parseRetryAfter(r.headers['retry-after']));
    }
    if (r.status === 416) {
      r.body.destroy();
      throw new RestartNeeded('416');
    }
    if (r.status !== 200 && r.status !== 206) {
      r.body.destroy();
      throw new CudawizError(fetchText.httpStatus(url, r.status), {
        code: 'http-status',
        fix: r.status === 401 || r.status === 403 ? fetchText.httpLoginFix : fetchText.httpUrlFix,
      });
    }
    return r;
  }

  private async openPiece(p: Piece): Promise<OpenedResponse> {
    const from = p.start + p.done;
    if (!this.state.ranges) {
      if (from > 0) throw new RestartNeeded(fetchText.noRanges);
      return this.open(this.req.url, {});
    }
    const r = await this.open(this.req.url, { range: `bytes=${from}-${p.end === null ? '' : p.end - 1}`, validated: true });
    if (r.status === 200) {
      r.body.destroy();
      throw new RestartNeeded(fetchText.wholeFileNotRange);
    }
    const cr = parseContentRange(r.headers['content-range']);
    if (!cr || cr.start !== from || (this.state.total !== null && cr.total !== null && cr.total !== this.state.total)) {
      r.body.destroy();
      throw new RestartNeeded(fetchText.rangeNotContinuing(r.headers['content-range']));
    }
    if (this.state.total === null && cr.total !== null) {
      this.state.total = cr.total;
      p.end = cr.total;
    }
    return r;
  }

  // ------------------------------------------------------------------ workers
  private async runWorkers(first?: OpenedResponse): Promise<void> {
    const taken = new Set<Piece>();
    const pending = () => this.state.pieces.filter((p) => !pieceComplete(p) && !taken.has(p));
    // Only a plan cut into many pieces is segmented; a plain download is one piece after the probe.
    const workers = this.state.pieces.length > 2 ? Math.max(1, this.req.connections) : 1;
    let preopened = first;
    const worker = async () => {
      for (let p = pending()[0]; p; p = pending()[0]) {
        taken.add(p);
        const opened = preopened && p.start === 0 ? preopened : undefined;
        if (opened) preopened = undefined;
        this.req.meter.connections++;
        try {
          await this.fetchPiece(p, opened);
        } finally {
          this.req.meter.connections--;
        }
      }
    };
    const results = await Promise.allSettled(Array.from({ length: workers }, worker).map(async (run) => {
      try {
        await run;
      } catch (error) {
        // The first failure is the cause; the others are connections we stopped because of it.
        if (!this.inner.signal.aborted) this.firstError = error;
        this.inner.abort();
        throw error;
      }
    }));
    preopened?.body.destroy();
    if (this.req.signal?.aborted) throw interruptedError(this.req.paths, this.req.meter.current);
    if (results.some((r) => r.status === 'rejected')) throw this.firstError ?? (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
  }

  private async fetchPiece(p: Piece, opened?: OpenedResponse): Promise<void> {
    let failures = 0;
    let tries = 0;
    let stalls = 0;
    while (!pieceComplete(p)) {
      const before = p.done;
      try {
        const r = opened ?? (await this.openPiece(p));
        opened = undefined;
        await this.streamInto(p, r);
        if (p.end === null) p.end = p.start + p.done;
        if (!pieceComplete(p)) throw new Retryable(fetchText.closedEarly);
        // Hash what this piece completed now, so little is left to read back once the last piece lands.
        void this.hasher.catchUp().catch(() => undefined);
      } catch (error) {
        if (this.inner.signal.aborted) throw this.req.signal?.aborted ? interruptedError(this.req.paths, this.req.meter.current) : error;
        if (!(error instanceof Retryable)) throw error;
        tries += 1;
        stalls = error instanceof TooSlow ? stalls + 1 : 0;
        // A trickle moves bytes on every attempt; it must still run out of tries.
        failures = p.done > before && !(error instanceof TooSlow) ? 1 : failures + 1;
        if (failures > this.t.retries) throw this.explain(error, { stalls, tries });
        const wait = error.retryAfterMs ?? Math.min(30_000, this.t.retryBaseMs * 2 ** (failures - 1)) * (0.75 + Math.random() / 2);
        if (wait > this.t.maxRetryAfterMs) throw retryLaterError(this.req.url, wait);
        await delay(wait, undefined, { signal: this.inner.signal }).catch(() => undefined);
      }
    }
  }

  private async streamInto(p: Piece, r: OpenedResponse): Promise<void> {
    let fh: FileHandle;
    try {
      fh = await openOwnFileForUpdate(this.req.paths.part);
    } catch (error) {
      r.body.destroy();
      throw this.localFileError(error);
    }
    let windowBytes = 0;
    let windowStart = performance.now();
    const sink = new PieceSink(fh, p, this.unknownLengthCap(), (pos, chunk) => {
      windowBytes += chunk.length;
      this.hasher.offer(pos, chunk);
      this.req.meter.add(chunk.length);
    });
    // Minimum throughput, judged over whole windows (curl's --speed-limit/--speed-time).
    const { minBytesPerSec, lowSpeedWindowMs } = this.t;
    let stalled: TooSlow | undefined;
    const slowCheck = setInterval(() => {
      const elapsed = performance.now() - windowStart;
      if (elapsed < lowSpeedWindowMs) return;
      if (windowBytes < (minBytesPerSec * elapsed) / 1000) {
        // got wraps a destroy() reason in its own error type; keep ours aside.
        stalled = new TooSlow(fetchText.slowerThan(formatBytes(minBytesPerSec), seconds(elapsed)), elapsed);
        r.body.destroy(stalled);
      }
      windowBytes = 0;
      windowStart = performance.now();
    }, Math.max(10, Math.min(1000, lowSpeedWindowMs / 4)));
    try {
      await pipeline(r.body, sink, { signal: this.inner.signal });
    } catch (error) {
      if (error instanceof BodyTooLong) throw error;
      if (isLocalFileError(error)) throw this.localFileError(error);
      if (this.inner.signal.aborted) throw error;
      if (stalled) throw stalled;
      throw new Retryable((error as Error).message);
    } finally {
      clearInterval(slowCheck);
      await fh.close().catch(() => undefined);
    }
  }

  private localFileError(error: unknown): CudawizError {
    if (isDiskFull(error)) return new CudawizError(fetchText.diskFullWriting(this.req.paths.dir, this.req.paths.part), { code: 'disk-full', fix: fetchText.diskFullWritingFix });
    const mapped = describeFsError(error, { path: this.req.paths.part });
    if (mapped instanceof CudawizError) return mapped;
    return new CudawizError(fetchText.cannotWrite(this.req.paths.part, (error as Error).message), { code: 'cache-unwritable', fix: fetchText.cannotWriteFix });
  }

  /** The most bytes a body of unknown length may bring: the catalog's size, or a sane maximum. */
  private unknownLengthCap(): number {
    return this.req.size ?? this.t.maxUnknownLengthBytes;
  }

  private async withRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await fn();
      } catch (error) {
        if (this.req.signal?.aborted) throw interruptedError(this.req.paths, 0);
        if (!(error instanceof Retryable) || failures > this.t.retries) throw error;
        const wait = error.retryAfterMs ?? Math.min(30_000, this.t.retryBaseMs * 2 ** (failures - 1));
        if (wait > this.t.maxRetryAfterMs) throw retryLaterError(this.req.url, wait);
        await delay(wait, undefined, { signal: this.inner.signal }).catch(() => undefined);
      }
    }
  }

  /** Turns what is left of an internal failure into something the user can act on. */
  private explain(error: unknown, counts?: { stalls: number; tries: number }): unknown {
    if (error instanceof CudawizError) return error;
    if (this.req.signal?.aborted) return interruptedError(this.req.paths, this.req.meter.current);
    if (error instanceof TooSlow) {
      // What was measured: the window the last try was judged over, and how many tries in a row stalled (of how many).
      const tries = counts?.tries ?? this.t.retries + 1;
      return new CudawizError(fetchText.tooSlow(this.req.url, formatBytes(this.t.minBytesPerSec), seconds(error.windowMs), counts?.stalls ?? tries, tries), { code: 'download-stalled', fix: fetchText.tooSlowFix });
    }
    if (error instanceof Retryable) {
      return new CudawizError(fetchText.failedAfterTries(this.req.url, this.t.retries + 1, error.message), {
        code: 'download-failed',
        fix: fetchText.failedAfterTriesFix,
      });
    }
    if (error instanceof RestartNeeded) return new CudawizError(fetchText.keptChanging(error.message), { code: 'download-failed' });
    return error;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Writes a piece's bytes at their offsets and only then counts them (done, hash, progress), so what
 * is hashed and what resumes is exactly what is on disk.
 */
class PieceSink extends Writable {
  constructor(
    private readonly fh: FileHandle,
    private readonly piece: Piece,
    /** Where a piece of unknown end must stop. */
    private readonly cap: number,
    private readonly onWritten: (pos: number, chunk: Buffer) => void,
  ) {
    super({ highWaterMark: 1 << 20 });
  }

  override _writev(entries: { chunk: Buffer }[], cb: (error?: Error | null) => void): void {
    const p = this.piece;
    if (p.end === null && p.start + p.done + entries.reduce((n, e) => n + e.chunk.length, 0) > this.cap) return cb(new BodyTooLong());
    const room = pieceEnd(p) - (p.start + p.done);
    const chunks: Buffer[] = [];
    let len = 0;
    for (const { chunk } of entries) {
      if (len >= room) break;
      const c = chunk.length > room - len ? chunk.subarray(0, room - len) : chunk;
      chunks.push(c);
      len += c.length;
    }
    if (len === 0) return cb();
    const pos = p.start + p.done;
    this.fh.writev(chunks, pos).then(
      ({ bytesWritten }) => {
        let at = pos;
        let left = bytesWritten;
        for (const c of chunks) {
          const part = left >= c.length ? c : c.subarray(0, left);
          this.onWritten(at, part);
          at += part.length;
          left -= part.length;
          if (left <= 0) break;
        }
        p.done += bytesWritten;
        cb(bytesWritten === len ? null : new Error(fetchText.shortWrite(pos)));
      },
      (error: Error) => cb(error),
    );
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    this._writev([{ chunk }], cb);
  }
}
