// The pip-managed CUDA route as a plan (Linux and WSL2, TF ≥ 2.14): check the driver, make or use a
// virtual environment, pip install "tensorflow[and-cuda]==X" with its output as progress, put the
// wheel folders on the loader path where that TF needs it (with consent), and verify in a fresh
// Python. Each step's check makes a re-run a no-op; the same runner as the toolkit plan runs it.
import { verifyText } from '../i18n/verify.js';
import { stepsText } from '../i18n/steps.js';
import path from 'node:path';
import { andCudaPythonProblem, andCudaRequirement, hasAndCuda } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { diagnose } from '../doctor/diagnose.js';
import { explainLog } from '../doctor/explain.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import type { Host } from '../host.js';
import {
  applyWheelLibraryFix,
  createVenv,
  isVenv,
  pipInstallTensorflow,
  planWheelLibraryFix,
  probePipCuda,
  wheelLoaderFact,
  type PipCudaFacts,
  type PipEvent,
} from '../pip/index.js';
import { pythonCommands, venvBinDir, venvProgram } from '../platform.js';
import { importTensorflow } from '../verify/tensorflow.js';
import { createPlanContext, type PlanContext, type PlanOptions } from './context.js';
import { formatBytes } from '../format.js';
import { pipText } from '../i18n/pip.js';
import { NeedsInput, type Step, type StepIO } from './runner.js';

/** The pip route's own place: the virtual environment (default ./.venv). */
export interface PipPlanContext extends PlanContext {
  venvDir: string;
}

export const DEFAULT_VENV_DIR = '.venv';

/** Why the pip route cannot serve this TF on this OS, or undefined when it can. */
export function pipRouteRefusal(catalog: Catalog, tf: string, os: Host['os']): string | undefined {
  if (os !== 'linux') return pipText.refusalWindows(tf, hasAndCuda(catalog, tf, 'linux'));
  if (!hasAndCuda(catalog, tf, os)) return pipText.refusalPredates(tf, catalog.tensorflow.andCudaFirst);
  return undefined;
}

export function createPipPlanContext(catalog: Catalog, host: Host, options: PlanOptions & { venvDir?: string }): PipPlanContext {
  const refusal = pipRouteRefusal(catalog, options.tf, host.os);
  if (refusal) throw new UsageError(refusal, pipText.useToolkitRoute(options.tf, host.os === 'linux'));
  return { ...createPlanContext(catalog, host, options), venvDir: path.resolve(options.venvDir ?? DEFAULT_VENV_DIR) };
}

/** "tensorflow[and-cuda]==2.16.1" → "2.16.1": the exact release pip pins. */
function pinnedVersion(ctx: PipPlanContext): string {
  return andCudaRequirement(ctx.catalog, ctx.tf)!.split('==')[1];
}

const venvPython = (ctx: PipPlanContext) => venvProgram(ctx.host.os, ctx.venvDir, 'python');

/** What pip put into the venv so far; undefined before the venv exists. */
async function venvFacts(ctx: PipPlanContext): Promise<PipCudaFacts | undefined> {
  if (!isVenv(ctx.host, ctx.venvDir)) return undefined;
  const facts = await probePipCuda(ctx.host, venvPython(ctx));
  return facts.ran ? facts : undefined;
}

const installed = (facts: PipCudaFacts | undefined, version: string) => facts?.tensorflow?.version === version && facts.packages.some((p) => p.component === 'cuda_runtime');

/** The findings that make the route pointless: no GPU, a driver too old for the wheels' CUDA, WSL 1 or no Windows driver in WSL. */
const BLOCKING = /^(gpu|driver|compute-capability|wsl|wsl:no-wsl-libcuda|wsl:windows-too-old)$/;

async function blockingFindings(ctx: PipPlanContext) {
  const facts = await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog, python: venvPython(ctx) });
  const findings = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os }).filter((f) => BLOCKING.test(f.id) && f.status !== 'skip');
  return { facts, findings, blocking: findings.filter((f) => f.status === 'fail') };
}

