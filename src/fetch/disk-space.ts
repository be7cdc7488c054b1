// How many bytes the user can still write in a directory (statfs: blocks available to non-root).
import { statfs } from 'node:fs/promises';

export type FreeSpaceProbe = (dir: string) => Promise<number>;

export const freeSpace: FreeSpaceProbe = async (dir) => {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
};

/** "2.4 GB", "512 kB": decimal units, as file managers show them. */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${n} B` : `${v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}
