// A bundle's files put where the downloader looks first (the cache), for the steps that fetch through
// a service of their own (the redist repair refetches only the components it finds damaged): a hard
// link where the bundle and the cache share a disk, else a copy; never half a file under the real
// name. The downloader then checks each against its sha256 before it is used, as any cached file.
import { access, copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import { cachePaths } from '../fetch/cache-paths.js';
import type { OpenBundle } from './check.js';

export async function seedCache(bundle: OpenBundle, cacheDir: string, only?: (file: string) => boolean): Promise<string[]> {
  const seeded: string[] = [];
  for (const [file, f] of bundle.files) {
    if (only && !only(file)) continue;
    const paths = cachePaths(cacheDir, file);
    if (await access(paths.final).then(() => true, () => false)) continue;
    await mkdir(paths.dir, { recursive: true });
    const tmp = `${paths.final}.cudawiz-seed`;
    await rm(tmp, { force: true });
    await link(f.path, tmp).catch(() => copyFile(f.path, tmp));
    await rename(tmp, paths.final);
    seeded.push(file);
  }
  return seeded;
}
