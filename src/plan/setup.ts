// The setup plan as data: the guide's steps in order, each able to say whether it is already done.
// check → download CUDA → install CUDA → obtain cuDNN → import cuDNN → loader path → verify.
import { cliText } from '../i18n/cli.js';
import { cudnnText } from '../i18n/cudnn.js';
import { access, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { cudnnPlanReason, publicCopyUnavailable } from '../catalog/cudnn-choice.js';
import { findCudaRelease } from '../catalog/queries.js';
import { catalogText } from '../i18n/catalog.js';
import { installToolkit } from '../cuda/install.js';
import { requireInstallPermission } from '../cuda/elevation.js';
import { scratchDirWithRoom, scratchSpaceNeeded } from '../cuda/scratch.js';
import { toolkitState } from '../cuda/toolkit-state.js';
import { findArchiveInDownloads, importCudnn, isDownloadOf, importState, parseCudnnVersionHeader, rollbackImport } from '../cudnn/index.js';
import { diagnose } from '../doctor/diagnose.js';
import { applyEnvChanges, envLinesToRunYourself, prepareEnvPlan } from '../env/index.js';
import type { EnvChange } from '../env/types.js';
import { planText } from '../i18n/plan.js';
import { CudawizError, EXIT } from '../errors.js';
import { cudaInstallerTarget, cudnnArchiveTarget, fetchVerified, type DownloadTarget } from '../fetch/index.js';
import { formatBytes } from '../format.js';
import { libraryFileName, pathFor, toolkitLibraryDir } from '../platform.js';
import { compareDotted, major, majorMinor } from '../version.js';
import type { PlanContext } from './context.js';
import { pythonStep } from './python-step.js';
import { spaceStep } from './space-step.js';
import { NeedsInput, type Step, type StepIO } from './runner.js';
import { fetchText } from '../i18n/fetch.js';
import { sha256File } from '../cudnn/manifest.js';
import { verifyManifest, verifySetup, type LayerResult } from '../verify/index.js';
import { stepsText } from '../i18n/steps.js';

const exists = (p: string) => access(p).then(() => true, () => false);

/** The findings that make a setup pointless or impossible, checked before any big download. */
const BLOCKING = new Set(['windows-native', 'gpu', 'driver', 'compute-capability', 'wsl']);

/** The machine as the doctor sees it for this TF, and what in that stops a setup. */
async function machineCheck(ctx: PlanContext) {
  const facts = await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog });
  const findings = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os });
  return { facts, findings, blocking: findings.filter((f) => BLOCKING.has(f.id) && f.status === 'fail') };
}

export const preflightStep: Step<PlanContext> = {
  id: 'preflight',
  get title() {
    return stepsText.checkMachine;
  },
  // Never done: it runs every time. Its reason previews what would stop the run.
  async check(ctx) {
    if (!ctx.req.gpuSupported) return { done: false, reason: stepsText.noGpuOnWindows(ctx.tf) };
    const { blocking } = await machineCheck(ctx);
    return { done: false, reason: blocking.length ? stepsText.willStopBecause(blocking[0].title) : stepsText.machineLooksRight };
  },
  async run(ctx) {
    if (!ctx.req.gpuSupported) {
      throw new CudawizError(stepsText.noGpuOnWindowsError(ctx.tf), {
        fix: ctx.req.alternatives.map((a) => `${a.title}: ${a.detail}`).join('  |  '),
      });
    }
    const { facts, findings, blocking } = await machineCheck(ctx);
    ctx.facts = facts;
    if (blocking.length > 0) {
      const first = blocking[0];
      throw new CudawizError(cliText.semicolons(blocking.map((f) => f.title)), { fix: first.fix ?? undefined, code: `preflight-${first.id}` });
    }
    const state = await toolkitState(ctx.os, ctx.catalog, ctx.toolkitDir, ctx.cuda);
    if (state.state !== 'complete') await requireInstallPermission(ctx.host, ctx.toolkitDir, ctx.command);
    const gpu = facts.gpu.gpus[0];
    return {
      summary: gpu ? stepsText.machineSummary(gpu.name, facts.gpu.driver.version ?? '?') : stepsText.ok,
      evidence: findings.filter((f) => BLOCKING.has(f.id) && f.status !== 'skip').map((f) => stepsText.findingLine(f.status, f.title)),
    };
  },
};

async function toolkitComplete(ctx: PlanContext): Promise<boolean> {
  return (await toolkitState(ctx.os, ctx.catalog, ctx.toolkitDir, ctx.cuda)).state === 'complete';
}

