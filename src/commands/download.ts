// `cudawiz download cuda|cudnn --version V`: a verified installer or archive for an offline machine;
// `cudawiz download --tf V [--route R] [--os O] --dest DIR`: a verified bundle of a whole route (src/bundle/),
// the recommended one without --route (download-bundle.ts).
// Progress goes to stderr as an occasional percentage line; stdout gets the result (or one JSON document).
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { osOption, requireString } from '../io/flags.js';
import type { CommandContext } from '../io/context.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import { cudaInstallerTarget, cudnnArchiveTarget, fetchVerified, formatBytes, resolveCacheDir, type DownloadProgress, type DownloadTarget, type FetchResult } from '../fetch/index.js';
import { loginNeededError } from '../fetch/download.js';
import { assertReachable } from '../fetch/offline.js';
import { catalogText } from '../i18n/catalog.js';
import { fetchText, shownSource } from '../i18n/fetch.js';
import { publicCopyUnavailable } from '../catalog/cudnn-choice.js';
import { parseMirror } from '../fetch/mirror.js';
import { bundleText } from '../i18n/bundle.js';
import { cliText } from '../i18n/cli.js';
import { runBundle } from './download-bundle.js';
import { hashOnce } from '../trust/verified-file.js';
import { copyReplacing } from '../trust/write.js';

function connectionsOption(value: unknown): number {
  if (value === undefined) return 4;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new UsageError(fetchText.connectionsRange(String(value)));
  return n;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return fetchText.durationS(s);
  if (s < 3600) return fetchText.durationMS(Math.floor(s / 60), s % 60);
  return fetchText.durationHM(Math.floor(s / 3600), Math.floor((s % 3600) / 60));
}

/** One line per 10 % (or per 10 s when the size is unknown): readable in CI logs, not a flood. */
export function percentReporter(file: string, write: (line: string) => void): (p: DownloadProgress) => void {
  let lastStep = -1;
  let lastAt = 0;
  let announcedResume = false;
  return (p) => {
    if (!announcedResume && p.resumedFrom > 0) {
      announcedResume = true;
      write(fetchText.resuming(file, formatBytes(p.resumedFrom), p.total ? formatBytes(p.total) : undefined));
    }
    const speed = p.speed > 0 ? formatBytes(p.speed) : undefined;
    if (p.total) {
      const step = Math.floor((p.bytes / p.total) * 10);
      if (step <= lastStep) return;
      lastStep = step;
      const eta = p.eta !== undefined && p.bytes < p.total ? duration(p.eta) : undefined;
      write(fetchText.progressLine(file, String(step * 10).padStart(3), formatBytes(p.bytes), formatBytes(p.total), speed, eta));
    } else if (Date.now() - lastAt >= 10_000) {
      lastAt = Date.now();
      write(`  ${file}  ${formatBytes(p.bytes)}${speed ? `, ${speed}/s` : ''}`);
    }
  };
}

/** Copies the verified file to --dest without ever leaving a half-copied file under its real name. */
async function copyToDest(result: FetchResult, file: string, dest: string): Promise<string> {
  await mkdir(dest, { recursive: true });
  const target = path.join(path.resolve(dest), file);
  const existing = await lstat(target).catch(() => undefined);
  if (existing) {
    // Opened once, never through a link: a link at the name is "taken", never hashed through.
    if ((await hashOnce(target).catch(() => undefined))?.sha256 === result.sha256) return target;
    throw new CudawizError(fetchText.destExists(target), { code: 'dest-exists', fix: fetchText.destExistsFix });
  }
  // A private temp name beside it, renamed: a full --dest keeps no half copy, a planted link is never written through.
  await copyReplacing(result.path, target);
  return target;
}

function freeSpaceOverride(value: string | undefined) {
  // A test seam for machines where a tiny tmpfs cannot be mounted; never set by users.
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return async () => Number(value);
}

