// The redist route's own steps: NVIDIA's per-component archives downloaded in parallel (verified,
// each unpacking into staging as it lands), moved into place, and repaired file by file.
import { fileFromBundle } from '../../bundle/source.js';
import { formatBytes, type FetchResult } from '../../fetch/index.js';
import { assertReachable } from '../../fetch/offline.js';
import { bundleText } from '../../i18n/bundle.js';
import { redistText } from '../../i18n/redist.js';
import { releaseArchives } from '../../redist/catalog.js';
import { archiveFileName, beginUnpack, checkRedistToolkit, downloadArchives, repairRedist, type RedistArchiveEntry } from '../../redist/toolkit.js';
import type { RedistPlanContext } from '../context.js';
import type { Step, StepIO } from '../runner.js';
import { offlineAdvice } from './download.js';

export async function toolkitReady(ctx: RedistPlanContext) {
  const check = await checkRedistToolkit(ctx.toolkitDir);
  return check.state === 'complete' && check.manifest?.release === ctx.choice.release.version && check.changed.length === 0;
}

export const redistDownloadStep: Step<RedistPlanContext> = {
  id: 'download-cuda-redist',
  get title() {
    return redistText.stepDownload;
  },
  async check(ctx) {
    if (await toolkitReady(ctx)) return { done: true, reason: redistText.toolkitReady(ctx.choice.release.version, ctx.toolkitDir) };
    if (ctx.bundle) return { done: false, reason: bundleText.archivesFromBundle(ctx.choice.archives, formatBytes(ctx.choice.bytes), ctx.choice.release.version, ctx.bundle.dir) };
    return { done: false, reason: redistText.downloadPlan(ctx.choice.archives, formatBytes(ctx.choice.bytes), ctx.choice.release.version) };
  },
  async run(ctx, io) {
    const check = await checkRedistToolkit(ctx.toolkitDir);
    const { archives } = releaseArchives(ctx.redist, ctx.choice.release, ctx.os);
    // An unpack that stopped half-way needs only the components it had not finished.
    const wanted = check.state === 'unpacking' && check.manifest?.release === ctx.choice.release.version ? archives.filter((a) => check.components.includes(a.component)) : archives;
    // A pipeline: each archive, once downloaded and verified, is extracted into the toolkit's staging
    // folder while the others still download; the unpack step only moves files into place.
    const unpack = await beginUnpack({ catalog: ctx.redist, release: ctx.choice.release, os: ctx.os, toolkitDir: ctx.toolkitDir, builtFor: ctx.choice.builtWith, signal: io.signal });
    let results: Map<string, FetchResult>;
    try {
      results = ctx.bundle ? await archivesFromBundle(ctx, io, wanted, unpack.stage) : await downloadFromNetwork(ctx, io, wanted, (component, r) => unpack.stage(component, r.path));
    } catch (e) {
      await unpack.abandon();
      throw e;
    }
    ctx.unpack = unpack;
    ctx.archiveFiles = new Map([...results].map(([k, v]) => [k, v.path]));
    const bytes = [...results.values()].reduce((n, r) => n + r.bytes, 0);
    return {
      summary: redistText.downloadDone(results.size, formatBytes(bytes), [...results.values()].filter((r) => r.fromCache).length),
      evidence: [...results].map(([id, r]) => `${id}: sha256 ${r.sha256}`),
    };
  },
};

/** The bundle's archives, each copied into the cache while hashed again and staged from that copy: a file swapped in the bundle is refused, never unpacked. */
async function archivesFromBundle(ctx: RedistPlanContext, io: StepIO, wanted: RedistArchiveEntry[], stage: (component: string, file: string) => void): Promise<Map<string, FetchResult>> {
  const results = new Map<string, FetchResult>();
  for (const a of wanted) {
    const r = await fileFromBundle(ctx.bundle!, { file: archiveFileName(a), checksum: { sha256: a.sha256 } }, ctx.cacheDir, io.signal);
    results.set(a.component, r);
    stage(a.component, r.path);
  }
  return results;
}

