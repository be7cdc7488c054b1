import { cudnnText } from '../i18n/cudnn.js';
import { normaliseMemberName } from './member-paths.js';
// A streaming tar reader: ustar, GNU (long names 'L'/'K') and pax ('x'/'g': path, linkpath, size)
// headers parsed from 512-byte blocks as the decompressed bytes arrive, so one pass can list,
// check and write. It decides nothing about safety: the visitor sees each header before its body
// and throws to stop the stream there.

export type TarEntryType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';

export interface TarEntry {
  /** As stored (after long-name and pax overrides), `/`-separated, without a leading `./` or trailing `/`. */
  name: string;
  type: TarEntryType;
  size: number;
  linkTarget?: string;
}

/** Receives one entry's body; `write` may return a promise, which the reader waits for (back-pressure). */
export interface TarBodySink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
  /** The stream failed before the body was complete: release what `write` holds (an open file). */
  abandon?(): void | Promise<void>;
}

/** Called for each entry before any of its body is read; return a sink to receive the body, or nothing to skip it. */
export type TarVisitor = (entry: TarEntry) => TarBodySink | undefined | Promise<TarBodySink | undefined>;

/** The bytes are not a well-formed tar: a bad header checksum, a truncated body, oversized metadata. */
export class TarFormatError extends Error {}

export interface TarReadLimits {
  /** Bytes of one GNU long name or pax record block (default 1 MiB). */
  maxMetaBytes?: number;
  /** Bytes allowed after the end-of-archive block (record padding; default 8 MiB). */
  maxTrailingBytes?: number;
}

const BLOCK = 512;
const META_TYPES = new Set(['L', 'K', 'x', 'g']);

function cString(b: Buffer, start: number, length: number): string {
  const end = b.indexOf(0, start);
  return b.toString('utf8', start, end === -1 || end > start + length ? start + length : end);
}

/** Octal text (NUL/space padded) or GNU base-256 (high bit set) numbers. */
function headerNumber(b: Buffer, start: number, length: number): number {
  if (b[start] & 0x80) {
    let n = b[start] & 0x7f;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + b[i];
    if (!Number.isSafeInteger(n)) throw new TarFormatError(cudnnText.tarNumberTooLarge);
    return n;
  }
  const text = b.toString('latin1', start, start + length).replace(/[\0 ]+$/, '').replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError(cudnnText.tarBadNumber(text));
  return parseInt(text, 8);
}

