// The redist route's own steps: NVIDIA's per-component archives downloaded in parallel (verified,
// each unpacking into staging as it lands), moved into place, and repaired file by file.
import { formatBytes } from '../../fetch/index.js';
import { redistText } from '../../i18n/redist.js';
import { releaseArchives } from '../../redist/catalog.js';
import { beginUnpack, checkRedistToolkit, downloadArchives, repairRedist, unpackRedist } from '../../redist/toolkit.js';
import type { RedistPlanContext } from '../context.js';
import type { Step } from '../runner.js';

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
    let results;
    try {
      results = await downloadArchives({
        catalog: ctx.redist,
        archives: wanted,
        cacheDir: ctx.cacheDir,
        mirror: ctx.mirror,
        connections: ctx.connections,
        signal: io.signal,
        onArchive: (component, r) => unpack.stage(component, r.path),
        onProgress: (p) => io.progress({ bytes: p.bytes, total: p.total, speed: p.speed, eta: p.speed > 0 ? Math.max(0, (p.total - p.bytes) / p.speed) : undefined }),
      });
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
    const m = begun ? await begun.finish(progress) : await unpackRedist({
      catalog: ctx.redist,
      release: ctx.choice.release,
      os: ctx.os,
      toolkitDir: ctx.toolkitDir,
      builtFor: ctx.choice.builtWith,
      files: ctx.archiveFiles ?? new Map(),
      signal: io.signal,
      onProgress: progress,
    });
    return { summary: redistText.unpackDone(m.release, m.files.length, ctx.toolkitDir) };
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