/** NVIDIA's archives (or the mirror's), in parallel; a host that cannot be reached at all is "you are offline" before any of them. */
async function downloadFromNetwork(ctx: RedistPlanContext, io: StepIO, wanted: RedistArchiveEntry[], onArchive: (component: string, r: FetchResult) => void): Promise<Map<string, FetchResult>> {
  const first = wanted[0];
  if (first) await assertReachable({ url: new URL(first.relative_path, ctx.redist.baseUrl).toString(), file: archiveFileName(first), cacheDir: ctx.cacheDir, mirror: ctx.mirror, signal: io.signal }, offlineAdvice(ctx));
  return downloadArchives({
    catalog: ctx.redist,
    archives: wanted,
    cacheDir: ctx.cacheDir,
    mirror: ctx.mirror,
    connections: ctx.connections,
    signal: io.signal,
    onArchive,
    onProgress: (p) => io.progress({ bytes: p.bytes, total: p.total, speed: p.speed, eta: p.speed > 0 ? Math.max(0, (p.total - p.bytes) / p.speed) : undefined }),
  });
}

export const redistUnpackStep: Step<RedistPlanContext> = {
  id: 'unpack-cuda-redist',
  get title() {
    return redistText.stepUnpack;
  },
  async check(ctx) {
    if (await toolkitReady(ctx)) return { done: true, reason: redistText.toolkitReady(ctx.choice.release.version, ctx.toolkitDir) };
    const check = await checkRedistToolkit(ctx.toolkitDir);
    return { done: false, reason: check.state === 'unpacking' ? redistText.toolkitInterrupted(ctx.toolkitDir) : redistText.unpackPlan(ctx.toolkitDir) };
  },
  async run(ctx, io) {
    const begun = ctx.unpack;
    ctx.unpack = undefined;
    const progress = (p: { files: number }) => io.progress({ bytes: p.files, unit: 'files' });
    let unpack = begun;
    if (!unpack) {
      unpack = await beginUnpack({ catalog: ctx.redist, release: ctx.choice.release, os: ctx.os, toolkitDir: ctx.toolkitDir, builtFor: ctx.choice.builtWith, signal: io.signal });
      for (const [component, archive] of ctx.archiveFiles ?? new Map<string, string>()) unpack.stage(component, archive);
    }
    const m = await unpack.finish(progress);
    const skipped = unpack.skipped.length ? [redistText.skippedMembers(unpack.skipped)] : [];
    return { summary: redistText.unpackDone(m.release, m.files.length, ctx.toolkitDir), evidence: skipped.length ? skipped : undefined };
  },
};


/** Repair: every file against its sha256; only the components that are unfinished or changed are fetched (the cache first) and unpacked again. */
export const redistRepairStep: Step<RedistPlanContext> = {
  id: 'repair-cuda-redist',
  get title() {
    return redistText.stepRepair;
  },
  async check(ctx) {
    const c = await checkRedistToolkit(ctx.toolkitDir);
    return c.state === 'absent' ? { done: true, reason: redistText.noToolkit(ctx.toolkitDir) } : { done: false, reason: redistText.repairPlan(c.manifest?.files.length ?? 0) };
  },
  async run(ctx, io) {
    const r = await repairRedist({
      catalog: ctx.redist,
      release: ctx.choice.release,
      os: ctx.os,
      toolkitDir: ctx.toolkitDir,
      cacheDir: ctx.cacheDir,
      mirror: ctx.mirror,
      connections: ctx.connections,
      signal: io.signal,
      onProgress: (p) => io.progress({ bytes: p.bytes, total: p.total, speed: p.speed }),
    });
    return { summary: redistText.repaired(ctx.toolkitDir, r.refetched), evidence: r.check.changed.slice(0, 6).map((f) => redistText.filesChanged(f)) };
  },
};
