// Reading cuDNN archives: list, read one member, extract. Zips through yauzl; .tgz/.tar.xz through
// our own streaming tar reader (tar-stream.ts) over zlib or an `xz -dc` child, in one pass.
import { isFsError } from '../fs-errors.js';
import { cudnnText } from '../i18n/cudnn.js';
import type { ChildProcessByStdio } from 'node:child_process';
import { spawnProgram } from '../trust/run.js';
import type { CudawizError } from '../errors.js';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, realpath, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { startFileHasher } from './file-hasher.js';
import { landsOutside, normaliseMemberName } from './member-paths.js';
import { readTarStream, TarFormatError, type TarBodySink, type TarEntry } from './tar-stream.js';
import { makeSymlink, newFileStream, openNewFile } from '../trust/write.js';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar.xz';

/** The name as stored, with `/` separators and no leading `./`. */
export type ArchiveEntry = TarEntry;

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

/** One spelling per name (a zip's directory entries keep their trailing `/`, which says what they are). */
const cleanName = (name: string) => normaliseMemberName(name) + (name.endsWith('/') && normaliseMemberName(name) !== '' ? '/' : '');

/** A relative path that stays below its folder: no `..`, not absolute, no backslashes or drive letters. */
const staysInside = (name: string) => !/^([a-zA-Z]:|[\\/])/.test(name) && !name.includes('\\') && !name.split('/').includes('..');

// ---- zip (yauzl) ----

function zipError(error: Error): ArchiveReadError {
  if (/^(absolute path|invalid relative path|invalid characters)/.test(error.message)) return new ArchiveReadError(error.message, 'unsafe-path');
  return new ArchiveReadError(error.message, 'corrupt');
}

/**
 * The file, read for yauzl in 1 MiB steps: its own reader takes a Readable's default 16 KiB per read,
 * so copying a big member was mostly waiting on thousands of small reads. Each range opens the file
 * itself: yauzl destroys a member's stream when it is done, and a shared descriptor would go with it.
 */
class FileRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: string) {
    super();
  }
  _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    return createReadStream(this.file, { start, end: end - 1, highWaterMark: 1 << 20 });
  }
}

/** The zip for extracting its members, over a FileRangeReader. */
async function openZipForCopy(file: string): Promise<yauzl.ZipFile> {
  try {
    const { size } = await stat(file);
    return await yauzl.fromRandomAccessReaderPromise(new FileRangeReader(file), size, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    if (isFsError(error)) throw error;
    throw zipError(error as Error);
  }
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
    if (n > maxBytes) throw new ArchiveReadError(cudnnText.memberTooLarge(maxBytes), 'unsupported');
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
  const zip = await openZipForCopy(file);
  const hashes = new Map<string, string>();
  const made = new Set<string>();
  await mkdir(dest, { recursive: true });
  const destReal = await realpath(dest);
  try {
    for await (const e of zipEntries(zip)) {
      options.signal?.throwIfAborted();
      const name = cleanName(e.fileName);
      if (name.endsWith('/') || zipIsSymlink(e)) continue; // inspection refused zips with links already
      if (options.only && !options.only.has(name)) continue;
      if (!staysInside(name)) throw new ArchiveReadError(cudnnText.writtenOutside(name), 'unsafe-path');
      const target = path.join(dest, ...name.split('/'));
      const dir = path.dirname(target);
      if (await landsOutside(destReal, target)) throw new ArchiveReadError(cudnnText.writtenOutside(name), 'unsafe-path');
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
        await pipeline(stream, newFileStream(target), { signal: options.signal });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        // A full disk or an unwritable staging folder is not the archive's fault: it is said as what it is.
        if (isFsError(error)) throw Object.assign(error, { path: (error as NodeJS.ErrnoException).path ?? target });
        throw zipError(error as Error);
      }
      // A stored (uncompressed) member has no other check: damaged bytes would pass unseen.
      if (crc >>> 0 !== e.crc32 >>> 0) throw new ArchiveReadError(cudnnText.crcMismatch(name), 'corrupt');
      hashes.set(name, hash.digest('hex'));
      options.onFile?.(name, e.uncompressedSize);
    }
    return hashes;
  } finally {
    zip.close();
  }
}

// ---- tar (our own streaming reader over zlib, or over an `xz -dc` child) ----

