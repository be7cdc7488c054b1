// The bundle manifest: what a bundle is for (TensorFlow version, route, OS, the CUDA and cuDNN it
// installs), each file with its size and sha256, whether it is complete, and which cudawiz made it.
// Written before the first download (incomplete) and after every file, so an interrupted bundle says
// what it still lacks.
import { readBookkeeping } from '../trust/bookkeeping.js';
import { untrustedBookkeeping } from '../trust/ownership.js';
import path from 'node:path';
import * as z from 'zod';
import { ROUTE_IDS, type RouteId } from '../routes/ids.js';
import type { RouteFile } from '../routes/files.js';
import { bundleText } from '../i18n/bundle.js';
import { replaceFile } from '../trust/write.js';

export const BUNDLE_MANIFEST = 'cudawiz-bundle.json';
export const BUNDLE_FORMAT = 1;

const fileSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['installer', 'cudnn', 'redist', 'pip']),
  /** A bare name: the file lies at the bundle's top level. */
  file: z.string().min(1).refine((f) => f === path.posix.basename(f) && f === path.win32.basename(f) && f !== '.' && f !== '..'),
  /** Set once the file is in the bundle (the bytes' own, after verification). */
  size: z.number().int().nonnegative().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  access: z.enum(['public', 'login']),
  /** Where to get a login-gated file. */
  page: z.string().optional(),
  present: z.boolean(),
});

const manifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  cudawiz: z.string(),
  tensorflow: z.string().min(1),
  route: z.enum(ROUTE_IDS),
  os: z.enum(['linux', 'windows']),
  /** The CUDA release it installs (the installer's, or the redist release, which install --from keeps). */
  cuda: z.string().optional(),
  cudnn: z.string().optional(),
  complete: z.boolean(),
  created: z.string(),
  files: z.array(fileSchema),
});

export type BundleManifest = z.infer<typeof manifestSchema>;
export type BundleFileEntry = z.infer<typeof fileSchema>;

export const manifestPath = (dir: string) => path.join(dir, BUNDLE_MANIFEST);

/**
 * The manifest in `dir`: undefined when there is none, `invalid` when it is not one cudawiz wrote (a link,
 * not a file, too large, not its shape). Read once, never through a link (src/trust/bookkeeping.ts); a
 * bundle others own or can write is read too (its files are each hashed again), `untrusted` says why.
 */
export async function readBundleManifest(dir: string): Promise<{ manifest?: BundleManifest; invalid?: string; untrusted?: string }> {
  const read = await readBookkeeping(manifestPath(dir), [dir], { anyOwner: true });
  if ('missing' in read) return {};
  if ('untrusted' in read) return { invalid: read.untrusted };
  if ('unreadable' in read) return { invalid: read.unreadable };
  const untrusted = await untrustedBookkeeping([dir, manifestPath(dir)]);
  try {
    const r = manifestSchema.safeParse(JSON.parse(read.text));
    // A parse error's own words can quote the file's bytes: only the position is said.
    return r.success ? { manifest: r.data, ...(untrusted ? { untrusted } : {}) } : { invalid: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  } catch {
    return { invalid: bundleText.notJson };
  }
}

/** Written whole to a private temp name and renamed over it: a crash leaves the old manifest or the new one, and a link planted at either name is never written through. */
export async function writeBundleManifest(dir: string, manifest: BundleManifest): Promise<void> {
  await replaceFile(manifestPath(dir), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function entryFor(f: RouteFile, previous?: BundleFileEntry): BundleFileEntry {
  return {
    id: f.id,
    kind: f.kind,
    file: f.file,
    ...(previous?.size !== undefined ? { size: previous.size } : f.size !== undefined ? { size: f.size } : {}),
    ...(previous?.sha256 ? { sha256: previous.sha256 } : f.sha256 ? { sha256: f.sha256 } : {}),
    access: f.access,
    ...(f.page ? { page: f.page } : {}),
    present: previous?.present ?? false,
  };
}

export type { RouteId };
