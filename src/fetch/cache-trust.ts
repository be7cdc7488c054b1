// Whether a folder's contents are ours alone: a proof in a cache that another user can write proves
// nothing, and an installer must not run from a folder anyone else can swap it in.
import { stat } from 'node:fs/promises';
import path from 'node:path';

const ownUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Can anyone but this user (or root) write this file? */
export async function fileWritableByOthers(file: string): Promise<boolean> {
  if (process.platform === 'win32') return false;
  const s = await stat(file).catch(() => undefined);
  return Boolean(s && ((s.uid !== ownUid() && s.uid !== 0) || (s.mode & 0o022) !== 0));
}

/**
 * The first folder from `dir` up to the root that someone other than this user or root could
 * change (owned by another user, or group/world-writable without the sticky bit); undefined when none.
 */
export async function writableByOthers(dir: string): Promise<string | undefined> {
  if (process.platform === 'win32') return undefined;
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
