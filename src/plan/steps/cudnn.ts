// cuDNN, once for every toolkit route: found in the toolkit already, else the archive (the user's,
// one in Downloads, or the public copy from the plan's file source, else asked for), then copied in
// with a manifest that repair and rollback read.
import { access, readFile, readdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleCopy } from '../../bundle/source.js';
import { privateCopy, VerifyFailure } from '../../trust/verified-file.js';
import { writableByOthers } from '../../trust/ownership.js';
import { makeFolders } from '../../trust/write.js';
import { cudnnPlanReason, publicCopyUnavailable } from '../../catalog/cudnn-choice.js';
import { findArchiveInDownloads, importCudnn, isDownloadOf, importState, parseCudnnVersionHeader, rollbackImport } from '../../cudnn/index.js';
import { CudawizError, EXIT } from '../../errors.js';
import { cudnnArchiveTarget } from '../../fetch/index.js';
import { catalogText } from '../../i18n/catalog.js';
import { cudnnText } from '../../i18n/cudnn.js';
import { stepsText } from '../../i18n/steps.js';
import { libraryFileName, pathFor, toolkitLibraryDir } from '../../platform.js';
import { verifyManifest } from '../../verify/index.js';
import { compareDotted, major, majorMinor } from '../../version.js';
import { cudnnTargetDir, type PlanContext } from '../context.js';
import { NeedsInput, type Step, type StepIO } from '../runner.js';
import { fetchFile } from './download.js';
import { spaceStep } from './space.js';

const exists = (p: string) => access(p).then(() => true, () => false);

/** cuDNN of TF's major (minor not older) already in the toolkit: copied by cudawiz, or by hand. */
export async function cudnnInToolkit(ctx: PlanContext): Promise<string | undefined> {
  const want = ctx.req.cudnn;
  if (!want) return undefined;
  const dir = cudnnTargetDir(ctx);
  const state = await importState(dir);
  if (state.state === 'interrupted') return undefined;
  if (state.state === 'complete' && (await verifyManifest(dir)).status === 'fail') return undefined;
  const p = pathFor(ctx.os);
  for (const header of ['cudnn_version.h', 'cudnn.h']) {
    const text = await readFile(p.join(dir, 'include', header), 'utf8').catch(() => undefined);
    const v = text ? parseCudnnVersionHeader(text) : undefined;
    if (!v) continue;
    const lib = p.join(toolkitLibraryDir(ctx.os, dir), libraryFileName(ctx.os, 'cudnn', String(major(want))));
    const ok = major(v) === major(want) && compareDotted(majorMinor(v), majorMinor(want)) >= 0 && (await exists(lib));
    return ok ? v : undefined;
  }
  return undefined;
}

/**
 * NVIDIA's file name for a cuDNN the catalog has no row for, by the naming of its era (assets/cudnn.json's
 * sources: cudnn-<CUDA>-linux-x64-v<cuDNN>….tgz up to 8.2, cudnn-<os>-x86_64-<cuDNN>…_cuda<major>-archive from 8.3).
 */
export function nvidiaCudnnFileName(cudnn: string, cuda: string, os: PlanContext['os']): string {
  if (compareDotted(majorMinor(cudnn), '8.3') < 0) return os === 'windows' ? `cudnn-${cuda}-windows10-x64-v${cudnn}*.zip` : `cudnn-${cuda}-linux-x64-v${cudnn}*.tgz`;
  return os === 'windows' ? `cudnn-windows-x86_64-${cudnn}.*_cuda${major(cuda)}-archive.zip` : `cudnn-linux-x86_64-${cudnn}.*_cuda${major(cuda)}-archive.tar.xz`;
}

/** The stop where the catalog has no cuDNN build for this CUDA: the file to get, its page, and how to hand it over. */
function notInCatalog(ctx: PlanContext): CudawizError {
  const cudnn = String(ctx.req.cudnn);
  return new CudawizError(stepsText.noCudnnBuild(cudnn, ctx.cuda, ctx.os), {
    code: 'cudnn-not-in-catalog',
    fix: stepsText.noCudnnBuildFix(cudnn, ctx.cuda, nvidiaCudnnFileName(cudnn, ctx.cuda, ctx.os), ctx.catalog.cudnn.archivePage, `${ctx.command} --cudnn-archive PATH`),
  });
}

