// The pip-managed CUDA route as a plan (Linux and WSL2, TF ≥ 2.14): check the driver, make or use a
// virtual environment, pip install "tensorflow[and-cuda]==X" with its output as progress, put the
// wheel folders on the loader path where that TF needs it (with consent), and verify in a fresh
// Python. Each step's check makes a re-run a no-op; the same runner as the toolkit plan runs it.
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
import { NeedsInput, type Step, type StepIO } from './runner.js';

/** The pip route's own place: the virtual environment (default ./.venv). */
export interface PipPlanContext extends PlanContext {
  venvDir: string;
}

export const DEFAULT_VENV_DIR = '.venv';

/** Why the pip route cannot serve this TF on this OS, or undefined when it can. */
export function pipRouteRefusal(catalog: Catalog, tf: string, os: Host['os']): string | undefined {
  if (os !== 'linux') return `The pip route (tensorflow[and-cuda]) exists on Linux and WSL2 only; on native Windows TensorFlow ${tf} ${hasAndCuda(catalog, tf, 'linux') ? 'has no GPU build — use it inside WSL2' : 'needs the CUDA toolkit route'}.`;
  if (!hasAndCuda(catalog, tf, os)) return `TensorFlow ${tf} predates tensorflow[and-cuda] (it starts at ${catalog.tensorflow.andCudaFirst}); its CUDA and cuDNN come as a system toolkit.`;
  return undefined;
}

export function createPipPlanContext(catalog: Catalog, host: Host, options: PlanOptions & { venvDir?: string }): PipPlanContext {
  const refusal = pipRouteRefusal(catalog, options.tf, host.os);
  if (refusal) throw new UsageError(refusal, `Use the toolkit route: cudawiz install --tf ${options.tf}${host.os === 'linux' ? '' : ', or run cudawiz inside WSL2'}`);
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
  title: 'Check the GPU and the driver',
  async check(ctx) {
    const { blocking } = await blockingFindings(ctx);
    return { done: false, reason: blocking.length ? `will stop: ${blocking[0].title}` : `only the driver is needed: CUDA ${ctx.cuda} and cuDNN ${ctx.req.cudnn} come as wheels` };
  },
  async run(ctx) {
    const { facts, findings, blocking } = await blockingFindings(ctx);
    ctx.facts = facts;
    if (blocking.length) throw new CudawizError(blocking.map((f) => f.title).join('; '), { fix: blocking[0].fix ?? undefined, code: `preflight-${blocking[0].id}` });
    const gpu = facts.gpu.gpus[0];
    const driver = facts.wsl?.windowsDriverVersion ?? facts.gpu.driver.version;
    return { summary: gpu ? `${gpu.name}, ${facts.wsl?.isWsl ? 'Windows driver' : 'driver'} ${driver ?? '?'}` : 'ok', evidence: findings.map((f) => `${f.status}: ${f.title}`) };
  },
};

export const venvStep: Step<PipPlanContext> = {
  id: 'venv',
  title: 'Create the virtual environment',
  check: async (ctx) => (isVenv(ctx.host, ctx.venvDir) ? { done: true, reason: `${ctx.venvDir} is a virtual environment` } : { done: false, reason: `python3 -m venv ${ctx.venvDir}` }),
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
    return { summary: `${venv.dir}${venv.created ? '' : ' (already there)'}`, evidence: [`activate it with: source ${venv.activate}`] };
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
  title: 'Install TensorFlow with its CUDA wheels',
  async check(ctx) {
    const version = pinnedVersion(ctx);
    const facts = await venvFacts(ctx);
    if (installed(facts, version)) return { done: true, reason: `tensorflow ${version} with CUDA ${facts!.cudaFromWheels} and cuDNN ${facts!.cudnnFromWheels ?? '?'} wheels is installed` };
    return { done: false, reason: `pip install "${andCudaRequirement(ctx.catalog, ctx.tf)}"${facts?.tensorflow ? ` (the venv has tensorflow ${facts.tensorflow.version})` : ''}` };
  },
  async run(ctx, io) {
    const r = await pipInstallTensorflow(ctx.host, { venv: ctx.venvDir, catalog: ctx.catalog, tf: ctx.tf, signal: io.signal, onEvent: pipEventsToStep(io) }).finally(() => ctx.probes.pythonChanged(venvPython(ctx)));
    const nvidia = r.installed.filter((p) => p.name.startsWith('nvidia-'));
    return {
      summary: `${r.installed.length} packages (${nvidia.length} nvidia-* wheels${r.wheelBytes ? `, ${formatBytes(r.wheelBytes)}` : ''})`,
      evidence: [...nvidia.filter((p) => /cudnn|cuda-runtime/.test(p.name)).map((p) => `${p.name} ${p.version}`), ...r.warnings],
    };
  },
};

