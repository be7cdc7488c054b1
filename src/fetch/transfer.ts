// Moves the bytes of one URL into `<cache>/<name>.part`: resumable pieces over one or several
// connections, retries with backoff (Retry-After honoured), hashing in order as it goes. This module
// runs the attempts and the connections; each job it hands out has its own module: which pieces are on
// disk and resuming them (part-state.ts), the requests and what their answers mean (range-requests.ts),
// when to try again and what a failure ends as (retry-policy.ts), one body into its piece
// (piece-stream.ts), hashing in order (ordered-hasher.ts), progress (progress.ts).
import { setMaxListeners } from 'node:events';
import { CudawizError } from '../errors.js';
import { describeFsError, isDiskFull } from '../fs-errors.js';
import { fetchText } from '../i18n/fetch.js';
import type { CachePaths } from './cache-paths.js';
import { formatBytes } from '../format.js';
import { freeSpace as realFreeSpace, type FreeSpaceProbe } from './disk-space.js';
import type { OpenedResponse } from './http.js';
import { OrderedHasher, type Digests } from './ordered-hasher.js';
import { PartFile, pieceComplete, writtenEdge, type PartState, type Piece } from './part-state.js';
import { openFirst, openPiece, type RangeClient } from './range-requests.js';
import { streamPiece } from './piece-stream.js';
import type { ProgressMeter } from './progress.js';
import { BodyTooLong, explainFailure, interruptedError, RestartNeeded, Retryable, TooSlow, waitBeforeRetry, withRetries } from './retry-policy.js';

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

export class Transfer {
  private readonly t: Required<Omit<TransferTuning, 'freeSpace'>> & { freeSpace: FreeSpaceProbe };
  private state!: PartState;
  private hasher!: OrderedHasher;
  private inner = new AbortController();
  private firstError: unknown;
  private finalUrl: string;
  private restarts = 0;
  private readonly part: PartFile;

  constructor(private readonly req: TransferRequest) {
    this.t = { ...DEFAULTS, freeSpace: realFreeSpace, ...stripUndefined(req.tuning ?? {}) };
    this.finalUrl = req.url;
    this.part = new PartFile(req.paths, () => this.state);
    req.signal?.addEventListener('abort', () => this.inner.abort(), { once: true });
  }

  async run(): Promise<TransferResult> {
    for (;;) {
      try {
        return await this.attemptWhole();
      } catch (error) {
        if (error instanceof BodyTooLong || this.firstError instanceof BodyTooLong) {
          await this.part.discard();
          throw new CudawizError(fetchText.tooLong(this.req.url, formatBytes(this.unknownLengthCap())), { code: 'body-too-long', fix: fetchText.tooLongFix });
        }
        if (!(error instanceof RestartNeeded) || this.restarts >= this.t.retries) throw this.explain(error);
        this.restarts++;
        await this.part.discard();
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
    const saved = await this.part.load(this.req.url, this.req.size, this.req.onNotice);
    const resumed = saved !== undefined;
    if (saved) this.state = saved;
    else first = await this.withRetries(() => this.openFirst());
    const onDisk = this.state.pieces.reduce((n, p) => n + p.done, 0);
    if (this.state.total !== null) await this.checkFreeSpace(this.state.total - onDisk, first);
    if (!resumed) await this.part.startEmpty();
    meter.start(onDisk, this.state.total ?? undefined);
    this.hasher = new OrderedHasher(paths.part, () => writtenEdge(this.state));
    await this.hasher.catchUp();
    await this.part.save();
    const timer = setInterval(() => {
      void this.part.save().catch(() => undefined);
      void this.hasher.catchUp().catch(() => undefined);
    }, this.t.stateIntervalMs);
    try {
      await this.runWorkers(first);
    } finally {
      clearInterval(timer);
      meter.connections = 0;
      await this.part.save().catch(() => undefined);
    }
    const total = this.state.total ?? this.state.pieces[0].done;
    await this.hasher.catchUp();
    if (this.hasher.hashed !== total) throw new Retryable(fetchText.hashedShort(this.hasher.hashed, total));
    meter.finish();
    return { ...this.hasher.digests(), bytes: total, resumedFrom: meter.resumedFrom, url: this.finalUrl };
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
  private client(): RangeClient {
    return { url: this.req.url, signal: this.inner.signal, idleTimeoutMs: this.t.idleTimeoutMs, onUrl: (url) => (this.finalUrl = url) };
  }

  /** A fresh start: the first piece's answer settles the state (size, ranges, pieces). */
  private async openFirst(): Promise<OpenedResponse> {
    const { response, state } = await openFirst(this.client(), { size: this.req.size, connections: this.req.connections, final: this.req.paths.final }, this.t);
    this.state = state;
    return response;
  }

  private openPiece(p: Piece): Promise<OpenedResponse> {
    return openPiece(this.client(), this.state, p);
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
        await waitBeforeRetry(error, failures, this.t, this.req.url, this.inner.signal, true);
      }
    }
  }

  private streamInto(p: Piece, r: OpenedResponse): Promise<void> {
    return streamPiece(p, r, {
      part: this.req.paths.part,
      cap: this.unknownLengthCap(),
      minBytesPerSec: this.t.minBytesPerSec,
      lowSpeedWindowMs: this.t.lowSpeedWindowMs,
      signal: this.inner.signal,
      onWritten: (pos, chunk) => {
        this.hasher.offer(pos, chunk);
        this.req.meter.add(chunk.length);
      },
      localFileError: (error) => this.localFileError(error),
    });
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

  private withRetries<T>(fn: () => Promise<T>): Promise<T> {
    return withRetries(fn, this.t, this.req.url, this.inner.signal, () => (this.req.signal?.aborted ? interruptedError(this.req.paths, 0) : undefined));
  }

  /** Turns what is left of an internal failure into something the user can act on. */
  private explain(error: unknown, counts?: { stalls: number; tries: number }): unknown {
    return explainFailure(error, this.t, this.req.url, () => (this.req.signal?.aborted ? interruptedError(this.req.paths, this.req.meter.current) : undefined), counts);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
