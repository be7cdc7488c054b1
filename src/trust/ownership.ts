// The one rule for believing a path (#37): a file or folder is trusted only when root or this user owns
// it and no one else can write it — a group write bit counts only where the group is this user's own
// (a umask of 002 makes it so), and a folder's sticky bit (/tmp) keeps others from swapping its entries.
// Every trust decision in cudawiz (bookkeeping, caches, programs it runs, folders root hands to every
// program) asks these functions; nothing else looks at uid or mode bits. Windows keeps ownership in
// ACLs: nothing is checked there (tested as data; see docs/safety.md).
import type { Stats } from 'node:fs';
import { lstatSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { safetyText } from '../i18n/safety.js';

export const ownUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);
export const ownGid = (): number | undefined => (typeof process.getgid === 'function' ? process.getgid() : undefined);
export const checksOwnership = (): boolean => process.platform !== 'win32';

/** Why these stats (of `p`) make it untrustworthy, or undefined: owned by someone but root or this user, or writable by others. */
export function whyNotOurs(p: string, s: Pick<Stats, 'uid' | 'gid' | 'mode'>): string | undefined {
  if (!checksOwnership()) return undefined;
  if (s.uid !== 0 && s.uid !== ownUid()) return safetyText.ownedByOtherUser(p, s.uid);
  // A sticky folder (/tmp) lets others add names, never replace or remove ours: its write bits are no reason.
  const stickyFolder = (s.mode & 0o170000) === 0o040000 && (s.mode & 0o1000) !== 0;
  if (stickyFolder) return undefined;
  if (s.mode & 0o002 || (s.mode & 0o020 && s.gid !== ownGid())) return safetyText.writableByOthers(p);
  return undefined;
}

/**
 * Why `paths` (the first a folder, followed through links; then the bookkeeping in it, never a link)
 * cannot be trusted, or undefined. A path that does not exist is no reason.
 */
export async function untrustedBookkeeping(paths: string[]): Promise<string | undefined> {
  if (!checksOwnership()) return undefined;
  for (const [i, p] of paths.entries()) {
    const at = i === 0 ? await realpath(p).catch(() => p) : p;
    const s = await lstat(at).catch(() => undefined);
    if (!s) continue;
    if (s.isSymbolicLink()) return safetyText.isALink(at);
    const why = whyNotOurs(at, s);
    if (why) return why;
  }
  return undefined;
}

/** Why cudawiz may not write its bookkeeping into `dir` (a folder another user owns), or undefined. */
export async function notOurFolder(dir: string): Promise<string | undefined> {
  if (!checksOwnership()) return undefined;
  const s = await lstat(await realpath(dir).catch(() => dir)).catch(() => undefined);
  if (!s) return undefined;
  if (s.uid !== ownUid()) return safetyText.ownedByOtherUser(dir, s.uid);
  return undefined;
}

/** Can anyone but this user (or root) write this file (followed through links)? */
export async function fileWritableByOthers(file: string): Promise<boolean> {
  if (!checksOwnership()) return false;
  const s = await stat(file).catch(() => undefined);
  return Boolean(s && ((s.uid !== ownUid() && s.uid !== 0) || (s.mode & 0o022) !== 0));
}

/**
 * The first folder from `dir` up to the root that someone other than this user or root could
 * change (owned by another user, or group/world-writable without the sticky bit); undefined when none.
 */
export async function writableByOthers(dir: string): Promise<string | undefined> {
  if (!checksOwnership()) return undefined;
  const uid = ownUid();
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const s = await stat(current).catch(() => undefined);
    if (s) {
      const sticky = (s.mode & 0o1000) !== 0;
      if (s.uid !== uid && s.uid !== 0) return current;
      if ((s.mode & 0o022) !== 0 && !sticky) return current;
    }
    if (path.dirname(current) === current) return undefined;
  }
}

/** Whether a folder is safe to create files in by name: a real folder (not a link) this user or root owns, not writable by others. */
export function privateFolder(dir: string): boolean {
  if (!checksOwnership()) return true;
  const s = (() => {
    try {
      return lstatSync(dir);
    } catch {
      return undefined;
    }
  })();
  return Boolean(s && s.isDirectory() && whyNotOurs(dir, s) === undefined);
}