export const pipPreflightStep: Step<PipPlanContext> = {
  id: 'preflight',
  get title() {
    return pipText.stepPreflight;
  },
  async check(ctx) {
    const { blocking } = await blockingFindings(ctx);
    return { done: false, reason: blocking.length ? stepsText.willStopBecause(blocking[0].title) : pipText.onlyDriver(ctx.cuda, String(ctx.req.cudnn)) };
  },
  async run(ctx) {
    const { facts, findings, blocking } = await blockingFindings(ctx);
    ctx.facts = facts;
    if (blocking.length) throw new CudawizError(blocking.map((f) => f.title).join(pipText.titlesJoin), { fix: blocking[0].fix ?? undefined, code: `preflight-${blocking[0].id}` });
    const gpu = facts.gpu.gpus[0];
    const driver = facts.wsl?.windowsDriverVersion ?? facts.gpu.driver.version;
    return { summary: gpu ? pipText.machineSummary(gpu.name, Boolean(facts.wsl?.isWsl), driver ?? '?') : stepsText.ok, evidence: findings.map((f) => stepsText.findingLine(f.status, f.title)) };
  },
};

export const venvStep: Step<PipPlanContext> = {
  id: 'venv',
  get title() {
    return pipText.stepVenv;
  },
  check: async (ctx) => (isVenv(ctx.host, ctx.venvDir) ? { done: true, reason: pipText.isVenv(ctx.venvDir) } : { done: false, reason: `python3 -m venv ${ctx.venvDir}` }),
  async run(ctx) {
    // A Python that cannot take this TF's [and-cuda] is said before the venv is made, with the Pythons that can.
    if (!isVenv(ctx.host, ctx.venvDir)) {
      const said = await ctx.host.run(pythonCommands(ctx.host.os)[0], ['--version'], { timeoutMs: 20_000 });
      const version = /Python (\d+\.\d+(?:\.\d+)?)/.exec(`${said.stdout}\n${said.stderr}`)?.[1];
      const problem = version ? andCudaPythonProblem(ctx.catalog, ctx.tf, version) : undefined;
      if (problem) throw new CudawizError(problem.message, { code: 'python-cannot-take-tf', fix: problem.fix, exitCode: EXIT.usage });
    }
    const venv = await createVenv(ctx.host, { dir: ctx.venvDir });
    ctx.probes.pythonChanged(venvPython(ctx));
    return { summary: pipText.venvSummary(venv.dir, venv.created), evidence: [pipText.activateWith(venv.activate)] };
  },
};

/** pip's events as the step's: every line to its log, the wheel bytes so far as its progress. */
function pipEventsToStep(io: Pick<StepIO, 'log' | 'progress'>): (event: PipEvent) => void {
  return (event) => {
    io.log(event.line);
    if (event.type === 'download' && !event.metadata) io.progress({ bytes: event.totalBytes, unit: 'bytes' });
  };
}

export const pipInstallStep: Step<PipPlanContext> = {
  id: 'pip-install',
  get title() {
    return pipText.stepPipInstall;
  },
  async check(ctx) {
    const version = pinnedVersion(ctx);
    const facts = await venvFacts(ctx);
    if (installed(facts, version)) return { done: true, reason: pipText.wheelsInstalled(version, facts!.cudaFromWheels, facts!.cudnnFromWheels) };
    return { done: false, reason: pipText.willPipInstall(String(andCudaRequirement(ctx.catalog, ctx.tf)), facts?.tensorflow?.version) };
  },
  async run(ctx, io) {
    const r = await pipInstallTensorflow(ctx.host, { venv: ctx.venvDir, catalog: ctx.catalog, tf: ctx.tf, signal: io.signal, onEvent: pipEventsToStep(io) }).finally(() => ctx.probes.pythonChanged(venvPython(ctx)));
    const nvidia = r.installed.filter((p) => p.name.startsWith('nvidia-'));
    return {
      summary: pipText.pipSummary(r.installed.length, nvidia.length, r.wheelBytes ? formatBytes(r.wheelBytes) : undefined),
      evidence: [...nvidia.filter((p) => /cudnn|cuda-runtime/.test(p.name)).map((p) => `${p.name} ${p.version}`), ...r.warnings],
    };
  },
};

