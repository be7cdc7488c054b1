// Reading cuDNN archives: list, read one member, extract. Zips through yauzl; .tgz/.tar.xz through
// the system `tar` (GNU tar on Linux, bsdtar on Windows 10+), whose invocation lives only here.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { execa } from 'execa';
import yauzl from 'yauzl';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar.xz';

export interface ArchiveEntry {
  /** The name as stored, with `/` separators and no leading `./`. */
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  size: number;
  linkTarget?: string;
}

/** Why an archive could not be read: damaged, or holding a path the reader itself refuses. */
export class ArchiveReadError extends Error {
  constructor(
    message: string,
    readonly reason: 'corrupt' | 'unsafe-path' | 'unsupported',
  ) {
    super(message);
  }
}

/** By the first bytes, not the name: a renamed file is still what it is. */
export async function detectFormat(file: string): Promise<ArchiveFormat | undefined> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(6);
    const { bytesRead } = await fh.read(head, 0, 6, 0);
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip';
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead === 6 && head.equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'tar.xz';
    return undefined;
  } finally {
    await fh.close();
  }
}

const cleanName = (name: string) => name.replace(/^(\.\/)+/, '');

// ---- zip (yauzl) ----

function zipError(error: Error): ArchiveReadError {
  if (/^(absolute path|invalid relative path|invalid characters)/.test(error.message)) return new ArchiveReadError(error.message, 'unsafe-path');
  return new ArchiveReadError(error.message, 'corrupt');
}

async function openZip(file: string): Promise<yauzl.ZipFile> {
  try {
    return await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    throw zipError(error as Error);
  }
}

const zipIsSymlink = (e: yauzl.Entry) => ((e.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

async function* zipEntries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  try {
    for await (const e of zip.eachEntry()) yield e;
  } catch (error) {
    throw zipError(error as Error);
  }
}

async function readStream(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > maxBytes) throw new ArchiveReadError(`member larger than ${maxBytes} bytes`, 'unsupported');
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

async function listZip(file: string): Promise<ArchiveEntry[]> {
  const zip = await openZip(file);
  try {
    const out: ArchiveEntry[] = [];
    for await (const e of zipEntries(zip)) {
      const name = cleanName(e.fileName);
      if (name.endsWith('/')) out.push({ name: name.slice(0, -1), type: 'dir', size: 0 });
      else if (zipIsSymlink(e)) {
        const target = (await readStream(await zip.openReadStreamPromise(e), 4096).catch((err) => Promise.reject(zipError(err)))).toString('utf8');
        out.push({ name, type: 'symlink', size: 0, linkTarget: target });
      } else out.push({ name, type: 'file', size: e.uncompressedSize });
    }
    return out;
  } finally {
    zip.close();
  }
}

async function readZipMember(file: string, member: string, maxBytes: number): Promise<Buffer | undefined> {
  const zip = await openZip(file);
  try {
    for await (const e of zipEntries(zip)) {
      if (cleanName(e.fileName) !== member) continue;
      try {
        return await readStream(await zip.openReadStreamPromise(e), maxBytes);
      } catch (error) {
        throw error instanceof ArchiveReadError ? error : zipError(error as Error);
      }
    }
    return undefined;
  } finally {
    zip.close();
  }
}

async function extractZip(file: string, dest: string, options: ExtractOptions): Promise<Map<string, string>> {
  const zip = await openZip(file);
  const hashes = new Map<string, string>();
  const made = new Set<string>();
  try {
    for await (const e of zipEntries(zip)) {
      options.signal?.throwIfAborted();
      const name = cleanName(e.fileName);
      if (name.endsWith('/') || zipIsSymlink(e)) continue; // inspection refused zips with links already
      if (options.only && !options.only.has(name)) continue;
      const target = path.join(dest, ...name.split('/'));
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      const hash = createHash('sha256');
      let crc = 0;
      try {
        const stream = await zip.openReadStreamPromise(e);
        stream.on('data', (c: Buffer) => {
          hash.update(c);
          crc = crc32(c, crc);
        });
        await pipeline(stream, createWriteStream(target), { signal: options.signal });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        throw zipError(error as Error);
      }
      // A stored (uncompressed) member has no other check: damaged bytes would pass unseen.
      if (crc >>> 0 !== e.crc32 >>> 0) throw new ArchiveReadError(`${name} is damaged (CRC mismatch)`, 'corrupt');
      hashes.set(name, hash.digest('hex'));
      options.onFile?.(name, e.uncompressedSize);
    }
    return hashes;
  } finally {
    zip.close();
  }
}

// ---- tar (the system tool) ----

/** Every call of the system tar starts here: C locale and UTC, so the listing parses the same everywhere. */
function startTar(args: string[], options: { signal?: AbortSignal; maxBuffer?: number; buffer?: boolean } = {}) {
  return execa('tar', args, {
    env: { LC_ALL: 'C', TZ: 'UTC' },
    encoding: 'buffer',
    buffer: options.buffer ?? true,
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    cancelSignal: options.signal,
    stdin: 'ignore',
    windowsHide: true,
  });
}

function tarFailure(error: unknown, signal?: AbortSignal): unknown {
  const e = error as { isCanceled?: boolean; stderr?: Uint8Array; shortMessage?: string; code?: string };
  if (e.isCanceled) return signal?.reason ?? new DOMException('aborted', 'AbortError');
  if (e.code === 'ENOENT') return new ArchiveReadError('the `tar` program was not found on this machine', 'unsupported');
  const stderr = Buffer.from(e.stderr ?? []).toString('utf8').trim();
  return new ArchiveReadError(stderr.split('\n').slice(-2).join(' ') || (e.shortMessage ?? 'tar failed'), 'corrupt');
}

async function tar(args: string[], options: { signal?: AbortSignal; maxBuffer?: number } = {}) {
  try {
    return await startTar(args, options);
  } catch (error) {
    throw tarFailure(error, options.signal);
  }
}

/** One member's bytes; stops tar as soon as `size` bytes came, instead of letting it read the whole archive. */
async function readTarMember(file: string, member: string, size: number): Promise<Buffer> {
  const child = startTar(['-xOf', file, member], { buffer: false });
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    got += chunk.length;
    if (got >= size) break;
  }
  if (got >= size) {
    child.kill();
    await child.catch(() => undefined);
  } else {
    try {
      await child;
    } catch (error) {
      throw tarFailure(error);
    }
  }
  return Buffer.concat(chunks).subarray(0, size);
}

