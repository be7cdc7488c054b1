// The redist route as a plan: check the GPU and driver, fetch only the CUDA components TensorFlow
// loads from NVIDIA's per-component archives (in parallel, verified), unpack them into one per-user
// toolkit folder, get cuDNN (its public archive where the catalog has one), put the toolkit on the
// loader path for this user only, and verify. No administrator, no installer, no login.
import { planText } from '../i18n/plan.js';
import { cliText } from '../i18n/cli.js';
import { CudawizError, UsageError } from '../errors.js';
import { diagnose } from '../doctor/diagnose.js';
import { applyEnvChanges, envLinesToRunYourself } from '../env/index.js';
import { formatBytes } from '../fetch/index.js';
import type { Host } from '../host.js';
import { stepsText } from '../i18n/steps.js';
import { redistText } from '../i18n/redist.js';
import type { Catalog } from '../catalog/schema.js';
import { pathFor, pathListSeparator, splitPathList, toolkitDir, toolkitLibraryDir, toolkitSubdirs, userToolkitRoot } from '../platform.js';
import { ProbeCache } from '../probe/cache.js';
import { releaseArchives, type RedistCatalog } from '../redist/catalog.js';
import { redistRouteFor, type RedistChoice } from '../redist/choose.js';
import { beginUnpack, checkRedistToolkit, downloadArchives, repairRedist, unpackRedist, type RedistUnpack } from '../redist/toolkit.js';
import { verifySetup } from '../verify/index.js';
import { createPlanContext, type PlanContext, type PlanOptions } from './context.js';
import { NeedsInput, type Step } from './runner.js';
import { describeEnvChange, envPlanFor, importCudnnStep, obtainCudnnStep, verifiedOrThrow } from './setup.js';

export interface RedistPlanContext extends PlanContext {
  redist: RedistCatalog;
  choice: RedistChoice;
  /** A repair keeps the toolkit's own release. */
  pinRelease?: string;
  /** Set once the user's loader path holds the toolkit (changed now, or already): verify then looks as a new shell will. */
  envInPlace?: boolean;
  /** component id → verified archive in the cache, filled by the download step. */
  archiveFiles?: Map<string, string>;
  /** The unpack begun by the download step: archives already extracting into staging. */
  unpack?: RedistUnpack;
}

/** The plan context for the redist route; a usage error where the route does not exist for this TF here. */
export function createRedistPlanContext(catalog: Catalog, redist: RedistCatalog, host: Host, options: PlanOptions & { pinRelease?: string }): RedistPlanContext {
  const root = options.cudaRoot ?? userToolkitRoot(host.os, host.env, host.home);
  const base = createPlanContext(catalog, host, { ...options, cudaRoot: root });
  const route = redistRouteFor(redist, catalog, base.req, host.os, undefined, options.pinRelease);
  if (!route.ok) throw new UsageError(route.reason, route.fix);
  return withChoice({ ...base, redist, choice: route.choice, pinRelease: options.pinRelease }, route.choice);
}

function withChoice(ctx: RedistPlanContext, choice: RedistChoice): RedistPlanContext {
  ctx.choice = choice;
  ctx.cuda = choice.majorMinor;
  ctx.toolkitDir = toolkitDir(ctx.os, ctx.root, choice.majorMinor);
  return ctx;
}

/** Blocking findings, as for the installer route, minus elevation: nothing here needs an administrator. */
const BLOCKING = new Set(['windows-native', 'gpu', 'driver', 'compute-capability', 'wsl']);

async function machineCheck(ctx: RedistPlanContext) {
  const facts = await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog });
  const findings = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os });
  const driver = facts.gpu.driver.version ?? undefined;
  const route = redistRouteFor(ctx.redist, ctx.catalog, ctx.req, ctx.os, driver, ctx.pinRelease);
  return { facts, findings, route, blocking: findings.filter((f) => BLOCKING.has(f.id) && f.status === 'fail') };
}

export const redistPreflightStep: Step<RedistPlanContext> = {
  id: 'preflight',
  get title() {
    return redistText.stepPreflight;
  },
  async check(ctx) {
    const { blocking, route } = await machineCheck(ctx);
    if (blocking.length) return { done: false, reason: redistText.willStop(blocking[0].title) };
    return { done: false, reason: route.ok ? route.choice.why : route.reason };
  },
  async run(ctx) {
    const { facts, findings, blocking, route } = await machineCheck(ctx);
    ctx.facts = facts;
    if (blocking.length) throw new CudawizError(cliText.semicolons(blocking.map((f) => f.title)), { fix: blocking[0].fix ?? undefined, code: `preflight-${blocking[0].id}` });
    if (!route.ok) throw new CudawizError(route.reason, { fix: route.fix, code: 'redist-no-release' });
    withChoice(ctx, route.choice);
    const gpu = facts.gpu.gpus[0];
    return {
      summary: stepsText.redistMachine(gpu ? stepsText.machineSummary(gpu.name, facts.gpu.driver.version ?? '?') : stepsText.ok, route.choice.release.version),
      evidence: [route.choice.why, ...(route.choice.caveat ? [route.choice.caveat] : []), ...findings.filter((f) => BLOCKING.has(f.id) && f.status !== 'skip').map((f) => stepsText.findingLine(f.status, f.title))],
    };
  },
};

