// The pip route's own steps: the virtual environment, pip install "tensorflow[and-cuda]==X" with its
// output as progress, the wheel folders on the loader path where that TF needs it (with consent), and
// verify with the venv's python run directly from a new shell, not activated (#39.5).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { andCudaPythonProblem, andCudaRequirement } from '../../catalog/queries.js';
import { explainLog } from '../../doctor/explain.js';
import { CudawizError, EXIT } from '../../errors.js';
import { formatBytes } from '../../format.js';
import { pipText } from '../../i18n/pip.js';
import { bundleText } from '../../i18n/bundle.js';
import { cliText } from '../../i18n/cli.js';
import { pipIndexInUse } from '../../fetch/pip-index.js';
import { stepsText } from '../../i18n/steps.js';
import { verifyText } from '../../i18n/verify.js';
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
} from '../../pip/index.js';
import { pythonCommands, venvActivateScript, venvBinDir, venvProgram } from '../../platform.js';
import { importTensorflow } from '../../verify/tensorflow.js';
import { unactivatedVenvEnv } from '../../verify/unactivated-venv.js';
import type { PipPlanContext } from '../context.js';
import type { Step, StepIO } from '../runner.js';
import { verifyStep } from './verify.js';
import { wheelLoaderStep } from './wheel-loader.js';

/** "tensorflow[and-cuda]==2.16.1" → "2.16.1": the exact release pip pins. */
export function pinnedVersion(ctx: PipPlanContext): string {
  return andCudaRequirement(ctx.catalog, ctx.tf)!.split('==')[1];
}

export const venvPython = (ctx: PipPlanContext) => venvProgram(ctx.host.os, ctx.venvDir, 'python');

/** What pip put into the venv so far; undefined before the venv exists. */
async function venvFacts(ctx: PipPlanContext): Promise<PipCudaFacts | undefined> {
  if (!isVenv(ctx.host, ctx.venvDir)) return undefined;
  const facts = await probePipCuda(ctx.host, venvPython(ctx));
  return facts.ran ? facts : undefined;
}

const installed = (facts: PipCudaFacts | undefined, version: string) => facts?.tensorflow?.version === version && facts.packages.some((p) => p.component === 'cuda_runtime');

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

/** Which index pip will take the wheels from (PIP_INDEX_URL, a pip.conf, or PyPI), in the plan's words. */
function pipIndexLine(ctx: PipPlanContext): string {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const index = pipIndexInUse({ os: ctx.os, env: ctx.host.env, home: ctx.host.home, venvDir: ctx.venvDir, read });
  return bundleText.pipIndex(index.url, index.from, index.file);
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
    return { done: false, reason: cliText.semicolons([pipText.willPipInstall(String(andCudaRequirement(ctx.catalog, ctx.tf)), facts?.tensorflow?.version), pipIndexLine(ctx)]) };
  },
  async run(ctx, io) {
    const r = await pipInstallTensorflow(ctx.host, { venv: ctx.venvDir, catalog: ctx.catalog, tf: ctx.tf, signal: io.signal, onEvent: pipEventsToStep(io) }).finally(() => ctx.probes.pythonChanged(venvPython(ctx)));
    const nvidia = r.installed.filter((p) => p.name.startsWith('nvidia-'));
    return {
      summary: pipText.pipSummary(r.installed.length, nvidia.length, r.wheelBytes ? formatBytes(r.wheelBytes) : undefined),
      evidence: [pipIndexLine(ctx), ...nvidia.filter((p) => /cudnn|cuda-runtime/.test(p.name)).map((p) => `${p.name} ${p.version}`), ...r.warnings],
    };
  },
};

export const wheelLoaderPathStep: Step<PipPlanContext> = wheelLoaderStep<PipPlanContext>({
  title: () => pipText.stepLoaderPath,
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
  async fix(ctx) {
    const facts = await venvFacts(ctx);
    if (!facts) throw new CudawizError(pipText.noPythonRuns(ctx.venvDir), { fix: pipText.removeAndRunAgain(ctx.venvDir) });
    const plan = planWheelLibraryFix(facts);
    if (plan.alreadyApplied) return { summary: pipText.alreadyIn(plan.activateScript) };
    if (!plan.needed) return { summary: pipText.notNeeded };
    return plan;
  },
  question: (plan) => pipText.addQuestion(plan.dirs.length, plan.activateScript),
  why: (plan) => plan.why[0] ?? pipText.stepVerify,
  left: (plan) => pipText.leftAsIs(plan.activateScript),
  applied: (plan, r) => ({ summary: r.applied ? pipText.foldersAdded(plan.dirs.length, plan.activateScript, r.recordFile) : stepsText.nothingToChange, evidence: plan.why }),
});

/**
 * Judged once, the stricter way (#39.5): the venv's python run directly, as a new shell, cron or an IDE
 * runs it — no activation, so nothing on PATH or LD_LIBRARY_PATH that bin/activate adds. It passes
 * only where TF sees the GPU that way (the venv's loader file, or TF's own RUNPATH); an activated shell
 * then sees it too, since activation only adds folders. Where the wheel folders are only in
 * bin/activate, the failure says it holds only in an activated shell, and the fix covers both.
 */
export const pipVerifyStep = verifyStep<PipPlanContext>(() => pipText.stepVerify, async (ctx) => {
  const facts = await venvFacts(ctx);
  const python = venvPython(ctx);
  const env = await unactivatedVenvEnv(ctx.host, ctx.venvDir, facts?.libDirs ?? []);
  const tf = await importTensorflow({ ...ctx.host, env }, python, env);
  const problems = explainLog(ctx.catalog, tf.log, { os: ctx.os }).findings.filter((f) => f.severity === 'error');
  const evidence = tf.imported ? [pipText.tfGpus(tf.version, tf.gpus), ...problems.map((p) => pipText.logProblem(p.line, p.meaning))] : [tf.error ?? verifyText.importFailed];
  const judged = pipText.judgedUnactivated(python);
  if (tf.imported && tf.gpus.length > 0 && problems.length === 0) return { summary: evidence[0], evidence: [judged, pipText.activateWith(path.join(venvBinDir(ctx.host.os, ctx.venvDir), 'activate'))] };
  const wheelFix = facts ? planWheelLibraryFix(facts, { importLog: tf.log }) : undefined;
  // The block is in bin/activate but the loader file is not: an activated shell finds the wheels, a direct run does not.
  const onlyActivated = Boolean(tf.imported && wheelFix?.blockApplied && !wheelFix.loaderInPlace && wheelFix.dirs.length > 0);
  const fix = onlyActivated || (wheelFix?.needed && !wheelFix.alreadyApplied)
    ? pipText.offLoaderPath(ctx.tf, ctx.venvDir)
    : problems[0]?.fix ?? (tf.imported ? pipText.doctorShows(ctx.tf, python) : pipText.forceReinstall(andCudaRequirement(ctx.catalog, ctx.tf), ctx.venvDir));
  const message = onlyActivated
    ? pipText.onlyActivatedVerify(tf.version, venvActivateScript('linux', ctx.venvDir))
    : tf.imported ? pipText.seesNoGpu(tf.version, problems.length ? problems[0].meaning : undefined) : pipText.doesNotImport(tf.error);
  throw new CudawizError(message, { fix, code: 'verify-failed', details: { evidence: [judged, ...evidence] } });
});