// GNU: `-rw-r--r-- user/group 1234 2019-10-27 12:00 name`; bsdtar: `-rw-r--r--  0 user group 1234 Oct 27  2019 name`.
const GNU_LINE = /^(\S)\S{9}\S*\s+\S+\s+(\d+)\s+\d{4}-\d\d-\d\d\s+\d\d:\d\d(?::\d\d)?\s(.*)$/;
const BSD_LINE = /^(\S)\S{9}\S*\s+\d+\s+\S+\s+\S+\s+(\d+)\s+\w{3}\s+\d+\s+[\d:]+\s(.*)$/;

/** One line of `tar -tv` output; undefined for blank lines and the archive's own `./`. */
export function parseTarLine(line: string): ArchiveEntry | undefined {
  if (line.trim() === '') return undefined;
  const m = GNU_LINE.exec(line) ?? BSD_LINE.exec(line);
  if (!m) throw new ArchiveReadError(`unreadable listing line: ${line}`, 'corrupt');
  const [, kind, size, rest] = m;
  let name = rest;
  let type: ArchiveEntry['type'] = kind === '-' ? 'file' : kind === 'd' ? 'dir' : kind === 'l' ? 'symlink' : kind === 'h' ? 'hardlink' : 'other';
  let linkTarget: string | undefined;
  const link = / -> (.*)$/.exec(rest);
  const hard = / link to (.*)$/.exec(rest);
  if (type === 'symlink' && link) {
    name = rest.slice(0, link.index);
    linkTarget = link[1];
  } else if (hard) {
    name = rest.slice(0, hard.index);
    linkTarget = hard[1];
    type = 'hardlink';
  }
  name = cleanName(name);
  if (type === 'dir') name = name.replace(/\/+$/, '');
  if (name === '' || name === '.') return undefined;
  return { name, type, size: Number(size), linkTarget };
}

export function parseTarListing(text: string): ArchiveEntry[] {
  return text.split('\n').flatMap((line) => parseTarLine(line) ?? []);
}

/** Streams `tar -tv`, handing each entry on as tar reaches it (so a caller can start reading early). */
async function listTar(file: string, onEntry?: (e: ArchiveEntry) => void): Promise<ArchiveEntry[]> {
  const child = startTar(['-tvf', file], { buffer: false });
  const stderr: Buffer[] = [];
  child.stderr?.on('data', (c: Buffer) => stderr.push(c));
  const out: ArchiveEntry[] = [];
  let parseError: unknown;
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      const e = parseTarLine(line);
      if (!e) continue;
      out.push(e);
      onEntry?.(e);
    }
  } catch (error) {
    parseError = error;
    child.kill();
  }
  try {
    await child;
  } catch (error) {
    throw parseError ?? tarFailure({ ...(error as object), stderr: Buffer.concat(stderr) });
  }
  if (parseError) throw parseError;
  return out;
}

async function extractTar(file: string, dest: string, options: ExtractOptions): Promise<void> {
  await mkdir(dest, { recursive: true });
  // Only the planned members; never the owner recorded in the archive (we may run as root).
  const members = options.only ? [...options.only] : [];
  await tar(['-x', '--no-same-owner', '-f', file, '-C', dest, ...members], { signal: options.signal });
}

// ---- the API the rest of cudnn/ uses ----

export async function listEntries(file: string, format: ArchiveFormat, onEntry?: (e: ArchiveEntry) => void): Promise<ArchiveEntry[]> {
  if (format === 'zip') {
    const entries = await listZip(file);
    if (onEntry) entries.forEach(onEntry);
    return entries;
  }
  return listTar(file, onEntry);
}

/** One listed member's bytes (`size` from the listing), without extracting anything else. */
export async function readMember(file: string, format: ArchiveFormat, member: string, size: number, maxBytes = 4 * 1024 * 1024): Promise<Buffer | undefined> {
  if (size > maxBytes) throw new ArchiveReadError(`${member} is larger than ${maxBytes} bytes`, 'unsupported');
  if (format === 'zip') return readZipMember(file, member, maxBytes);
  return readTarMember(file, member, size);
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Extract just these member names. */
  only?: Set<string>;
  onFile?: (name: string, bytes: number) => void;
}

/** Extracts into `dest`; for zips also returns each file's sha256 (computed while writing). */
export async function extractArchive(file: string, format: ArchiveFormat, dest: string, options: ExtractOptions = {}): Promise<Map<string, string>> {
  if (format === 'zip') return extractZip(file, dest, options);
  await extractTar(file, dest, options);
  return new Map();
}
