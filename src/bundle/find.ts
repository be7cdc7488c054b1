// Bundles already on this machine: the folder given, or any folder directly in Downloads (or
// Downloads itself) that holds a cudawiz-bundle.json. What the wizard offers as "Use a downloaded
// bundle"; each is only read here, and checked in full when it is used.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readBundleManifest, type BundleManifest } from './manifest.js';

export interface FoundBundle {
  dir: string;
  manifest: BundleManifest;
}

export async function findBundles(downloadsDir: string, os?: string): Promise<FoundBundle[]> {
  const dirs = [downloadsDir, ...(await readdir(downloadsDir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => path.join(downloadsDir, e.name))];
  const found: FoundBundle[] = [];
  for (const dir of dirs) {
    const { manifest } = await readBundleManifest(dir);
    if (manifest && (!os || manifest.os === os)) found.push({ dir, manifest });
  }
  return found;
}