export const wheelLoaderPathStep: Step<PipPlanContext> = {
  id: 'wheel-loader-path',
  get title() {
    return pipText.stepLoaderPath;
  },
  async check(ctx) {
    const facts = await venvFacts(ctx);
    if (!installed(facts, pinnedVersion(ctx))) {
      // Before pip has run, the known facts about this TF decide; verify catches a surprise.
      const fact = wheelLoaderFact(ctx.tf);
      return fact?.need === 'needed' ? { done: false, reason: pipText.tfFact(ctx.tf, pipText.factWhy(fact)) } : { done: true, reason: pipText.findsWheelsRunpath(ctx.tf) };
    }
    const plan = planWheelLibraryFix(facts!);
    if (plan.alreadyApplied) return { done: true, reason: pipText.alreadyIn(plan.activateScript) };
    return plan.needed ? { done: false, reason: plan.why[0] } : { done: true, reason: pipText.findsWheels(facts!.tensorflow!.version) };
  },
  async run(ctx, io) {
    const facts = await venvFacts(ctx);
    if (!facts) throw new CudawizError(pipText.noPythonRuns(ctx.venvDir), { fix: pipText.removeAndRunAgain(ctx.venvDir) });
    const plan = planWheelLibraryFix(facts);
    if (plan.alreadyApplied) return { summary: pipText.alreadyIn(plan.activateScript) };
    if (!plan.needed) return { summary: pipText.notNeeded };
    if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: pipText.addQuestion(plan.dirs.length, plan.activateScript), flag: '--configure-env yes' });
    if (ctx.configureEnv === 'no') {
      for (const l of plan.lines) io.log(l);
      return { summary: pipText.leftAsIs(plan.activateScript), evidence: plan.lines };
    }
    const r = applyWheelLibraryFix(plan, { consent: true });
    return { summary: r.applied ? pipText.foldersAdded(plan.dirs.length, plan.activateScript, r.recordFile) : stepsText.nothingToChange, evidence: plan.why };
  },
  accept(ctx, answer) {
    ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
  },
};

export const pipVerifyStep: Step<PipPlanContext> = {
  id: 'verify',
  get title() {
    return pipText.stepVerify;
  },
  check: async () => ({ done: false }),
  async run(ctx) {
    const facts = await venvFacts(ctx);
    const activated = facts?.loaderPath.whenActivated;
    // As after `source DIR/bin/activate`: the venv first on PATH, and the loader path its script sets.
    const env = {
      VIRTUAL_ENV: ctx.venvDir,
      PATH: [venvBinDir(ctx.host.os, ctx.venvDir), ctx.host.env.PATH ?? ''].filter(Boolean).join(path.delimiter),
      ...(activated ? { LD_LIBRARY_PATH: activated.join(':') } : {}),
    };
    const tf = await importTensorflow(ctx.host, venvPython(ctx), env);
    const problems = explainLog(ctx.catalog, tf.log, { os: ctx.os }).findings.filter((f) => f.severity === 'error');
    const evidence = tf.imported ? [pipText.tfGpus(tf.version, tf.gpus), ...problems.map((p) => pipText.logProblem(p.line, p.meaning))] : [tf.error ?? verifyText.importFailed];
    if (tf.imported && tf.gpus.length > 0 && problems.length === 0) return { summary: evidence[0], evidence: [pipText.activateWith(path.join(venvBinDir(ctx.host.os, ctx.venvDir), 'activate'))] };
    const wheelFix = facts ? planWheelLibraryFix(facts, { importLog: tf.log }) : undefined;
    const fix = wheelFix?.needed && !wheelFix.alreadyApplied
      ? pipText.offLoaderPath(ctx.tf, ctx.venvDir)
      : problems[0]?.fix ?? (tf.imported ? pipText.doctorShows(ctx.tf, venvPython(ctx)) : pipText.forceReinstall(andCudaRequirement(ctx.catalog, ctx.tf), ctx.venvDir));
    throw new CudawizError(tf.imported ? pipText.seesNoGpu(tf.version, problems.length ? problems[0].meaning : undefined) : pipText.doesNotImport(tf.error), { fix, code: 'verify-failed', details: { evidence } });
  },
};

export function pipRouteSteps(): Step<PipPlanContext>[] {
  return [pipPreflightStep, venvStep, pipInstallStep, wheelLoaderPathStep, pipVerifyStep];
}
