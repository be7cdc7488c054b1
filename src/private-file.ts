// Files cudawiz writes outside a toolkit where others may be able to plant things (the run log under
// a shared --cache-dir, --log FILE, the crash report in the temp folder): opened without following a
// link at the last component, created exclusively (never appended to someone else's file), mode 0600.
import { constants, fstatSync, openSync, closeSync, writeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redactCredentials } from './redact.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
const APPEND_OWN = constants.O_WRONLY | constants.O_APPEND | NOFOLLOW;

const ownUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** A new file (EEXIST when anything, a link included, is at that name already), readable by this user only. */
export function createPrivateFile(file: string): number {
  return openSync(file, CREATE_NEW, 0o600);
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
    throw Object.assign(new Error(`${file}: not this user's own file`), { code: 'EPERM', syscall: 'open', path: file });
  }
  return fd;
}

/** Whether a folder is safe to create files in by name (the one trust rule, src/trust/ownership.ts). */
export { privateFolder } from './trust/ownership.js';

/** A fresh folder only this user can use, in the temp folder (for a log when the usual place is shared). */
export const freshPrivateFolder = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

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