export async function run(ctx: CommandContext): Promise<number> {
  const kind = ctx.positionals[0];
  if (ctx.values.tf !== undefined) {
    if (kind !== undefined) throw new UsageError(bundleText.kindWithTf, bundleText.destRequiredFix);
    return runBundle(ctx, { connections: connectionsOption(ctx.values.connections), reporter: percentReporter });
  }
  if (kind === undefined) throw new UsageError(cliText.argumentRequired('cudawiz download', 'cuda|cudnn'), `${fetchText.downloadExample}; ${bundleText.needTfOrKind}`);
  if (kind !== 'cuda' && kind !== 'cudnn') {
    throw new UsageError(fetchText.cannotDownload(kind), fetchText.downloadExample);
  }
  const version = requireString(ctx.values, 'version', kind === 'cuda' ? 'cudawiz download cuda --version 10.1' : 'cudawiz download cudnn --version 7.6.5 --cuda 10.1');
  const os = osOption(ctx.values.os, ctx.host.os);
  const connections = connectionsOption(ctx.values.connections);
  const cuda = ctx.values.cuda as string | undefined;
  if (ctx.globals.mirror) parseMirror(ctx.globals.mirror);
  const target: DownloadTarget = kind === 'cuda' ? cudaInstallerTarget(ctx.catalog(), version, os) : cudnnArchiveTarget(ctx.catalog(), version, os, cuda);
  const cacheDir = resolveCacheDir(ctx.globals.cacheDir);
  const { out } = ctx;
  if (!out.json) out.error(fetchText.downloading(target.label, target.file));
  // A host that cannot be reached at all is "you are offline" at once, as install says it, not six retries of a raw network error.
  const again = `cudawiz download ${kind} --version ${version}${cuda ? ` --cuda ${cuda}` : ''} --os ${os}`;
  await assertReachable({ url: target.url, file: target.file, cacheDir, mirror: ctx.globals.mirror, signal: ctx.signal }, { command: again });
  // A public cuDNN copy that cannot be had (404, a mirror without it, other bytes) leaves the login path, exit 3.
  const result = await fetchVerified({
    url: target.url,
    file: target.file,
    checksum: target.checksum,
    size: target.size,
    cacheDir,
    mirror: ctx.globals.mirror,
    connections,
    allowUnverified: Boolean(ctx.values['allow-unverified']),
    signal: ctx.signal,
    onProgress: out.json ? undefined : percentReporter(target.file, (l) => out.error(l)),
    tuning: { freeSpace: freeSpaceOverride(ctx.host.env.CUDAWIZ_TEST_FREE_BYTES) },
    nvidiaOrigin: ctx.host.env.CUDAWIZ_TEST_NVIDIA_ORIGIN,
    onNotice: (line) => out.error(`${out.symbol('info')} ${line}`),
  }).catch((error: unknown) => {
    if (kind !== 'cudnn' || ctx.signal.aborted || !publicCopyUnavailable(error)) throw error;
    const page = ctx.catalog().cudnn.archivePage;
    throw new CudawizError(fetchText.aboutTarget(target.label, catalogText.cudnnFallback(target.file, (error as Error).message.split('\n')[0])), {
      code: 'login-required',
      exitCode: EXIT.needsUser,
      fix: loginNeededError(target.label, target.file, page).fix,
      details: { page, file: target.file },
    });
  });
  const dest = ctx.values.dest as string | undefined;
  const file = dest ? await copyToDest(result, target.file, dest) : result.path;
  if (out.json) {
    out.writeJson({ file, bytes: result.bytes, sha256: result.sha256, md5: result.md5, source: result.source, url: result.url, fromCache: result.fromCache, resumedFrom: result.resumedFrom, seconds: result.seconds, cached: result.path });
    return EXIT.ok;
  }
  const source = result.source === null ? null : shownSource(result.source);
  out.line(`${out.symbol(result.source ? 'pass' : 'warn')} ${target.file}  ${fetchText.resultSummary(formatBytes(result.bytes), source, result.fromCache)}`);
  out.line(`  ${file}`);
  out.line(out.dim(`  sha256 ${result.sha256}`));
  return EXIT.ok;
}
