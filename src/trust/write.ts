// The one way cudawiz creates or replaces a file (#37): a name is never opened through a link planted
// at it, a new file is created exclusively (O_EXCL, never someone else's file appended to or
// truncated), a replaced file is written whole to a private temp name beside it and renamed over the
// old name (rename replaces a link, it never writes through one), and modes are set on the open file.
// test/unit/one-way-to-write.test.ts fails on a raw write anywhere else in src/.
import { closeSync, constants, createWriteStream, fchmodSync, fchownSync, fstatSync, mkdtempSync, openSync, renameSync, rmSync, writeSync, type WriteStream } from 'node:fs';
import { chmod, link, mkdir, open, rename, rm, rmdir, symlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redactCredentials } from '../redact.js';
import { ownUid, privateFolder } from './ownership.js';
import { safetyText } from '../i18n/safety.js';

export { privateFolder } from './ownership.js';

export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
const APPEND_OWN = constants.O_WRONLY | constants.O_APPEND | NOFOLLOW;
const UPDATE_OWN = constants.O_RDWR | NOFOLLOW;

const notOurs = (file: string) => Object.assign(new Error(`${file}: not this user's own file`), { code: 'EPERM', syscall: 'open', path: file });

/** A new file (EEXIST when anything, a link included, is at that name already), readable by this user only unless `mode` says more. */
export function createPrivateFile(file: string, mode = 0o600): number {
  const fd = openSync(file, CREATE_NEW, mode);
  if (process.platform !== 'win32') fchmodSync(fd, mode);
  return fd;
}

/**
 * A log the user named (--log FILE): created new, or — run after run — appended to when it is this
 * user's own plain file with one name; a link, someone else's file or a hard link is refused (ELOOP/EPERM).
 */