async function toolkitReady(ctx: RedistPlanContext) {
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

// The user's own rc/env script or User PATH, whoever runs it: this route never writes for everyone.
const userEnvPlan = (ctx: RedistPlanContext) => envPlanFor(ctx, { elevated: false });

export const redistEnvStep: Step<RedistPlanContext> = {
  id: 'configure-env',
  get title() {
    return redistText.stepEnv;
  },
  async check(ctx) {
    const { plan } = await userEnvPlan(ctx);
    if (plan.changes.length === 0) ctx.envInPlace = true;
    return plan.changes.length === 0 ? { done: true, reason: stepsText.loaderFinds } : { done: false, reason: planText.envChanges(plan.changes.length, plan.changes.map(describeEnvChange)) };
  },
  async run(ctx, io) {
    const { plan, places } = await userEnvPlan(ctx);
    if (plan.changes.length === 0) return { summary: stepsText.nothingToChange };
    if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: redistText.envQuestion(plan.changes.map((c) => c.target).join(', '), ctx.cuda), flag: '--configure-env yes' });
    if (ctx.configureEnv === 'no') {
      const lines = envLinesToRunYourself(plan);
      for (const l of lines) io.log(l);
      return { summary: redistText.envLeft, evidence: lines };
    }
    const r = await applyEnvChanges(plan.changes, { host: ctx.host, journalFile: places.journalFile });
    if (!r.ok) throw new CudawizError(stepsText.couldNotChange(r.failed?.change.target, r.failed?.message ?? ''), { fix: r.failed?.fix ?? envLinesToRunYourself(plan).join('\n') });
    ctx.envInPlace = true;
    return { summary: redistText.envApplied(r.applied.length), evidence: [...plan.notes, ...plan.changes.map((c) => c.target)] };
  },
  accept(ctx, answer) {
    ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
  },
};

/** The environment a new shell gets once the user's env script or User PATH holds the toolkit. */
function newShellEnv(ctx: RedistPlanContext): Host['env'] {
  const p = pathFor(ctx.os);
  const sub = toolkitSubdirs(ctx.os);
  const prepend = (name: string, dirs: string[]) => {
    const key = Object.keys(ctx.host.env).find((k) => (ctx.os === 'windows' ? k.toUpperCase() === name : k === name)) ?? name;
    return { [key]: [...dirs, ...splitPathList(ctx.os, ctx.host.env[key])].join(pathListSeparator(ctx.os)) };
  };
  const bin = [p.join(ctx.toolkitDir, sub.bin), ...(ctx.os === 'windows' ? [p.join(ctx.toolkitDir, sub.cupti)] : [])];
  return { ...ctx.host.env, ...prepend('PATH', bin), ...(ctx.os === 'linux' ? prepend('LD_LIBRARY_PATH', [toolkitLibraryDir(ctx.os, ctx.toolkitDir), p.join(ctx.toolkitDir, sub.cupti)]) : {}) };
}

export const redistVerifyStep: Step<RedistPlanContext> = {
  id: 'verify',
  get title() {
    return redistText.stepVerify;
  },
  check: async () => ({ done: false }),
  async run(ctx) {
    const files = await checkRedistToolkit(ctx.toolkitDir, { deep: true });
    const filesLayer = {
      title: redistText.filesLayer(files.manifest?.files.length ?? 0),
      status: files.state === 'complete' && files.changed.length === 0 ? ('pass' as const) : ('fail' as const),
      evidence: files.changed.length ? [redistText.filesChanged(files.changed.slice(0, 5).join(', '))] : [],
      fix: redistText.filesFix,
    };
    const shell = ctx.envInPlace ? { ...ctx.host, env: newShellEnv(ctx) } : undefined;
    const layers = [filesLayer, ...(await verifySetup(shell ? { ...ctx, host: shell, probes: new ProbeCache(shell) } : ctx))];
    return verifiedOrThrow(layers, (l) => l.title);
  },
};

export function redistRouteSteps(): Step<RedistPlanContext>[] {
  return [redistPreflightStep, redistDownloadStep, redistUnpackStep, obtainCudnnStep as Step<RedistPlanContext>, importCudnnStep as Step<RedistPlanContext>, redistEnvStep, redistVerifyStep];
}

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

export function redistRepairSteps(): Step<RedistPlanContext>[] {
  const [preflight, ...rest] = redistRouteSteps();
  return [preflight, redistRepairStep, ...rest];
}
