// makeBundle: every file one route needs for one TF on one OS, into one folder to carry to an offline
// machine. Each file comes through fetchVerified (the cache first, resumable, checked against its
// sha256 or NVIDIA's checksum as it arrives) and is then linked or copied in under its own name; the
// manifest is written before the first file and after each one, so a re-run completes an
// interrupted bundle. A login-gated cuDNN archive is named with its page; the bundle stays
// incomplete until the user places it there, and a re-run checks it.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { publicCopyUnavailable } from '../catalog/cudnn-choice.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import { fetchVerified, type DownloadProgress, type FetchResult } from '../fetch/index.js';
import { assertReachable } from '../fetch/offline.js';
import { bundleText } from '../i18n/bundle.js';
import type { OsName } from '../platform.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { BUNDLE_FORMAT, entryFor, readBundleManifest, writeBundleManifest, type BundleFileEntry, type BundleManifest } from './manifest.js';
import { routeFiles, type RouteFile, type RouteId } from '../routes/index.js';
import { hashOnce } from '../trust/verified-file.js';
import { linkOrCopyReplacing } from '../trust/write.js';

export interface MakeBundleOptions {
  catalog: Catalog;
  redist: RedistCatalog;
  tf: string;
  os: OsName;
  route: RouteId;
  dest: string;
  cacheDir: string;
  /** cudawiz's version, written into the manifest. */
  version: string;
  mirror?: string;
  connections?: number;
  allowUnverified?: boolean;
  nvidiaOrigin?: string;
  signal?: AbortSignal;
  onFile?: (event: BundleFileEvent) => void;
  onProgress?: (file: RouteFile, p: DownloadProgress) => void;
  onNotice?: (line: string) => void;
}

export type BundleFileEvent =
  | { type: 'start'; file: RouteFile }
  /** Already in the bundle with the right bytes. */
  | { type: 'present'; file: RouteFile; sha256: string; bytes: number }
  | { type: 'done'; file: RouteFile; result: FetchResult }
  /** Login-gated (or its public copy failed): the user places it; `reason` says why when it is there but wrong. */
  | { type: 'needs-user'; file: RouteFile; page: string; reason?: string };

export interface MadeBundle {
  dir: string;
  manifest: BundleManifest;
  /** Files the user still has to place (login-gated cuDNN), with their pages. */
  missing: { file: string; page: string; reason?: string }[];
}

/** Same bytes under the bundle's name: a hard link when the cache is on the same disk, else a copy (never half a file under the real name, never through a link planted at a temp name). */
const placeInBundle = linkOrCopyReplacing;

/** A file already in the bundle with the bytes it should have: the catalog's sha256, else the one an earlier run recorded. */
async function alreadyThere(target: string, expected: string | undefined): Promise<{ sha256: string; bytes: number } | 'wrong' | undefined> {
  // Opened once, never through a link: a link placed in the bundle is not followed, it is replaced.
  const d = await hashOnce(target).catch(() => undefined);
  if (!d) return undefined;
  if (expected && d.sha256 !== expected) return 'wrong';
  return expected ? { sha256: d.sha256, bytes: d.bytes } : undefined;
}

export async function makeBundle(o: MakeBundleOptions): Promise<MadeBundle> {
  const rf = routeFiles(o.catalog, o.redist, o.tf, o.os, o.route);
  if (!rf.available) throw new UsageError(rf.reason ?? '', rf.fix);
  if (o.route === 'pip') throw new UsageError(bundleText.pipNotBundled(rf.pip?.requirement ?? o.tf), bundleText.pipNotBundledFix(rf.pip?.requirement ?? o.tf));
  const dir = path.resolve(o.dest);
  await mkdir(dir, { recursive: true });
  const prior = await readBundleManifest(dir);
  const before = prior.manifest;
  if (before && (before.os !== o.os || before.route !== o.route || before.tensorflow !== o.tf || (before.cuda && before.cuda !== rf.cuda))) {
    throw new CudawizError(bundleText.destHoldsOther(dir, before.tensorflow, before.route, before.os), { code: 'bundle-dest-other', exitCode: EXIT.usage, fix: bundleText.destHoldsOtherFix });
  }
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    cudawiz: o.version,
    tensorflow: o.tf,
    route: o.route,
    os: o.os,
    ...(rf.cuda ? { cuda: rf.cuda } : {}),
    ...(rf.cudnn ? { cudnn: rf.cudnn } : {}),
    complete: false,
    created: before?.created ?? new Date().toISOString(),
    files: rf.files.map((f) => entryFor(f, before?.files.find((e) => e.file === f.file && e.present))),
  };
  await writeBundleManifest(dir, manifest);
  const missing: MadeBundle['missing'] = [];
  let reachable = false;
  const record = async (entry: BundleFileEntry, sha256: string, bytes: number) => {
    entry.sha256 = sha256;
    entry.size = bytes;
    entry.present = true;
    await writeBundleManifest(dir, manifest);
  };
  for (const f of rf.files) {
    const entry = manifest.files.find((e) => e.file === f.file)!;
    const target = path.join(dir, f.file);
    // The catalog's sha256, else what an earlier run verified and recorded.
    const expected = f.sha256 ?? (entry.present ? entry.sha256 : undefined);
    const there = await alreadyThere(target, expected);
    if (there && there !== 'wrong') {
      await record(entry, there.sha256, there.bytes);
      o.onFile?.({ type: 'present', file: f, ...there });
      continue;
    }
    entry.present = false;
    const page = f.page ?? o.catalog.cudnn.archivePage;
    if (f.access === 'login') {
      const reason = there === 'wrong' ? bundleText.placedWrong(f.file, f.sha256 ?? '') : undefined;
      missing.push({ file: f.file, page, reason });
      o.onFile?.({ type: 'needs-user', file: f, page, reason });
      continue;
    }
    o.onFile?.({ type: 'start', file: f });
    let result: FetchResult;
    try {
      // A host that cannot be reached at all is "you are offline" at once, as install says it; asked until one answer shows it is there.
      reachable ||= await assertReachable({ url: f.url!, file: f.file, cacheDir: o.cacheDir, mirror: o.mirror, signal: o.signal }, { tf: o.tf, route: o.route, os: o.os });
      result = await fetchVerified({
        url: f.url!,
        file: f.file,
        checksum: f.checksum,
        size: f.size,
        cacheDir: o.cacheDir,
        mirror: o.mirror,
        connections: o.connections,
        allowUnverified: o.allowUnverified,
        nvidiaOrigin: o.nvidiaOrigin,
        signal: o.signal,
        onNotice: o.onNotice,
        onProgress: o.onProgress && ((p) => o.onProgress!(f, p)),
      });
    } catch (error) {
      // A public cuDNN copy that cannot be had leaves the login path: the user places the file.
      if (f.kind !== 'cudnn' || o.signal?.aborted || !publicCopyUnavailable(error)) {
        await writeBundleManifest(dir, manifest);
        throw error;
      }
      const reason = there === 'wrong' ? bundleText.placedWrong(f.file, f.sha256 ?? '') : (error as Error).message.split('\n')[0];
      missing.push({ file: f.file, page, reason });
      o.onFile?.({ type: 'needs-user', file: f, page, reason });
      continue;
    }
    await placeInBundle(result.path, target);
    await record(entry, result.sha256, result.bytes);
    o.onFile?.({ type: 'done', file: f, result });
  }
  manifest.complete = manifest.files.every((e) => e.present);
  await writeBundleManifest(dir, manifest);
  return { dir, manifest, missing };
}