export const obtainCudnnStep: Step<PlanContext> = {
  id: 'obtain-cudnn',
  get title() {
    return stepsText.getCudnn;
  },
  check: async (ctx) => {
    const v = await cudnnInToolkit(ctx);
    if (v) return { done: true, reason: stepsText.cudnnAlready(v, cudnnTargetDir(ctx)) };
    const a = ctx.req.cudnnArchive;
    if (a || ctx.cudnnArchive) return { done: false, reason: a ? cudnnPlanReason(a) : ctx.cudnnArchive };
    // No build in the catalog and none handed over: the run stops here, and the preview says so with what to bring.
    const stop = notInCatalog(ctx);
    return { done: false, reason: stop.message, stop };
  },
  async run(ctx, io) {
    const archive = ctx.req.cudnnArchive;
    // The user's own archive needs no catalog row: the import reads its version and refuses a wrong one.
    if (ctx.cudnnArchive) {
      if (!(await exists(ctx.cudnnArchive))) throw new CudawizError(stepsText.archiveMissing(ctx.cudnnArchive), { fix: stepsText.archiveMissingFix(archive?.file ?? nvidiaCudnnFileName(String(ctx.req.cudnn), ctx.cuda, ctx.os)), exitCode: EXIT.usage });
      return { summary: ctx.cudnnArchive };
    }
    if (!archive) throw notInCatalog(ctx);
    // The tested build a compatible public pick stands in for counts too, when the user already has it.
    const found = (await findArchiveInDownloads(ctx.downloadsDir, archive.file)) ?? (archive.alternative && (await findArchiveInDownloads(ctx.downloadsDir, archive.alternative.file)));
    if (found) {
      ctx.cudnnArchive = found;
      return { summary: stepsText.found(found) };
    }
    let publicFailed: string | undefined;
    if (archive.access === 'public') {
      try {
        const target = cudnnArchiveTarget(ctx.catalog, archive.version, ctx.os, archive.cuda);
        const r = await fetchFile(ctx, io, target);
        ctx.cudnnArchive = r.path;
        return { summary: stepsText.publicCopy(target.file, r.source), evidence: r.notices };
      } catch (error) {
        // A public copy that fails (404, a mirror without it, no checksum) leaves the login path, never a dead end.
        if (io.signal.aborted || !publicCopyUnavailable(error)) throw error;
        publicFailed = catalogText.cudnnFallback(archive.file, (error as Error).message.split('\n')[0]);
        io.log(publicFailed);
      }
    }
    // Archives already in Downloads, offered as completions for the path prompt.
    const candidates = (await readdir(ctx.downloadsDir).catch(() => [] as string[])).filter((n) => /^cudnn.*\.(zip|tgz|tar\.xz)$/i.test(n)).map((n) => path.join(ctx.downloadsDir, n));
    throw new NeedsInput({
      kind: 'cudnn-archive',
      candidates,
      file: archive.file,
      page: archive.page,
      downloadsDir: ctx.downloadsDir,
      why: stepsText.cudnnWhy(ctx.req.row, ctx.req.libraries.find((l) => l.name === 'cudnn')?.file ?? `cuDNN ${ctx.req.cudnn}`, archive.version, archive.cuda, publicFailed ?? ''),
    });
  },
  accept(ctx, answer) {
    ctx.cudnnArchive = answer;
  },
};

/**
 * Copies cuDNN in under a manifest with backups: into the toolkit (`importCudnnStep`), or into a folder
 * of its own beside a distro's CUDA (`importCudnnBesideStep`: made first, removed again if the copy fails
 * and leaves it empty), so nothing of the distro's packages is written.
 */
function importCudnnInto(title: () => string): Step<PlanContext> {
  return {
  id: 'import-cudnn',
  get title() {
    return title();
  },
  check: async (ctx) => {
    const v = await cudnnInToolkit(ctx);
    const dir = cudnnTargetDir(ctx);
    if (v) return { done: true, reason: stepsText.cudnnAlready(v, dir) };
    // Its own folder is per user: under sudo that user is root, which the one who typed sudo rarely means.
    const sudoUser = ctx.cudnnDir && !ctx.cudaRoot && ctx.cudnnDir.startsWith(`${ctx.host.home}/`) ? ctx.host.env.SUDO_USER : undefined;
    const into = ctx.cudnnDir ? stepsText.cudnnHomeInto(dir) : stepsText.copyInto(dir);
    return { done: false, reason: sudoUser && sudoUser !== 'root' ? `${into}${stepsText.cudnnHomeUnderSudo(sudoUser)}` : into };
  },
  async run(ctx, io) {
    const file = ctx.cudnnArchive;
    if (!file) throw new CudawizError(cudnnText.noArchiveToImport, { fix: cudnnText.noArchiveToImportFix });
    // Opened once and copied into a private place while it is hashed; only that copy is read from here on (#37, B2).
    const copy = await checkedCopyOfArchive(ctx, file, io.signal);
    try {
      return await importFrom(ctx, io, copy.path, file);
    } finally {
      await copy.done();
    }
  },
  };
}

