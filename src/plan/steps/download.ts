// Where a plan's files come from, in one place: every catalog download a step makes (the CUDA
// installer, a public cuDNN archive) goes through `fetchFile`, and `fileSource(ctx)` is the one
// parameter that says from where. Today: NVIDIA, through the mirror, into the verified cache; an
// offline bundle (`install --from DIR`) is another FileSource chosen here from the plan's options.
import { FALLBACK_ROUTE } from '../../routes/ids.js';
import { fileFromBundle } from '../../bundle/source.js';
import { fetchVerified, type DownloadTarget, type FetchResult } from '../../fetch/index.js';
import { assertReachable, type OfflineAdvice } from '../../fetch/offline.js';
import { bundleText } from '../../i18n/bundle.js';
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

/** `install --from DIR`: the bundle's own file, copied into the cache while hashed again; never a request to the network. */
export const bundleSource: FileSource = async (ctx, io, target) => {
  const r = await fileFromBundle(ctx.bundle!, target, ctx.cacheDir, io.signal);
  io.log(bundleText.fromBundleReason(target.file, ctx.bundle!.dir));
  return r;
};

/** What an offline machine is told to bundle: this plan's TF, route and OS. */
export function offlineAdvice(ctx: PlanContext): OfflineAdvice {
  return { tf: ctx.tf, route: ctx.route ?? FALLBACK_ROUTE, os: ctx.os };
}

/** The network, but a host that cannot be reached at all is "you are offline" with the bundle to make, at once. */
export const onlineSource: FileSource = async (ctx, io, target) => {
  await assertReachable({ url: target.url, file: target.file, cacheDir: ctx.cacheDir, mirror: ctx.mirror, signal: io.signal }, offlineAdvice(ctx));
  return networkSource(ctx, io, target);
};

/** The source this plan's files come from: the bundle given with --from, else the network. */
export function fileSource(ctx: PlanContext): FileSource {
  return ctx.bundle ? bundleSource : onlineSource;
}

/** Downloads a catalog target from the plan's source. */
export function fetchFile(ctx: PlanContext, io: StepIO, target: DownloadTarget): Promise<FetchResult> {
  return fileSource(ctx)(ctx, io, target);
}
