// What the plan downloads and how much disk it needs, said before "Go ahead" and checked against the
// free space before the first byte: the CUDA 10.1 runfile alone is about 2.5 GB, and the runfile
// unpacks itself to about three times that before it copies the toolkit in.
import { cliText } from '../../i18n/cli.js';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { scratchSpaceNeeded } from '../../cuda/scratch.js';
import { findArchiveInDownloads } from '../../cudnn/index.js';
import { CudawizError } from '../../errors.js';
import { applyMirror } from '../../fetch/index.js';
import { openResponse } from '../../fetch/http.js';
import { formatBytes, formatSize, formatTotalSize } from '../../format.js';
import { publicCopyUrl } from '../../catalog/archive-facts.js';
import { planText } from '../../i18n/plan.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';

export interface PlanDownload {
  file: string;
  /** Bytes: from the catalog, else the server's Content-Length (a HEAD request); undefined when neither says. */
  size?: number;
  sizeFrom?: 'catalog' | 'server';
}

export interface PlanSpace {
  downloads: PlanDownload[];
  /** Sum of the known download sizes. */
  downloadBytes: number;
  /** Downloads plus the installer's unpacked payload (scratch space). */
  diskBytes: number;
  /** Some size is unknown: the totals are a lower bound. */
  partial: boolean;
  /** Free bytes where the downloads go (the cache), when it can be read. */
  free?: number;
  freeWhere: string;
}

/** The server's Content-Length for a URL, through the mirror; undefined on any failure (offline, no length). */
async function contentLength(url: string, mirror: string | undefined, signal: AbortSignal | undefined): Promise<number | undefined> {
  try {
    // Through the downloader's own redirect rule (HTTPS only, or loopback): a size is asked of no host
    // a download would not be allowed to come from.
    const r = await openResponse(applyMirror(url, mirror), { method: 'HEAD', idleTimeoutMs: 5000, signal });
    r.body.destroy();
    const n = Number(r.headers['content-length']);
    return r.status === 200 && Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

async function freeBytes(dir: string): Promise<number | undefined> {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const s = await statfs(d).catch(() => undefined);
    if (s) return Number(s.bavail) * Number(s.bsize);
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * What this plan will download (only what is not already done) and the disk it needs. `cudaNeeded` /
 * `cudnnNeeded`: whether those steps still have to run (their own checks say).
 */
export async function planSpace(ctx: PlanContext, need: { cuda: boolean; cudnn: boolean }, signal?: AbortSignal): Promise<PlanSpace> {
  const downloads: PlanDownload[] = [];
  let scratch = 0;
  const i = ctx.req.cudaInstaller;
  if (need.cuda && i) {
    const size = i.size ?? (await contentLength(i.url, ctx.mirror, signal));
    downloads.push({ file: i.file, size, sizeFrom: i.size ? 'catalog' : size ? 'server' : undefined });
    if (!i.size && size) (ctx.serverSizes ??= new Map()).set(i.file, size);
    if (size) scratch = scratchSpaceNeeded(size);
  }
  const a = ctx.req.cudnnArchive;
  // A login-gated archive the user brings: its size is what the catalog says, if anything.
  if (need.cudnn && a && !ctx.cudnnArchive && !(await findArchiveInDownloads(ctx.downloadsDir, a.file))) {
    const known = (a as { size?: number }).size;
    const url = publicCopyUrl(a);
    const size = known ?? (url ? await contentLength(url, ctx.mirror, signal) : undefined);
    downloads.push({ file: a.file, size, sizeFrom: known ? 'catalog' : size ? 'server' : undefined });
  }
  const downloadBytes = downloads.reduce((n, d) => n + (d.size ?? 0), 0);
  return {
    downloads,
    downloadBytes,
    diskBytes: downloadBytes + scratch,
    partial: downloads.some((d) => d.size === undefined),
    free: await freeBytes(ctx.cacheDir),
    freeWhere: ctx.cacheDir,
  };
}

/** The totals in one line; `each` adds every file's size (the step's summary, where there is room). */
export function spaceLine(s: PlanSpace, each = false): string {
  const list = each ? cliText.list(s.downloads.map((d) => `${d.file} ${formatSize(d.size)}`)) : '';
  // An unknown size is said ("size unknown", "at least X"), never summed as 0 B.
  const total = formatTotalSize(s.downloads.map((d) => d.size));
  const unknown = s.downloads.some((d) => !d.size);
  const disk = s.diskBytes ? formatBytes(s.diskBytes) : undefined;
  return planText.sizesLine(total + (list ? cliText.inBrackets(list) : ''), disk, s.free === undefined ? '?' : formatBytes(s.free), unknown);
}

const short = (s: PlanSpace) => s.free !== undefined && s.free < s.diskBytes;

function notEnough(s: PlanSpace): CudawizError {
  return new CudawizError(planText.notEnoughSpace(formatBytes(s.diskBytes), formatBytes(s.free ?? 0), s.freeWhere), { code: 'not-enough-space', fix: planText.notEnoughSpaceFix });
}

/** Which downloads this plan still needs: the CUDA installer unless the toolkit is there, cuDNN unless it is in it. */
export type NeedsDownloads = (ctx: PlanContext) => Promise<{ cuda: boolean; cudnn: boolean }>;

export function spaceStep(needs: NeedsDownloads): Step<PlanContext> {
  return {
    id: 'disk-space',
    get title() {
      return planText.stepSpace;
    },
    async check(ctx) {
      const n = await needs(ctx);
      if (!n.cuda && !n.cudnn) return { done: true, reason: planText.nothingToDownload };
      const s = await planSpace(ctx, n);
      if (!short(s)) return { done: false, reason: spaceLine(s) };
      const stop = notEnough(s);
      return { done: false, reason: `${planText.willStop}: ${stop.message}`, stop };
    },
    async run(ctx, io) {
      const s = await planSpace(ctx, await needs(ctx), io.signal);
      if (short(s)) throw notEnough(s);
      return { summary: spaceLine(s, true) };
    },
  };
}