/** Downloads a catalog target into the cache, verified, reporting progress to the step. */
function fetchTarget(ctx: PlanContext, io: StepIO, target: DownloadTarget) {
  return fetchVerified({
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
}

export const downloadCudaStep: Step<PlanContext> = {
  id: 'download-cuda',
  get title() {
    return stepsText.downloadCuda;
  },
  check: async (ctx) => {
    if (await toolkitComplete(ctx)) return { done: true, reason: stepsText.cudaInstalledAt(ctx.cuda, ctx.toolkitDir) };
    const i = ctx.req.cudaInstaller;
    return { done: false, reason: i ? stepsText.checkedAgainst(`${i.file}${i.size ? ` (${formatBytes(i.size)})` : ''}`, Boolean(i.sha256)) : undefined };
  },
  async run(ctx, io) {
    const target = cudaInstallerTarget(ctx.catalog, ctx.cuda, ctx.os);
    const r = await fetchTarget(ctx, io, target);
    ctx.installerFile = r.path;
    ctx.installerSha256 = r.sha256;
    return {
      summary: r.fromCache ? stepsText.fromCache(target.file) : stepsText.checksumFrom(target.file, r.source),
      evidence: [...r.notices, `sha256 ${r.sha256}`],
    };
  },
};

export const installCudaStep: Step<PlanContext> = {
  id: 'install-cuda',
  get title() {
    return stepsText.installCuda;
  },
  check: async (ctx) => (await toolkitComplete(ctx) ? { done: true, reason: stepsText.nvccIn(ctx.toolkitDir) } : { done: false, reason: stepsText.toolkitInto(ctx.toolkitDir) }),
  async run(ctx, io) {
    const release = findCudaRelease(ctx.catalog, ctx.cuda, ctx.os);
    if (!release || !ctx.installerFile) throw new CudawizError(stepsText.noInstallerDownloaded(ctx.cuda), { fix: stepsText.runAgain });
    const { size } = await stat(ctx.installerFile);
    const scratch = await scratchDirWithRoom(ctx.os, [path.join(ctx.cacheDir, 'scratch'), ctx.root], scratchSpaceNeeded(size));
    if (!scratch) throw new CudawizError(stepsText.noScratchSpace(formatBytes(scratchSpaceNeeded(size))), { fix: stepsText.noScratchSpaceFix });
    const r = await installToolkit({
      os: ctx.os,
      catalog: ctx.catalog,
      installerFile: ctx.installerFile,
      release,
      root: ctx.root,
      tmpDir: scratch.dir,
      logDir: ctx.logDir,
      signal: io.signal,
      onLog: io.log,
      permission: { host: ctx.host, command: ctx.command },
      overrideCompilerCheck: ctx.overrideCompilerCheck,
      verifiedSha256: ctx.installerSha256,
      // The machine's environment, as every other program the plan runs gets it.
      env: ctx.host.env,
    });
    return { summary: r.skipped ? stepsText.alreadyInstalled : stepsText.cudaIn(release.version, r.toolkitDir), evidence: [r.warning, r.logFile && stepsText.installerLog(r.logFile)].filter((x): x is string => Boolean(x)) };
  },
};

/** cuDNN of TF's major (minor not older) already in the toolkit: copied by cudawiz, or by hand. */
async function cudnnInToolkit(ctx: PlanContext): Promise<string | undefined> {
  const want = ctx.req.cudnn;
  if (!want) return undefined;
  const state = await importState(ctx.toolkitDir);
  if (state.state === 'interrupted') return undefined;
  if (state.state === 'complete' && (await verifyManifest(ctx.toolkitDir)).status === 'fail') return undefined;
  const p = pathFor(ctx.os);
  for (const header of ['cudnn_version.h', 'cudnn.h']) {
    const text = await readFile(p.join(ctx.toolkitDir, 'include', header), 'utf8').catch(() => undefined);
    const v = text ? parseCudnnVersionHeader(text) : undefined;
    if (!v) continue;
    const lib = p.join(toolkitLibraryDir(ctx.os, ctx.toolkitDir), libraryFileName(ctx.os, 'cudnn', String(major(want))));
    const ok = major(v) === major(want) && compareDotted(majorMinor(v), majorMinor(want)) >= 0 && (await exists(lib));
    return ok ? v : undefined;
  }
  return undefined;
}

export const obtainCudnnStep: Step<PlanContext> = {
  id: 'obtain-cudnn',
  get title() {
    return stepsText.getCudnn;
  },
  check: async (ctx) => {
    const v = await cudnnInToolkit(ctx);
    if (v) return { done: true, reason: stepsText.cudnnAlready(v, ctx.toolkitDir) };
    const a = ctx.req.cudnnArchive;
    return { done: false, reason: a ? cudnnPlanReason(a) : undefined };
  },
  async run(ctx, io) {
    const archive = ctx.req.cudnnArchive;
    if (!archive) throw new CudawizError(stepsText.noCudnnBuild(String(ctx.req.cudnn), ctx.cuda, ctx.os), { fix: stepsText.noCudnnBuildFix });
    if (ctx.cudnnArchive) {
      if (!(await exists(ctx.cudnnArchive))) throw new CudawizError(stepsText.archiveMissing(ctx.cudnnArchive), { fix: stepsText.archiveMissingFix(archive.file), exitCode: EXIT.usage });
      return { summary: ctx.cudnnArchive };
    }
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
        const r = await fetchTarget(ctx, io, target);
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

export const importCudnnStep: Step<PlanContext> = {
  id: 'import-cudnn',
  get title() {
    return stepsText.copyCudnn;
  },
  check: async (ctx) => {
    const v = await cudnnInToolkit(ctx);
    return v ? { done: true, reason: stepsText.cudnnAlready(v, ctx.toolkitDir) } : { done: false, reason: stepsText.copyInto(ctx.toolkitDir) };
  },
  async run(ctx, io) {
    const file = ctx.cudnnArchive;
    if (!file) throw new CudawizError(cudnnText.noArchiveToImport, { fix: cudnnText.noArchiveToImportFix });
    // An archive under the catalog's file name (or any name discovery takes as it: "name (1).tgz",
    // another case) must be NVIDIA's bytes: a truncated or tampered download is refused before it is opened.
    const expected = ctx.req.cudnnArchive;
    if (expected?.sha256 && isDownloadOf(path.basename(file), expected.file)) {
      const actual = await sha256File(file);
      if (actual !== expected.sha256) {
        throw new CudawizError(cudnnText.notNvidiasBytes(file, expected.file, actual, expected.sha256), {
          code: 'cudnn-checksum-mismatch',
          fix: cudnnText.notNvidiasBytesFix(expected.page),
        });
      }
    }
    // importCudnn inspects before it writes (for a tar, in the same single pass) and refuses with the reason.
    const state = await importState(ctx.toolkitDir);
    // A copy left half-done by an earlier run is undone first, so this one starts from what was there.
    if (state.state === 'interrupted') await rollbackImport(ctx.toolkitDir);
    const warnings: string[] = [];
    const manifest = await importCudnn({
      archive: file,
      toolkitDir: ctx.toolkitDir,
      os: ctx.os,
      tfCudnn: ctx.req.cudnn ?? undefined,
      cudaVersion: ctx.cuda,
      replacePrevious: state.state === 'complete',
      onWarning: (w) => warnings.push(w),
      signal: io.signal,
      onProgress: (p) => io.progress({ bytes: p.bytes, total: p.totalBytes }),
    });
    return { summary: stepsText.cudnnCopied(manifest.archive.version, manifest.files.length, path.join(ctx.toolkitDir, '.cudawiz')), evidence: warnings.map((w) => stepsText.warning(w)) };
  },
};

export const configureEnvStep: Step<PlanContext> = {
  id: 'configure-env',
  get title() {
    return stepsText.makeFindable;
  },
  async check(ctx) {
    const { plan } = await envPlanFor(ctx);
    if (plan.refusals.length > 0) return { done: false, reason: fetchText.envWillStop(plan.refusals[0].reason) };
    // Lines only root can run are not "done": the loader does not find the libraries until they are.
    if (plan.changes.length === 0 && plan.manual.length > 0) return { done: false, reason: fetchText.loaderNeedsRoot(ctx.toolkitDir) };
    return plan.changes.length === 0 ? { done: true, reason: stepsText.loaderFinds } : { done: false, reason: planText.envChanges(plan.changes.length, plan.changes.map(describeEnvChange)) };
  },
  async run(ctx, io) {
    const { plan, places } = await envPlanFor(ctx);
    // A refusal (a name cudawiz cannot sort ahead, a toolkit path unsafe to write) is said, not skipped as done.
    if (plan.refusals.length > 0) throw new CudawizError(plan.refusals.map((r) => r.reason).join('\n'), { code: 'env-refused', fix: plan.refusals[0].fix });
    if (plan.changes.length === 0 && plan.manual.length > 0) {
      for (const l of plan.manual) io.log(l);
      if (ctx.configureEnv === 'no') return { summary: stepsText.leftAsIs, evidence: plan.manual };
      throw new NeedsInput({ kind: 'elevation', message: `${fetchText.loaderNeedsRoot(ctx.toolkitDir)}:\n  ${plan.manual.join('\n  ')}`, fix: plan.manual.join('\n') });
    }
    if (plan.changes.length === 0) return { summary: stepsText.nothingToChange };
    if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: stepsText.envQuestion(plan.changes.map((c) => c.target).join(', '), ctx.cuda), flag: '--configure-env yes' });
    if (ctx.configureEnv === 'no') {
      const lines = envLinesToRunYourself(plan);
      for (const l of lines) io.log(l);
      return { summary: stepsText.leftAsIs, evidence: lines };
    }
    const r = await applyEnvChanges(plan.changes, { host: ctx.host, journalFile: places.journalFile });
    if (!r.ok) throw new CudawizError(stepsText.couldNotChange(r.failed?.change.target, r.failed?.message ?? ''), { fix: r.failed?.fix ?? envLinesToRunYourself(plan).join('\n') });
    return { summary: stepsText.changesRecorded(r.applied.length), evidence: [...plan.notes, ...r.ldconfigLines] };
  },
  accept(ctx, answer) {
    ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
  },
};

/** One change as the plan names it: the file it writes, the PATH it edits, or the command it runs. */
export function describeEnvChange(c: EnvChange): string {
  if (c.kind === 'ldconfig') return planText.envRunLdconfig;
  if (c.kind === 'windows-path') return planText.envWindowsPath(c.target);
  return c.target;
}

/** What making the libraries findable would change. `elevated: false` plans for the user only (the redist route). */
export async function envPlanFor(ctx: PlanContext, options: { elevated?: boolean } = {}) {
  const facts = ctx.facts ?? (await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog }));
  return prepareEnvPlan({
    host: ctx.host,
    tf: ctx.tf,
    cuda: ctx.cuda,
    toolkitDir: ctx.toolkitDir,
    requiredFiles: ctx.req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file),
    toolkits: facts.toolkits.filter((t) => t.majorMinor).map((t) => ({ version: t.majorMinor!, dir: t.path })),
    elevated: options.elevated ?? (await requireInstallPermission(ctx.host, ctx.toolkitDir, ctx.command).catch(() => undefined))?.elevated ?? false,
    root: ctx.host.fsRoot,
  });
}

