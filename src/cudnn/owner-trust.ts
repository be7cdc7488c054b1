// Whether cudawiz's own bookkeeping (a redist toolkit's .cudawiz/redist.json, a cuDNN manifest) can
// be trusted before it is acted on, and whether a folder is ours to write bookkeeping into. A file
// someone else could have written would hand them what cudawiz does with it (as root: everything).
import { lstat, realpath } from 'node:fs/promises';
import { safetyText } from '../i18n/safety.js';

const ownUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);
const ownGid = () => (typeof process.getgid === 'function' ? process.getgid() : undefined);

/**
 * Why `paths` (the toolkit folder first, then its bookkeeping) cannot be trusted, or undefined:
 * each present one must be owned by root or this user, and writable by nobody else (a group write
 * bit counts only where the group is this user's own, as a umask of 002 makes it); the bookkeeping
 * (all but the first) must not be a link. Windows keeps ownership in ACLs: nothing is checked there.
 */
export async function untrustedBookkeeping(paths: string[]): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  const uid = ownUid();
  for (const [i, p] of paths.entries()) {
    const at = i === 0 ? await realpath(p).catch(() => p) : p;
    const s = await lstat(at).catch(() => undefined);
    if (!s) continue;
    if (s.isSymbolicLink()) return safetyText.isALink(at);
    if (s.uid !== 0 && s.uid !== uid) return safetyText.ownedByOtherUser(at, s.uid);
    if (s.mode & 0o002 || (s.mode & 0o020 && s.gid !== ownGid())) return safetyText.writableByOthers(at);
  }
  return undefined;
}

/** Why cudawiz may not write its bookkeeping into `dir` (a folder another user owns), or undefined. */
export async function notOurFolder(dir: string): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
  const s = await lstat(await realpath(dir).catch(() => dir)).catch(() => undefined);
  if (!s) return undefined;
  if (s.uid !== ownUid()) return safetyText.ownedByOtherUser(dir, s.uid);
  return undefined;
}
