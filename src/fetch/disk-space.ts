// How many bytes the user can still write in a directory (statfs: blocks available to non-root).
import { statfs } from 'node:fs/promises';

export type FreeSpaceProbe = (dir: string) => Promise<number>;

export const freeSpace: FreeSpaceProbe = async (dir) => {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
};
