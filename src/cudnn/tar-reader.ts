// The tar reader: .tgz through zlib, .tar.xz through an `xz -dc` child, both into our own streaming
// tar reader (tar-stream.ts) in one pass that lists, keeps small members and writes files as it goes.
import type { ChildProcessByStdio } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, realpath, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { CudawizError } from '../errors.js';
import { cudnnText } from '../i18n/cudnn.js';
import { spawnProgram } from '../trust/run.js';
import { makeSymlink, openNewFile } from '../trust/write.js';
import { ArchiveReadError, staysInside, type ArchiveEntry, type ArchiveFormat, type ArchiveReader } from './archive-reader.js';
import { startFileHasher } from './file-hasher.js';
import { landsOutside } from './member-paths.js';
import { readTarStream, TarFormatError, type TarBodySink } from './tar-stream.js';

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

/** The tar reader of one compression (.tar.gz or .tar.xz). */
export function tarReader(format: TarFormat): ArchiveReader {
  return {
    list: async (file) => (await tarPass(file, format, undefined)).entries,
    readMember: (file, member) => readTarMember(file, format, member),
    async extract(file, dest, options) {
      const only = options.only;
      const { hashes, entries } = await tarPass(file, format, dest, { signal: options.signal, onFile: options.onFile, write: (e) => !only || only.has(e.name) });
      for (const e of entries) if ((e.type === 'hardlink' || e.type === 'other') && (!only || only.has(e.name))) options.onSkipped?.(e.name);
      return hashes;
    },
  };
}