/**
 * A failed layer as what went wrong, not its title (which reads as the success it checks for): its
 * first evidence names the library (or file, or import) and the next line says why.
 */
function whatFailed(layer: Pick<LayerResult, 'title' | 'evidence'>): string {
  const [what, why] = layer.evidence;
  if (!what) return `${planText.verifyFailed}: ${layer.title}`;
  return why ? `${what} (${why})` : what;
}

/** A verify step's end: its layers as evidence lines, and a failure when any layer failed. */
export function verifiedOrThrow<L extends Pick<LayerResult, 'title' | 'status' | 'evidence' | 'fix'>>(layers: L[], describeFailed: (layer: L) => string = whatFailed): { summary: string; evidence: string[] } {
  const failed = layers.filter((l) => l.status === 'fail');
  if (failed.length > 0) throw new CudawizError(cliText.semicolons(failed.map(describeFailed)), { fix: failed[0].fix ?? stepsText.doctorShowsDetails, details: { layers } });
  const evidence = layers.map((l) => `${stepsText.layerMark(l.status)} ${l.title}${l.evidence[0] ? ` — ${l.evidence[0]}` : ''}`);
  return { summary: stepsText.layersPassed(layers.filter((l) => l.status === 'pass').length), evidence };
}

export const verifyStep: Step<PlanContext> = {
  id: 'verify',
  get title() {
    return stepsText.verify;
  },
  check: async () => ({ done: false }),
  async run(ctx) {
    return verifiedOrThrow(await verifySetup(ctx));
  },
};

/** The plan's downloads and disk, from the same checks the download steps make. */
export const diskSpaceStep = spaceStep(async (ctx) => ({ cuda: !(await toolkitComplete(ctx)), cudnn: !(await cudnnInToolkit(ctx)) }));

export function setupSteps(): Step<PlanContext>[] {
  return [preflightStep, pythonStep, diskSpaceStep, downloadCudaStep, installCudaStep, obtainCudnnStep, importCudnnStep, configureEnvStep, verifyStep];
}