export type TarFormat = Exclude<ArchiveFormat, 'zip'>;
export const isTar = (format: ArchiveFormat | undefined): format is TarFormat => format === 'tar.gz' || format === 'tar.xz';

/** The one place the `xz` program is started (`-dc FILE` to decompress it, `--robot --list FILE` for its sizes). */
async function startXz(args: string[]): Promise<ChildProcessByStdio<null, Readable, Readable>> {
  try {
    return await spawnProgram('xz', args, { ...process.env, LC_ALL: 'C' });
  } catch (error) {
    if ((error as CudawizError).code === 'program-missing') throw new ArchiveReadError(cudnnText.noXz, 'unsupported');
    throw error;
  }
}

/** The uncompressed size the .xz index declares (read from its end, not by decompressing); undefined when unreadable. */
async function xzUncompressedSize(file: string): Promise<number | undefined> {
  const xz = await startXz(['--robot', '--list', '--', file]).catch(() => undefined);
  if (!xz) return undefined;
  let out = '';
  xz.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  xz.stderr.resume();
  const code = await new Promise<number | null>((resolve) => {
    xz.on('error', () => resolve(null));
    xz.on('close', resolve);
  });
  const totals = /^totals\t(?:[^\t]*\t){3}(\d+)/m.exec(out);
  return code === 0 && totals ? Number(totals[1]) : undefined;
}

async function* counted(source: AsyncIterable<Buffer>, count: (bytes: number) => void): AsyncIterable<Buffer> {
  for await (const chunk of source) {
    count(chunk.length);
    yield chunk;
  }
}

function tarReadError(error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof TarFormatError) return new ArchiveReadError(error.message, 'corrupt');
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) return new ArchiveReadError(`gzip: ${e.message}`, 'corrupt');
  return error;
}

/**
 * One pass over a .tgz / .tar.xz: reads the compressed file once, decompresses it as it goes and
 * hands the tar stream to `consume`. Stops everything the moment `consume` throws.
 */
async function decompressTar(file: string, format: TarFormat, consume: (tar: AsyncIterable<Buffer>) => Promise<void>, options: { signal?: AbortSignal; onRead?: TarPassOptions['onRead'] }): Promise<void> {
  const { onRead } = options;
  let consuming: Promise<void> | undefined;
  const reader = (tar: AsyncIterable<Buffer>) => (consuming = consume(tar));
  /** Waits for the reader to stop (its files closed) before anyone cleans up, and names the real cause. */
  const settle = async (error: unknown) => {
    const own = await consuming?.then(
      () => undefined,
      (e: unknown) => ({ error: e }),
    );
    // Node 20's pipeline reports a throwing last stage as a bare AbortError: the reader's own error says why.
    return own && (error as Error)?.name === 'AbortError' && !options.signal?.aborted ? own.error : error;
  };
  if (format === 'tar.gz') {
    const input = createReadStream(file, { highWaterMark: 1024 * 1024 });
    if (onRead) {
      const total = (await stat(file)).size;
      let done = 0;
      input.on('data', (c) => onRead((done += (c as Buffer).length), total));
    }
    try {
      await pipeline(input, createGunzip({ chunkSize: 256 * 1024 }), reader, { signal: options.signal });
    } catch (error) {
      throw tarReadError(await settle(error), options.signal);
    }
    return;
  }
  // xz reads the file itself (fed through this process, the bytes cost the main thread ~a third of
  // the pass); -T0 lets xz ≥ 5.4 unpack a multi-block archive on every core (older ones ignore it).
  const xz = await startXz(['-dc', '-T0', '--', file]);
  const size = onRead ? xzUncompressedSize(file) : undefined;
  const stderr: Buffer[] = [];
  xz.stderr.on('data', (c: Buffer) => stderr.push(c));
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    xz.on('error', (error) => resolve({ code: null, error }));
    xz.on('close', (code) => resolve({ code }));
  });
  let failure: unknown;
  let total = 0;
  let done = 0;
  void size?.then((n) => (total = n ?? 0));
  const source = onRead ? (tar: AsyncIterable<Buffer>) => reader(counted(tar, (n) => onRead((done += n), total))) : reader;
  try {
    await pipeline(xz.stdout, source, { signal: options.signal });
  } catch (error) {
    xz.kill();
    failure = await settle(error);
  }
  const { code, error: spawnError } = await exited;
  await size;
  if ((spawnError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new ArchiveReadError(cudnnText.noXz, 'unsupported');
  // xz's own complaint says more than "the archive ends early", so it wins over a format error.
  if (code !== 0 && !options.signal?.aborted && (failure === undefined || failure instanceof TarFormatError)) {
    const said = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-2).join(' ');
    throw new ArchiveReadError(said || cudnnText.xzExited(code), 'corrupt');
  }
  if (failure !== undefined) throw tarReadError(failure, options.signal);
}

