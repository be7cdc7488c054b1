// The zip reader (yauzl): list, read one member, extract with a CRC check of every member.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { isFsError } from '../fs-errors.js';
import { cudnnText } from '../i18n/cudnn.js';
import { newFileStream } from '../trust/write.js';
import { ArchiveReadError, cleanName, staysInside, type ArchiveEntry, type ArchiveReader, type ExtractOptions } from './archive-reader.js';
import { landsOutside } from './member-paths.js';

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

export const zipReader: ArchiveReader = { list: listZip, readMember: readZipMember, extract: extractZip };
