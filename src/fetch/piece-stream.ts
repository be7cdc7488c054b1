// One response body into its piece of the .part: the bytes written at their offsets and only then
// counted (the piece's progress, the in-order hash, the meter), so what is hashed and what resumes is
// exactly what is on disk; a body past any size the file can have, and an attempt slower than the
// minimum throughput over a whole window, are cut off.
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from '../format.js';
import { fetchText } from '../i18n/fetch.js';
import { openOwnFileForUpdate } from '../trust/write.js';
import type { OpenedResponse } from './http.js';
import { pieceEnd, type Piece } from './part-state.js';
import { BodyTooLong, Retryable, seconds, TooSlow } from './retry-policy.js';

export interface PieceStreamOptions {
  part: string;
  /** Where a piece of unknown end must stop. */
  cap: number;
  /** Slower than this (bytes/s) over a whole `lowSpeedWindowMs` = a stalled attempt. */
  minBytesPerSec: number;
  lowSpeedWindowMs: number;
  signal: AbortSignal;
  /** Each written run of bytes, at its offset in the file. */
  onWritten: (pos: number, chunk: Buffer) => void;
  /** What a failure to open or write the .part ends as. */
  localFileError: (error: unknown) => Error;
}

function isLocalFileError(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.syscall === 'string' && ['open', 'write', 'read', 'close', 'fstat', 'ftruncate'].includes(e.syscall);
}

/** Streams `r`'s body into piece `p`; a network failure is Retryable, a stall TooSlow. */
export async function streamPiece(p: Piece, r: OpenedResponse, o: PieceStreamOptions): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await openOwnFileForUpdate(o.part);
  } catch (error) {
    r.body.destroy();
    throw o.localFileError(error);
  }
  let windowBytes = 0;
  let windowStart = performance.now();
  const sink = new PieceSink(fh, p, o.cap, (pos, chunk) => {
    windowBytes += chunk.length;
    o.onWritten(pos, chunk);
  });
  // Minimum throughput, judged over whole windows (curl's --speed-limit/--speed-time).
  const { minBytesPerSec, lowSpeedWindowMs } = o;
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
    await pipeline(r.body, sink, { signal: o.signal });
  } catch (error) {
    if (error instanceof BodyTooLong) throw error;
    if (isLocalFileError(error)) throw o.localFileError(error);
    if (o.signal.aborted) throw error;
    if (stalled) throw stalled;
    throw new Retryable((error as Error).message);
  } finally {
    clearInterval(slowCheck);
    await fh.close().catch(() => undefined);
  }
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