export interface TarPassOptions {
  signal?: AbortSignal;
  /** Sees every entry before anything is written for it; throws to stop the pass there. */
  check?: (entry: ArchiveEntry) => void;
  /** Members (files, symlinks) to write under the destination. */
  write?: (entry: ArchiveEntry) => boolean;
  /** Members whose bytes to keep in memory (small ones: the version header). */
  keep?: (entry: ArchiveEntry) => boolean;
  onFile?: (name: string, bytes: number) => void;
  /** How far the pass is: compressed bytes read of the file's size (gzip), or tar bytes of the size the xz index declares (0 while unknown). */
  onRead?: (done: number, total: number) => void;
}

export interface TarPassResult {
  entries: ArchiveEntry[];
  /** sha256 of each written file, computed while writing. */
  hashes: Map<string, string>;
  kept: Map<string, Buffer>;
}

const KEEP_MAX = 4 * 1024 * 1024;


const WRITE_BATCH = 1024 * 1024;
const WRITES_AHEAD = 8;

/**
 * A file written under `dest`, never through an existing link (O_EXCL). Pieces are gathered into
 * ~1 MiB positioned writes, several in flight, so decompressing never waits for the disk.
 */
async function fileSink(target: string, onDone: () => void): Promise<TarBodySink> {
  const fh = await openNewFile(target).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST' || (await lstat(target)).isDirectory()) throw error;
    await unlink(target); // a later entry of the same name replaces the earlier one, as tar does
    return openNewFile(target);
  });
  let batch: Buffer[] = [];
  let batched = 0;
  let position = 0;
  const inFlight: Promise<void>[] = [];
  let failed: { error: unknown } | undefined;
  const settle = async (keep: number) => {
    while (inFlight.length > keep) await inFlight.shift();
    if (failed) throw failed.error;
  };
  const flush = async () => {
    await settle(WRITES_AHEAD - 1);
    if (batched === 0) return;
    // Caught at once (a rejection nobody awaits yet would be "unhandled"), thrown at the next settle.
    const expected = batched;
    inFlight.push(
      fh.writev(batch, position).then(
        ({ bytesWritten }) => void (bytesWritten < expected && (failed ??= { error: Object.assign(new Error(cudnnText.shortWrite(target)), { code: 'ENOSPC', syscall: 'write', path: target }) })),
        (error: unknown) => void (failed ??= { error }),
      ),
    );
    position += batched;
    batch = [];
    batched = 0;
  };
  return {
    async write(chunk) {
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH) await flush();
    },
    async end() {
      try {
        await flush();
        await settle(0);
      } finally {
        await fh.close();
      }
      onDone();
    },
    async abandon() {
      await Promise.all(inFlight);
      await fh.close().catch(() => undefined);
    },
  };
}

/**
 * The single pass over a tar: lists every entry, lets `check` refuse it before anything is
 * written for it, writes the wanted members under `dest` (when given), hashes each as soon as it is
 * written (on a worker thread, overlapping the next) and keeps the bytes of the ones asked for.
 */