function checksumMatches(h: Buffer): boolean {
  const stored = headerNumber(h, 148, 8);
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : h[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

const isZeroBlock = (h: Buffer) => {
  for (let i = 0; i < BLOCK; i++) if (h[i] !== 0) return false;
  return true;
};

/** `len key=value\n` records; later ones win. */
function parsePax(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const len = space === -1 ? NaN : Number(data.toString('latin1', at, space));
    if (!Number.isInteger(len) || len <= space - at || at + len > data.length) throw new TarFormatError(cudnnText.tarBadPaxRecord);
    const record = data.toString('utf8', space + 1, at + len - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += len;
  }
  return out;
}

function entryType(flag: string, name: string): TarEntryType {
  if (flag === '0' || flag === '\0' || flag === '7') return name.endsWith('/') ? 'dir' : 'file';
  if (flag === '5') return 'dir';
  if (flag === '2') return 'symlink';
  if (flag === '1') return 'hardlink';
  return 'other';
}

/** One spelling per name (see normaliseMemberName): `./T//lib/x` and `T/lib/x` are the same member. */
const cleanTarName = (name: string) => normaliseMemberName(name);

/**
 * Reads a decompressed tar stream to its end, calling `visit` for every entry (the archive's own
 * `./` excepted). Throws TarFormatError for damage, and whatever `visit` or a sink throws.
 */
export async function readTarStream(source: AsyncIterable<Buffer>, visit: TarVisitor, limits: TarReadLimits = {}): Promise<void> {
  const maxMeta = limits.maxMetaBytes ?? 1024 * 1024;
  const maxTrailing = limits.maxTrailingBytes ?? 8 * 1024 * 1024;
  const header = Buffer.alloc(BLOCK);
  let filled = 0;
  // Declared wide: the closures below change it, which the compiler's narrowing cannot see.
  let mode = 'header' as 'header' | 'body' | 'pad' | 'end';
  let remaining = 0;
  let padding = 0;
  let sink: TarBodySink | undefined;
  let meta: { type: string; chunks: Buffer[] } | undefined;
  let current = '';
  let trailing = 0;
  // Overrides for the next entry (GNU long names, pax), and pax globals for every later one.
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax = new Map<string, string>();
  const globalPax = new Map<string, string>();

  const endBody = async () => {
    if (sink) await sink.end();
    sink = undefined;
    if (meta) {
      const data = Buffer.concat(meta.chunks);
      if (meta.type === 'L') longName = cString(data, 0, data.length);
      else if (meta.type === 'K') longLink = cString(data, 0, data.length);
      else if (meta.type === 'x') pax = parsePax(data);
      else for (const [k, v] of parsePax(data)) globalPax.set(k, v);
      meta = undefined;
    }
    mode = padding > 0 ? 'pad' : 'header';
  };

  const onHeader = async (h: Buffer) => {
    if (isZeroBlock(h)) {
      mode = 'end';
      return;
    }
    if (!checksumMatches(h)) throw new TarFormatError(cudnnText.tarChecksum(current));
    const flag = String.fromCharCode(h[156]);
    const magic = h.toString('latin1', 257, 263);
    let size = headerNumber(h, 124, 12);
    if (META_TYPES.has(flag)) {
      if (size > maxMeta) throw new TarFormatError(`a ${flag === 'x' || flag === 'g' ? 'pax' : 'long-name'} header of ${size} bytes`);
      meta = { type: flag, chunks: [] };
    } else {
      const prefix = magic === 'ustar\0' ? cString(h, 345, 155) : '';
      const raw = longName ?? pax.get('path') ?? globalPax.get('path') ?? (prefix ? `${prefix}/${cString(h, 0, 100)}` : cString(h, 0, 100));
      const link = longLink ?? pax.get('linkpath') ?? globalPax.get('linkpath') ?? cString(h, 157, 100);
      const paxSize = pax.get('size') ?? globalPax.get('size');
      if (paxSize !== undefined) {
        if (!/^\d+$/.test(paxSize) || !Number.isSafeInteger(Number(paxSize))) throw new TarFormatError(cudnnText.tarBadPaxSize(paxSize));
        size = Number(paxSize);
      }
      longName = longLink = undefined;
      pax = new Map();
      const type = entryType(flag, raw);
      const name = cleanTarName(raw);
      current = name;
      if (name !== '' && name !== '.') {
        const entry: TarEntry = { name, type, size: type === 'file' ? size : 0 };
        if (type === 'symlink' || type === 'hardlink') entry.linkTarget = link;
        sink = await visit(entry);
      }
    }
    remaining = size;
    padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (remaining === 0) await endBody();
    else mode = 'body';
  };

  try {
    await readBlocks();
  } catch (error) {
    await sink?.abandon?.();
    throw error;
  }

  async function readBlocks() {
    for await (const chunk of source) {
      let at = 0;
      while (at < chunk.length) {
        if (mode === 'header') {
          if (filled === 0 && chunk.length - at >= BLOCK) {
            at += BLOCK;
            await onHeader(chunk.subarray(at - BLOCK, at));
            continue;
          }
          const n = Math.min(BLOCK - filled, chunk.length - at);
          chunk.copy(header, filled, at, at + n);
          filled += n;
          at += n;
          if (filled === BLOCK) {
            filled = 0;
            await onHeader(header);
          }
        } else if (mode === 'body') {
          const n = Math.min(remaining, chunk.length - at);
          const piece = chunk.subarray(at, at + n);
          at += n;
          remaining -= n;
          if (sink) await sink.write(piece);
          else if (meta) meta.chunks.push(Buffer.from(piece));
          if (remaining === 0) await endBody();
        } else if (mode === 'pad') {
          const n = Math.min(padding, chunk.length - at);
          at += n;
          padding -= n;
          if (padding === 0) mode = 'header';
        } else {
          trailing += chunk.length - at;
          if (trailing > maxTrailing) throw new TarFormatError(cudnnText.tarTrailing(maxTrailing));
          at = chunk.length;
        }
      }
    }
    if (mode === 'body' || mode === 'pad' || filled > 0) throw new TarFormatError(cudnnText.tarEndsMidway(current));
  }
}