export const wheelLoaderPathStep: Step<PipPlanContext> = {
  id: 'wheel-loader-path',
  title: 'Put the CUDA wheels on the loader path',
  async check(ctx) {
    const facts = await venvFacts(ctx);
    if (!installed(facts, pinnedVersion(ctx))) {
      // Before pip has run, the known facts about this TF decide; verify catches a surprise.
      const fact = wheelLoaderFact(ctx.tf);
      return fact?.need === 'needed' ? { done: false, reason: `TensorFlow ${ctx.tf}: ${fact.why}` } : { done: true, reason: `TensorFlow ${ctx.tf} finds its wheels by itself (RUNPATH)` };
    }
    const plan = planWheelLibraryFix(facts!);
    if (plan.alreadyApplied) return { done: true, reason: `already in ${plan.activateScript}` };
    return plan.needed ? { done: false, reason: plan.why[0] } : { done: true, reason: `TensorFlow ${facts!.tensorflow!.version} finds its wheels by itself` };
  },
  async run(ctx, io) {
    const facts = await venvFacts(ctx);
    if (!facts) throw new CudawizError(`${ctx.venvDir} has no Python that runs.`, { fix: `Remove ${ctx.venvDir} and run again.` });
    const plan = planWheelLibraryFix(facts);
    if (plan.alreadyApplied) return { summary: `already in ${plan.activateScript}` };
    if (!plan.needed) return { summary: 'not needed: TensorFlow finds its wheels by itself' };
    if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: `Add the ${plan.dirs.length} CUDA wheel folders to LD_LIBRARY_PATH in ${plan.activateScript}?`, flag: '--configure-env yes' });
    if (ctx.configureEnv === 'no') {
      for (const l of plan.lines) io.log(l);
      return { summary: `left as it is (--configure-env no); append these lines to ${plan.activateScript} yourself:`, evidence: plan.lines };
    }
    const r = applyWheelLibraryFix(plan, { consent: true });
    return { summary: r.applied ? `${plan.dirs.length} folders added to ${plan.activateScript} (recorded in ${r.recordFile} for undo)` : 'nothing to change', evidence: plan.why };
  },
  accept(ctx, answer) {
    ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
  },
};

export const pipVerifyStep: Step<PipPlanContext> = {
  id: 'verify',
  title: 'Verify: TensorFlow sees the GPU',
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
    const evidence = tf.imported ? [`TensorFlow ${tf.version}: ${tf.gpus.length} GPU(s)${tf.gpus.length ? ` (${tf.gpus.join(', ')})` : ''}`, ...problems.map((p) => `${p.line} — ${p.meaning}`)] : [tf.error ?? 'import failed'];
    if (tf.imported && tf.gpus.length > 0 && problems.length === 0) return { summary: evidence[0], evidence: [`activate it with: source ${path.join(venvBinDir(ctx.host.os, ctx.venvDir), 'activate')}`] };
    const wheelFix = facts ? planWheelLibraryFix(facts, { importLog: tf.log }) : undefined;
    const fix = wheelFix?.needed && !wheelFix.alreadyApplied
      ? `The wheel folders are off the loader path: cudawiz install --tf ${ctx.tf} --route pip --venv ${ctx.venvDir} --yes`
      : problems[0]?.fix ?? (tf.imported ? `cudawiz doctor --tf ${ctx.tf} --python ${venvPython(ctx)} shows what is missing.` : `pip install --force-reinstall "${andCudaRequirement(ctx.catalog, ctx.tf)}" in ${ctx.venvDir}`);
    throw new CudawizError(tf.imported ? `TensorFlow ${tf.version} imports but sees no GPU${problems.length ? `: ${problems[0].meaning}` : ''}` : `TensorFlow does not import: ${tf.error ?? 'unknown error'}`, { fix, code: 'verify-failed', details: { evidence } });
  },
};

export function pipRouteSteps(): Step<PipPlanContext>[] {
  return [pipPreflightStep, venvStep, pipInstallStep, wheelLoaderPathStep, pipVerifyStep];
}