export async function tarPass(file: string, format: TarFormat, dest: string | undefined, options: TarPassOptions = {}): Promise<TarPassResult> {
  const result: TarPassResult = { entries: [], hashes: new Map(), kept: new Map() };
  const made = new Set<string>();
  const links = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  if (dest) await ensureDir(dest);
  const destReal = dest === undefined ? '' : await realpath(dest);
  const assertInside = async (name: string, target: string) => {
    if (await landsOutside(destReal, target)) throw new ArchiveReadError(cudnnText.writtenOutside(name), 'unsafe-path');
  };
  const visit = async (entry: ArchiveEntry): Promise<TarBodySink | undefined> => {
    options.signal?.throwIfAborted();
    options.check?.(entry);
    result.entries.push(entry);
    const keep = options.keep?.(entry) && entry.type === 'file' && entry.size <= KEEP_MAX;
    const write = dest !== undefined && (entry.type === 'file' || entry.type === 'symlink') && options.write?.(entry);
    if (!keep && !write) return undefined;
    if (write) {
      // Our own guard, whatever `check` allowed: nothing lands outside dest or through a link written before.
      const parts = entry.name.split('/');
      if (!staysInside(entry.name) || parts.some((_, i) => i > 0 && links.has(parts.slice(0, i).join('/'))))
        throw new ArchiveReadError(cudnnText.writtenOutside(entry.name), 'unsafe-path');
    }
    const target = dest === undefined ? '' : path.join(dest, ...entry.name.split('/'));
    if (write) await assertInside(entry.name, target);
    if (write) await ensureDir(path.dirname(target));
    if (write && entry.type === 'symlink') {
      await rm(target, { force: true });
      await makeSymlink(entry.linkTarget ?? '', target);
      links.add(entry.name);
      return undefined;
    }
    const kept: Buffer[] = [];
    // Each hash has its handler from the moment it starts: a file replaced or gone before it is
    // hashed is the archive's failure, reported when the pass ends, never an unhandled rejection.
    const onWritten = () =>
      hashing.push(
        hasher!.hash(target).then(
          (sha) => void result.hashes.set(entry.name, sha),
          (error: unknown) => void (hashFailure ??= new ArchiveReadError(cudnnText.notReadBack(entry.name, (error as Error).message), 'corrupt')),
        ),
      );
    const file = write ? await fileSink(target, onWritten) : undefined;
    return {
      async write(chunk) {
        if (keep) kept.push(Buffer.from(chunk));
        await file?.write(chunk);
      },
      async end() {
        await file?.end();
        if (keep) result.kept.set(entry.name, Buffer.concat(kept));
        if (file) options.onFile?.(entry.name, entry.size);
      },
      abandon: async () => file?.abandon?.(),
    };
  };
  const hasher = dest === undefined ? undefined : startFileHasher();
  const hashing: Promise<void>[] = [];
  let hashFailure: ArchiveReadError | undefined;
  try {
    await decompressTar(file, format, (tar) => readTarStream(tar, visit), options);
    await Promise.all(hashing);
    if (hashFailure) throw hashFailure;
  } finally {
    await Promise.allSettled(hashing);
    await hasher?.close();
  }
  return result;
}

async function readTarMember(file: string, format: TarFormat, member: string): Promise<Buffer | undefined> {
  const { kept } = await tarPass(file, format, undefined, { keep: (e) => e.name === member });
  return kept.get(member);
}

// ---- the API the rest of cudnn/ uses ----

export async function listEntries(file: string, format: ArchiveFormat): Promise<ArchiveEntry[]> {
  if (format === 'zip') return listZip(file);
  return (await tarPass(file, format, undefined)).entries;
}

/** One listed member's bytes (`size` from the listing), without extracting anything else. */
export async function readMember(file: string, format: ArchiveFormat, member: string, size: number, maxBytes = 4 * 1024 * 1024): Promise<Buffer | undefined> {
  if (size > maxBytes) throw new ArchiveReadError(cudnnText.isLargerThan(member, maxBytes), 'unsupported');
  if (format === 'zip') return readZipMember(file, member, maxBytes);
  return readTarMember(file, format, member);
}

export interface ExtractOptions {
  signal?: AbortSignal;
  /** Extract just these member names. */
  only?: Set<string>;
  onFile?: (name: string, bytes: number) => void;
  /** A member that is not a file, folder or link (a hard link, a device file) is not written: it is said here, never dropped silently. */
  onSkipped?: (name: string) => void;
}

/** Extracts into `dest` and returns each file's sha256 (computed while writing). */
export async function extractArchive(file: string, format: ArchiveFormat, dest: string, options: ExtractOptions = {}): Promise<Map<string, string>> {
  if (format === 'zip') return extractZip(file, dest, options);
  const only = options.only;
  const { hashes, entries } = await tarPass(file, format, dest, { signal: options.signal, onFile: options.onFile, write: (e) => !only || only.has(e.name) });
  for (const e of entries) if ((e.type === 'hardlink' || e.type === 'other') && (!only || only.has(e.name))) options.onSkipped?.(e.name);
  return hashes;
}
