// Where a plan's files come from, in one place: every catalog download a step makes (the CUDA
// installer, a public cuDNN archive) goes through `fetchFile`, and `fileSource(ctx)` is the one
// parameter that says from where. Today: NVIDIA, through the mirror, into the verified cache; an
// offline bundle (`install --from DIR`) is another FileSource chosen here from the plan's options.
import { fetchVerified, type DownloadTarget, type FetchResult } from '../../fetch/index.js';
import type { PlanContext } from '../context.js';
import type { StepIO } from '../runner.js';

/** Gets one catalog target's file, verified, reporting progress to the step. */
export type FileSource = (ctx: PlanContext, io: StepIO, target: DownloadTarget) => Promise<FetchResult>;

/** NVIDIA's servers (or the mirror), into the cache, checked against the catalog's checksum. */
export const networkSource: FileSource = (ctx, io, target) =>
  fetchVerified({
    url: target.url,
    file: target.file,
    checksum: target.checksum,
    size: target.size,
    cacheDir: ctx.cacheDir,
    mirror: ctx.mirror,
    connections: ctx.connections,
    allowUnverified: ctx.allowUnverified,
    nvidiaOrigin: ctx.host.env.CUDAWIZ_TEST_NVIDIA_ORIGIN,
    onNotice: io.log,
    signal: io.signal,
    onProgress: (p) => io.progress({ bytes: p.bytes, total: p.total ?? undefined, speed: p.speed, eta: p.eta ?? undefined, resumedFrom: p.resumedFrom }),
  });

/** The source this plan's files come from. */
export function fileSource(_ctx: PlanContext): FileSource {
  return networkSource;
}

/** Downloads a catalog target from the plan's source. */
export function fetchFile(ctx: PlanContext, io: StepIO, target: DownloadTarget): Promise<FetchResult> {
  return fileSource(ctx)(ctx, io, target);
}