export function openNamedLog(file: string): number {
  try {
    return createPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const fd = openSync(file, APPEND_OWN);
  const s = fstatSync(fd);
  if (!s.isFile() || (process.platform !== 'win32' && (s.uid !== ownUid() || s.nlink !== 1))) {
    closeSync(fd);
    throw notOurs(file);
  }
  return fd;
}

/** A fresh folder only this user can use, in the temp folder (for a log when the usual place is shared). */
export const freshPrivateFolder = (prefix: string, parent = tmpdir()) => mkdtempSync(path.join(parent, prefix));

/** Appends lines to an open file, credentials redacted; a write error (disk full) is not the run's failure. */
export function lineWriter(fd: number): (line: string) => void {
  return (line) => {
    try {
      writeSync(fd, `${redactCredentials(line)}\n`);
    } catch {
      // the log is a record, not the work
    }
  };
}

/** A new file opened for writing (EEXIST when any entry, a link included, holds the name). */
export async function openNewFile(file: string, mode = 0o644): Promise<FileHandle> {
  const fh = await open(file, CREATE_NEW, mode);
  if (process.platform !== 'win32') await fh.chmod(mode);
  return fh;
}

/** A file cudawiz made earlier (a download's .part), opened to write into: never through a link, never another user's or a hard-linked one. */
export async function openOwnFileForUpdate(file: string): Promise<FileHandle> {
  const fh = await open(file, UPDATE_OWN);
  const s = await fh.stat();
  if (!s.isFile() || (process.platform !== 'win32' && ((s.uid !== ownUid() && s.uid !== 0) || s.nlink !== 1))) {
    await fh.close();
    throw notOurs(file);
  }
  return fh;
}

/** A write stream to a new file (created exclusively, never through a link). */
export function newFileStream(file: string, mode = 0o644): WriteStream {
  return createWriteStream(file, { fd: createPrivateFile(file, mode) });
}

/** A new file with these bytes (EEXIST when the name is taken). */
export async function writeNewFile(file: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const fh = await openNewFile(file, mode);
  try {
    await fh.writeFile(data);
  } catch (error) {
    await fh.close();
    await rm(file, { force: true });
    throw error;
  }
  await fh.close();
}

/** A temp name beside `file` nobody can have planted: random, and created exclusively. */
const tempBeside = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.cudawiz-${randomBytes(6).toString('hex')}.tmp`);

export interface ReplaceOptions {
  mode?: number;
  /** The file being replaced, as it was: its mode and (as root) its owner are given to the new file, so root editing a user's file leaves it theirs. */
  like?: { mode: number; uid: number; gid: number };
  /** Refuse when the folder is not private (a real folder owned by root or this user, writable by no one else). */
  privateDir?: boolean;
}

function assertPrivateDir(file: string, o: ReplaceOptions): void {
  const dir = path.dirname(file);
  if (o.privateDir && !privateFolder(dir)) throw Object.assign(new Error(safetyText.writableByOthers(dir)), { code: 'EPERM', syscall: 'open', path: dir });
}

/** `file` replaced by these bytes, whole or not at all: a private temp file beside it renamed over it. */
export async function replaceFile(file: string, data: string | Uint8Array, o: ReplaceOptions = {}): Promise<void> {
  assertPrivateDir(file, o);
  const tmp = tempBeside(file);
  try {
    const fh = await openNewFile(tmp, o.mode ?? (o.like ? o.like.mode & 0o7777 : 0o644));
    try {
      if (o.like && process.platform !== 'win32' && ownUid() === 0) await fh.chown(o.like.uid, o.like.gid);
      await fh.writeFile(data);
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** replaceFile, synchronously (the venv fix runs in a synchronous path). */
export function replaceFileSync(file: string, data: string | Uint8Array, o: ReplaceOptions = {}): void {
  assertPrivateDir(file, o);
  const tmp = tempBeside(file);
  try {
    const fd = createPrivateFile(tmp, o.mode ?? (o.like ? o.like.mode & 0o7777 : 0o644));
    try {
      if (o.like && process.platform !== 'win32' && ownUid() === 0) fchownSync(fd, o.like.uid, o.like.gid);
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Copies `from` (opened without following a link, a regular file) to the new name `to` (created
 * exclusively); `to` is removed again if the copy fails half-way.
 */
export async function copyToNewFile(from: string, to: string, mode?: number): Promise<void> {
  const src = await open(from, constants.O_RDONLY | NOFOLLOW);
  try {
    const s = await src.stat();
    if (!s.isFile()) throw Object.assign(new Error(`${from}: not a regular file`), { code: 'EINVAL', syscall: 'open', path: from });
    const dst = await openNewFile(to, mode ?? s.mode & 0o777);
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const { bytesRead } = await src.read(buf, 0, buf.length, null);
        if (bytesRead === 0) break;
        await dst.write(buf, 0, bytesRead);
      }
    } catch (error) {
      await dst.close();
      await rm(to, { force: true });
      throw error;
    }
    await dst.close();
  } finally {
    await src.close();
  }
}

/** Copies `from` over `to` whole or not at all (a private temp beside `to`, renamed). */
export async function copyReplacing(from: string, to: string, o: ReplaceOptions = {}): Promise<void> {
  assertPrivateDir(to, o);
  const tmp = tempBeside(to);
  try {
    await copyToNewFile(from, tmp, o.mode);
    await rename(tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    // A write through a handle names no file: a full or read-only disk is said as `to`'s, the name the user knows.
    if (error && typeof error === 'object' && 'code' in error && !('dest' in error)) Object.assign(error, { dest: to });
    throw error;
  }
}

/** The same bytes under a new name, replacing what is there: a hard link where both lie on one disk, else a copy (a temp name nobody could plant, renamed). */
export async function linkOrCopyReplacing(from: string, to: string): Promise<void> {
  const tmp = tempBeside(to);
  try {
    await link(from, tmp).catch(() => copyToNewFile(from, tmp));
    await rename(tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** A file or folder cudawiz made moved to its place (rename replaces a link at `to`, never writes through it). */
export const moveInto = (from: string, to: string): Promise<void> => rename(from, to);

/** moveInto, synchronously. */
export const moveIntoSync = (from: string, to: string): void => renameSync(from, to);

/** A second name for a file cudawiz made (EEXIST when the name is taken): the lock's atomic create, a verified file placed in a bundle. */
export const addName = (existing: string, at: string): Promise<void> => link(existing, at);

/** A symbolic link as an archive or a backup holds it (EEXIST when the name is taken). */
export const makeSymlink = (target: string, at: string): Promise<void> => symlink(target, at);

/**
 * cudawiz's own per-user roots: `cudawiz` directly in ~/.cache, ~/.config or ~/.local/share (the XDG
 * defaults, where env-paths and userToolkitRoot put them). Whatever cudawiz keeps there — downloads,
 * the journal, a toolkit only this user loads — is this user's alone, so such a root is 0700 (#37 item 4).
 */
export function isOwnStateRoot(dir: string): boolean {
  if (path.basename(dir) !== 'cudawiz') return false;
  const parent = path.dirname(dir);
  const name = path.basename(parent);
  return name === '.cache' || name === '.config' || (name === 'share' && path.basename(path.dirname(parent)) === '.local');
}

/**
 * `dir` and the folders above it that are missing, created with `mode`; any of cudawiz's own roots
 * among those just created is made 0700 whatever the umask. Returns the first folder created, if any.
 */
export async function makeFolders(dir: string, mode = 0o755): Promise<string | undefined> {
  const first = await mkdir(dir, { recursive: true, mode });
  if (!first || process.platform === 'win32') return first;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (isOwnStateRoot(d)) await chmod(d, 0o700);
    if (d === path.resolve(first) || path.dirname(d) === d) break;
  }
  if (mode === 0o700) await chmod(dir, 0o700);
  return first;
}

/** Removes `dir` only if it is an empty folder (rmdir: never with anything in it, never through a link); false otherwise. */
export const removeEmptyFolder = (dir: string): Promise<boolean> => rmdir(dir).then(() => true, () => false);
