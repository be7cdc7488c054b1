// A bundle's files put where the downloader looks first (the cache), for the steps that fetch through
// a service of their own (the redist repair refetches only the components it finds damaged). Each is
// copied in while it is hashed again, never hard-linked: a link would make the bundle's file — which
// its owner, or anyone who can write it, may change at any time — the cache's own (#37, B4).
import type { OpenBundle } from './check.js';
import { bundleCopy } from './source.js';

export async function seedCache(bundle: OpenBundle, cacheDir: string, only?: (file: string) => boolean): Promise<string[]> {
  const seeded: string[] = [];
  for (const file of bundle.files.keys()) {
    if (only && !only(file)) continue;
    const r = await bundleCopy(bundle, file, cacheDir);
    if (!r.fromCache) seeded.push(file);
  }
  return seeded;
}
