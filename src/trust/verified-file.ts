// Verified bytes are the bytes used (#37): a file from a bundle, a mirror or --cudnn-archive is opened
// once — never through a link, only a regular file, its size compared before a byte is hashed — and
// copied into a private place while it is hashed; only that copy is unpacked or copied on. Checking a
// path and then reading the path again would let anyone who can write it swap the bytes in between.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { verifiedText } from '../i18n/verified.js';
import { fileWritableByOthers, writableByOthers } from './ownership.js';
import { NOFOLLOW, openNewFile } from './write.js';

export interface Expected {
  size?: number;
  sha256?: string;
  md5?: string;
}

export interface VerifiedBytes {
  bytes: number;
  sha256: string;
  md5: string;
}

export type VerifyProblem = 'link' | 'not-a-file' | 'size' | 'digest' | 'unreadable';

/** Why a file was not taken; `message` names the file and the reason in the user's language. */
export class VerifyFailure extends Error {
  constructor(
    readonly problem: VerifyProblem,
    message: string,
    readonly got?: VerifiedBytes,
  ) {
    super(message);
  }
}

// O_NONBLOCK: a FIFO planted at the name must not hang the open; it is refused as not a regular file.
const READ_ONCE = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);

/** The file opened once: a link or anything but a regular file refused, its size checked before any read. */
async function openChecked(file: string, want: Expected): Promise<{ fh: FileHandle; size: number }> {
  let fh: FileHandle;
  try {
    fh = await open(file, READ_ONCE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: a link at the last component under O_NOFOLLOW (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') throw new VerifyFailure('link', verifiedText.isALink(file));
    throw new VerifyFailure('unreadable', verifiedText.unreadable(file, code ?? (error as Error).message));
  }
  const s = await fh.stat();
  if (!s.isFile()) {
    await fh.close();
    throw new VerifyFailure('not-a-file', verifiedText.notAFile(file));
  }
  if (want.size !== undefined && s.size !== want.size) {
    await fh.close();
    throw new VerifyFailure('size', verifiedText.wrongSize(file, s.size, want.size));
  }
  return { fh, size: s.size };
}

function compare(file: string, want: Expected, got: VerifiedBytes): void {
  if (want.size !== undefined && got.bytes !== want.size) throw new VerifyFailure('size', verifiedText.wrongSize(file, got.bytes, want.size), got);
  if (want.sha256 && got.sha256 !== want.sha256.toLowerCase()) throw new VerifyFailure('digest', verifiedText.wrongDigest(file, 'sha256', want.sha256, got.sha256), got);
  if (want.md5 && got.md5 !== want.md5.toLowerCase()) throw new VerifyFailure('digest', verifiedText.wrongDigest(file, 'md5', want.md5, got.md5), got);
}

/** Reads the open file to its end, hashing, and hands every piece to `sink`. */
async function readThrough(fh: FileHandle, sink?: (piece: Buffer) => Promise<void>, signal?: AbortSignal): Promise<VerifiedBytes> {
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  const buf = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await fh.read(buf, 0, buf.length, bytes);
    if (bytesRead === 0) break;
    const piece = buf.subarray(0, bytesRead);
    sha256.update(piece);
    md5.update(piece);
    if (sink) await sink(piece);
    bytes += bytesRead;
  }
  return { bytes, sha256: sha256.digest('hex'), md5: md5.digest('hex') };
}

/** The file's digests, read once through one descriptor (nothing is copied): for a check that uses no bytes after it. */
export async function hashOnce(file: string, want: Expected = {}, signal?: AbortSignal): Promise<VerifiedBytes> {
  const { fh } = await openChecked(file, want);
  try {
    const got = await readThrough(fh, undefined, signal);
    compare(file, want, got);
    return got;
  } finally {
    await fh.close();
  }
}

/**
 * `source` copied to the new file `to` (created exclusively, in a folder the caller made private)
 * while it is hashed; the copy is removed again unless its bytes are the expected ones.
 */
export async function copyVerified(source: string, to: string, want: Expected = {}, o: { mode?: number; signal?: AbortSignal } = {}): Promise<VerifiedBytes> {
  const { fh } = await openChecked(source, want);
  try {
    const out = await openNewFile(to, o.mode ?? 0o644);
    let got: VerifiedBytes;
    try {
      got = await readThrough(fh, async (piece) => void (await out.write(piece)), o.signal);
      await out.close();
      compare(source, want, got);
    } catch (error) {
      await out.close().catch(() => undefined);
      await rm(to, { force: true });
      throw error;
    }
    return got;
  } finally {
    await fh.close();
  }
}

/** A fresh folder only this user can use, under `parent` (made by mkdtemp: mode 0700, a name nobody could plant). */
export const privateScratch = (parent: string, prefix = '.cudawiz-verified-') => mkdtemp(path.join(parent, prefix));

/** A private copy of `source` in a fresh scratch folder under `parent`, under its own base name; `done()` removes it. */
export async function privateCopy(source: string, parent: string, want: Expected = {}, o: { signal?: AbortSignal } = {}): Promise<VerifiedBytes & { path: string; done: () => Promise<void> }> {
  const dir = await privateScratch(parent);
  const done = () => rm(dir, { recursive: true, force: true });
  const to = path.join(dir, path.basename(source));
  try {
    const got = await copyVerified(source, to, want, { mode: 0o600, signal: o.signal });
    return { ...got, path: to, done };
  } catch (error) {
    await done();
    throw error;
  }
}

/** Why a file (or the folder it lies in, up to /) is not the user's alone, or undefined: named in the plan (B3), never grounds to link it. */
export async function othersCanChange(file: string): Promise<string | undefined> {
  if (await fileWritableByOthers(file)) return file;
  return writableByOthers(path.dirname(file));
}
