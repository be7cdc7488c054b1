// Reading cuDNN archives: list, read one member, extract. One interface (archive-reader.ts), two
// readers: zips through yauzl (zip-reader.ts); .tgz/.tar.xz through our own streaming tar reader over
// zlib or an `xz -dc` child, in one pass (tar-reader.ts). The format is told by the first bytes.
import { open } from 'node:fs/promises';
import { cudnnText } from '../i18n/cudnn.js';
import { ArchiveReadError, type ArchiveEntry, type ArchiveFormat, type ArchiveReader, type ExtractOptions } from './archive-reader.js';
import { isTar, tarReader } from './tar-reader.js';
import { zipReader } from './zip-reader.js';

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

/** The reader for `format`. */
export function readerFor(format: ArchiveFormat): ArchiveReader {
  return isTar(format) ? tarReader(format) : zipReader;
}

export async function listEntries(file: string, format: ArchiveFormat): Promise<ArchiveEntry[]> {
  return readerFor(format).list(file);
}

/** One listed member's bytes (`size` from the listing), without extracting anything else. */
export async function readMember(file: string, format: ArchiveFormat, member: string, size: number, maxBytes = 4 * 1024 * 1024): Promise<Buffer | undefined> {
  if (size > maxBytes) throw new ArchiveReadError(cudnnText.isLargerThan(member, maxBytes), 'unsupported');
  return readerFor(format).readMember(file, member, maxBytes);
}

/** Extracts into `dest` and returns each file's sha256 (computed while writing). */
export async function extractArchive(file: string, format: ArchiveFormat, dest: string, options: ExtractOptions = {}): Promise<Map<string, string>> {
  return readerFor(format).extract(file, dest, options);
}
