// Range and resume: which pieces of a file are on disk in `<name>.part`, kept beside it in
// `<name>.part.json` so a later run resumes where this one stopped; how a fresh file is cut into pieces,
// and how a Content-Range answer is read. What is trusted on resume is never more than the .part holds.
import { readFile, rm, stat } from 'node:fs/promises';
import { fetchText } from '../i18n/fetch.js';
import { replaceFile, writeNewFile } from '../trust/write.js';
import type { CachePaths } from './cache-paths.js';

export interface Piece {
  start: number;
  /** Exclusive; null while the size is unknown (a server that sends no length). */
  end: number | null;
  done: number;
}

export interface PartState {
  v: 1;
  url: string;
  total: number | null;
  etag?: string;
  lastModified?: string;
  ranges: boolean;
  pieces: Piece[];
}

const nonNegInt = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** A .part.json as written by PartFile.save, or undefined for anything else (garbage, an older shape, a hand edit). */
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

export const pieceEnd = (p: Piece) => (p.end === null ? Infinity : p.end);
export const pieceComplete = (p: Piece) => p.end !== null && p.start + p.done >= p.end;

export function parseContentRange(value: string | undefined): { start: number; end: number; total: number | null } | undefined {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]) + 1, total: m[3] === '*' ? null : Number(m[3]) };
}

/**
 * A fresh file's pieces after the first answer (which brought bytes 0..firstEnd): one more piece for
 * the rest, or, for a file of at least `segmentMinBytes` over several connections, pieces of `pieceBytes`.
 */
export function planPieces(total: number | null, firstEnd: number, connections: number, t: { segmentMinBytes: number; pieceBytes: number }): Piece[] {
  if (total === null) return [{ start: 0, end: null, done: 0 }];
  const pieces: Piece[] = [{ start: 0, end: Math.min(firstEnd, total), done: 0 }];
  if (connections <= 1 || total < t.segmentMinBytes) {
    if (total > firstEnd) pieces.push({ start: firstEnd, end: total, done: 0 });
    return pieces;
  }
  for (let s = firstEnd; s < total; s += t.pieceBytes) pieces.push({ start: s, end: Math.min(total, s + t.pieceBytes), done: 0 });
  return pieces;
}

/** How far from byte 0 the .part is complete on disk. */
export function writtenEdge(state: PartState): number {
  let edge = 0;
  for (const p of state.pieces) {
    if (p.start !== edge) break;
    edge = p.start + p.done;
    if (p.end === null || edge < p.end) break;
  }
  return edge;
}

/** The `.part` and its `.part.json` of one download. */
export class PartFile {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly paths: CachePaths,
    /** The state as it is when a save runs (saves queue; each writes the latest). */
    private readonly current: () => PartState,
  ) {}

  /**
   * The state to resume from, or undefined to start over: none on disk, a state that no longer fits
   * (another size, a server without ranges), or garbage (then the .part goes too, with a notice).
   */
  async load(url: string, size: number | undefined, onNotice?: (line: string) => void): Promise<PartState | undefined> {
    const { paths } = this;
    const partSize = await stat(paths.part).then((s) => s.size, () => -1);
    if (partSize < 0) {
      await rm(paths.partState, { force: true });
      return undefined;
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
        onNotice?.(fetchText.partStateDiscarded(paths.partState));
        await this.discard();
        return undefined;
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
      return saved;
    }
    if (partSize === 0) return undefined;
    // A .part without state (killed before the first save): resume by length, checked by Content-Range.
    const total = size ?? null;
    return { v: 1, url, total, ranges: true, pieces: [{ start: 0, end: total, done: partSize }] };
  }

  /** An empty .part, in place of whatever was there. */
  async startEmpty(): Promise<void> {
    await rm(this.paths.part, { force: true });
    await writeNewFile(this.paths.part, '', 0o600);
  }

  /** One save at a time, so the timer's save cannot interleave with the last one or outlive it. */
  save(): Promise<void> {
    this.saving = this.saving.catch(() => undefined).then(() => this.write());
    return this.saving;
  }

  private async write(): Promise<void> {
    const state = this.current();
    const snapshot: PartState = { ...state, pieces: state.pieces.map((p) => ({ ...p })) };
    await replaceFile(this.paths.partState, JSON.stringify(snapshot), { mode: 0o600 });
  }

  async discard(): Promise<void> {
    await rm(this.paths.part, { force: true });
    await rm(this.paths.partState, { force: true });
  }
}
