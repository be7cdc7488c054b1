// The one way to believe a bookkeeping file (#37.4): the environment journal, a toolkit's cuDNN
// manifest, a redist toolkit's redist.json, a venv's wheel-fix record, a bundle's manifest. Each is
// read once, opened without following a link, a regular file, owned by root or this user and writable
// by no one else, its folders too (src/trust/ownership.ts decides that, nothing here looks at bits) —
// the checks made on the open file itself, so nothing can be swapped between the check and the read.
// cudawiz's own state (~/.config/cudawiz and the like) is written 0600 in a 0700 folder, so no other
// user reads a line of it. What is read is then checked against the shape cudawiz writes by its
// reader; the fields that decide a path are derived from where the file was found, never read.
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { isOwnStateRoot, removeEmptyFolder, replaceFile } from './write.js';
import { safetyText } from '../i18n/safety.js';
import { checksOwnership, ownUid, untrustedBookkeeping, whyNotOurs } from './ownership.js';

/** cudawiz's own state files: only their user reads them. */
export const STATE_FILE_MODE = 0o600;
/** ... in folders only their user enters. */
export const STATE_DIR_MODE = 0o700;
/** No bookkeeping cudawiz writes comes near this: a larger file is not one of them. */
export const BOOKKEEPING_MAX_BYTES = 32 * 1024 * 1024;

export type Believed = { text: string } | { missing: true } | { untrusted: string } | { unreadable: string };

export const sha256Text = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/**
 * Reads `file` if it can be believed: `folders` (outermost first; the first followed through links,
 * the rest never links) and the file itself owned by root or this user and writable by no one else.
 * The file is opened with O_NOFOLLOW and judged by the open descriptor's own stats. `anyOwner`: a file
 * that only describes other files, each verified by its own hash (a bundle's manifest on a stick someone
 * else owns): still one read, never a link, a regular file of a sane size; the caller names its owner.
 */
export async function readBookkeeping(file: string, folders: string[], options: { anyOwner?: boolean } = {}): Promise<Believed> {
  if (!(await lstat(file).then(() => true, () => false))) return { missing: true };
  const why = options.anyOwner ? undefined : await untrustedBookkeeping(folders);
  if (why) return { untrusted: why };
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (process.platform === 'win32' ? 0 : constants.O_NOFOLLOW | constants.O_NONBLOCK));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { missing: true };
    if (code === 'ELOOP') return { untrusted: safetyText.isALink(file) };
    return { unreadable: code ?? (error as Error).message };
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) return { untrusted: safetyText.notAFile(file) };
    const notOurs = options.anyOwner ? undefined : whyNotOurs(file, s);
    if (notOurs) return { untrusted: notOurs };
    if (s.size > BOOKKEEPING_MAX_BYTES) return { unreadable: safetyText.tooLarge(s.size) };
    return { text: await handle.readFile('utf8') };
  } catch (error) {
    return { unreadable: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    await handle.close();
  }
}

/**
 * Makes cudawiz's own state folder (the last one only; the ones above are the user's) 0700, owned
 * by this user. Refuses (returns why) a folder that is a link or another user's.
 */
export async function ownStateFolder(dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: STATE_DIR_MODE });
  const s = await lstat(dir);
  if (s.isSymbolicLink()) return safetyText.isALink(dir);
  if (!checksOwnership()) return undefined;
  if (s.uid !== ownUid() && s.uid !== 0) return safetyText.ownedByOtherUser(dir, s.uid);
  if ((s.mode & 0o7777) !== STATE_DIR_MODE) await chmod(dir, STATE_DIR_MODE);
  return undefined;
}

/**
 * Writes one of cudawiz's bookkeeping files whole: a new private temp file (exclusive create, so never
 * through a planted link) renamed over the name, which replaces a link there rather than following it.
 */
export async function writeBookkeeping(file: string, text: string, mode = STATE_FILE_MODE): Promise<void> {
  await replaceFile(file, text, { mode });
}

/** Writes a state file under cudawiz's own folder: the folder 0700, the file 0600. */
export async function writeOwnState(file: string, text: string): Promise<void> {
  const why = await ownStateFolder(path.dirname(file));
  if (why) throw new Error(why);
  await writeBookkeeping(file, text, STATE_FILE_MODE);
}

/**
 * A bookkeeping file with nothing left in it goes, so rollback leaves no empty record behind; so does
 * cudawiz's own state folder it was in (~/.config/cudawiz) once nothing else is there (rmdir: never
 * with anything in it).
 */
export async function removeBookkeeping(file: string): Promise<void> {
  await rm(file, { force: true });
  const dir = path.dirname(file);
  if (isOwnStateRoot(dir)) await removeEmptyFolder(dir);
}