/**
 * The archive as cudawiz will read it: the bundle's copied into the cache (checked against the
 * bundle's sha256), any other copied into a private scratch folder — checked against NVIDIA's sha256
 * when it is under the catalog's file name (or any name discovery takes as it: "name (1).tgz", another
 * case): a truncated or tampered download is refused before it is opened.
 */
async function checkedCopyOfArchive(ctx: PlanContext, file: string, signal: AbortSignal): Promise<{ path: string; done: () => Promise<void> }> {
  const fromBundle = ctx.bundle && [...ctx.bundle.files].find(([, f]) => f.path === file);
  if (fromBundle) return { path: (await bundleCopy(ctx.bundle!, fromBundle[0], ctx.cacheDir, signal)).path, done: async () => undefined };
  const expected = ctx.req.cudnnArchive;
  const sha256 = expected?.sha256 && isDownloadOf(path.basename(file), expected.file) ? expected.sha256 : undefined;
  const cache = path.resolve(ctx.cacheDir);
  const privateCache = (await stat(cache).then((s) => s.isDirectory(), () => false)) && !(await writableByOthers(cache));
  // A public copy fetchVerified put in a cache only this user can write is already cudawiz's own checked copy.
  if (privateCache && path.dirname(path.resolve(file)) === cache) return { path: file, done: async () => undefined };
  const scratchIn = privateCache ? cache : tmpdir();
  try {
    return await privateCopy(file, scratchIn, { sha256 }, { signal });
  } catch (error) {
    if (!(error instanceof VerifyFailure)) throw error;
    if (error.problem === 'digest' && error.got && expected?.sha256) {
      throw new CudawizError(cudnnText.notNvidiasBytes(file, expected.file, error.got.sha256, expected.sha256), { code: 'cudnn-checksum-mismatch', fix: cudnnText.notNvidiasBytesFix(expected.page) });
    }
    throw new CudawizError(error.message, { code: 'cudnn-archive-refused', exitCode: EXIT.usage, fix: stepsText.archiveMissingFix(expected?.file ?? path.basename(file)) });
  }
}

/** Copies cuDNN in from cudawiz's checked copy of the archive; `given` is the archive's name as the user knows it. */
async function importFrom(ctx: PlanContext, io: StepIO, file: string, given: string) {
    // importCudnn inspects before it writes (for a tar, in the same single pass) and refuses with the reason.
    const dir = cudnnTargetDir(ctx);
    // Its own folder beside a distro's CUDA is made here, and taken away again if the copy leaves it empty.
    const made = ctx.cudnnDir && !(await exists(dir)) ? await makeFolders(dir) : undefined;
    const state = await importState(dir);
    // A copy left half-done by an earlier run is undone first, so this one starts from what was there.
    if (state.state === 'interrupted') await rollbackImport(dir);
    const warnings: string[] = [];
    const manifest = await importCudnn({
      archive: file,
      recordedAs: given,
      toolkitDir: dir,
      os: ctx.os,
      tfCudnn: ctx.req.cudnn ?? undefined,
      cudaVersion: ctx.cuda,
      replacePrevious: state.state === 'complete',
      onWarning: (w) => warnings.push(w),
      signal: io.signal,
      onProgress: (p) => io.progress({ bytes: p.bytes, total: p.totalBytes }),
    }).catch(async (error: unknown) => {
      // Only empty folders, from the deepest up to the first one this run made: a copy left to settle stays.
      for (let d = dir; made && d.length >= made.length; d = path.dirname(d)) if (!(await rmdir(d).then(() => true, () => false))) break;
      throw error;
    });
    return { summary: stepsText.cudnnCopied(manifest.archive.version, manifest.files.length, path.join(dir, '.cudawiz')), evidence: warnings.map((w) => stepsText.warning(w)) };
}

export const importCudnnStep = importCudnnInto(() => stepsText.copyCudnn);
export const importCudnnBesideStep = importCudnnInto(() => stepsText.cudnnHomeStep);

/** Space for the one download a cuDNN-only repair makes. */
export const cudnnOnlySpaceStep: Step<PlanContext> = spaceStep(async (ctx) => ({ cuda: false, cudnn: !(await cudnnInToolkit(ctx)) }));
