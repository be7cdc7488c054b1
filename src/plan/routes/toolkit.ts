// The installer route: NVIDIA's CUDA installer into the system, cuDNN copied into the toolkit, the
// loader path, verify. Also what repair falls back to: its steps skip what is healthy.
import { requireInstallPermission } from '../../cuda/elevation.js';
import { toolkitState } from '../../cuda/toolkit-state.js';
import { CudawizError } from '../../errors.js';
import { stepsText } from '../../i18n/steps.js';
import { verifySetup } from '../../verify/index.js';
import { chosenPlan } from '../chosen.js';
import { createPlanContext, cudnnTargetDir, type PlanContext } from '../context.js';
import type { Finding } from '../../doctor/finding.js';
import { toolkitInUse } from '../../doctor/toolkit-lookup.js';
import type { MachineFacts } from '../../probe/types.js';
import { repairPlanFor } from '../repair.js';
import type { Step } from '../runner.js';
import { downloadCudaStep, installCudaStep, toolkitComplete } from '../steps/cuda-installer.js';
import { cudnnInToolkit, importCudnnStep, obtainCudnnStep } from '../steps/cudnn.js';
import { envStep } from '../steps/env.js';
import { blockerLines, preflightStep } from '../steps/preflight.js';
import { pythonStep } from '../steps/python.js';
import { spaceStep } from '../steps/space.js';
import { verifiedOrThrow, verifyStep, verifyTarget } from '../steps/verify.js';
import { routeFacts } from '../../routes/index.js';
import { targetRoute, type PlanMachine, type PlanTarget } from '../target.js';
import type { Route } from './route.js';

export const toolkitPreflightStep = preflightStep<PlanContext, undefined>({
  title: () => stepsText.checkMachine,
  before: (ctx) =>
    ctx.req.gpuSupported
      ? undefined
      : {
          reason: stepsText.noGpuOnWindows(ctx.tf),
          error: new CudawizError(stepsText.noGpuOnWindowsError(ctx.tf), { code: 'no-gpu-on-windows', fix: ctx.req.alternatives.map((a) => `${a.title}: ${a.detail}`).join('  |  ') }),
        },
  laysToolkitIn: (ctx) => ctx.toolkitDir,
  look: () => undefined,
  ready: () => stepsText.machineLooksRight,
  async passed(ctx, facts, _look, shown) {
    const state = await toolkitState(ctx.os, ctx.catalog, ctx.toolkitDir, ctx.cuda);
    if (state.state !== 'complete') await requireInstallPermission(ctx.host, ctx.toolkitDir, ctx.command);
    const gpu = facts.gpu.gpus[0];
    return { summary: gpu ? stepsText.machineSummary(gpu.name, facts.gpu.driver.version ?? '?') : stepsText.ok, evidence: blockerLines(shown) };
  },
});

/** The machine's loader path, for everyone where cudawiz runs as root. */
export const toolkitEnvStep = envStep<PlanContext>({
  title: () => stepsText.makeFindable,
  question: (targets, cuda) => stepsText.envQuestion(targets, cuda),
  leftAsIs: () => stepsText.leftAsIs,
  applied: (plan, r) => ({ summary: stepsText.changesRecorded(r.applied.length), evidence: [...plan.notes, ...r.ldconfigLines] }),
});

/** The plan's downloads and disk, from the same checks the download steps make. */
export const toolkitSpaceStep = spaceStep(async (ctx) => ({ cuda: !(await toolkitComplete(ctx)), cudnn: !(await cudnnInToolkit(ctx)) }));

export const toolkitVerifyStep = verifyStep<PlanContext>(() => stepsText.verify, async (ctx) => verifiedOrThrow(await verifySetup(verifyTarget(ctx))));

/** check → Python → space → download CUDA → install CUDA → obtain cuDNN → import cuDNN → loader path → verify. */
export function toolkitSteps(): Step<PlanContext>[] {
  return [toolkitPreflightStep, pythonStep, toolkitSpaceStep, downloadCudaStep, installCudaStep, obtainCudnnStep, importCudnnStep, toolkitEnvStep, toolkitVerifyStep];
}

/**
 * TF's CUDA libraries load from a toolkit that is not the folder this route installs (a distro's, or
 * another minor of TF's CUDA major): the doctor's toolkit finding passes on it. TF's own folder is left
 * to the route's steps, which skip what is healthy there.
 */
function servedByAnotherToolkit(findings: readonly Finding[], facts: MachineFacts, ctx: PlanContext): boolean {
  const used = toolkitInUse(facts, ctx.req);
  return findings.find((f) => f.id === 'toolkit')?.status === 'pass' && Boolean(used) && (used!.layout === 'distro packages' || (!used!.redist && used!.path !== ctx.toolkitDir));
}

/**
 * Whether the installer route, for the target's TF on this machine, would plan from the findings (TF can
 * load another toolkit's CUDA): then it brings only cuDNN, and it is the recommended route, with that size.
 * `cudaRoot`: where the route would install (--cuda-root), else the default.
 */
export function toolkitServedElsewhere(machine: PlanMachine, target: PlanTarget, cudaRoot?: string): boolean {
  if (!target.facts || !target.findings || !targetRoute(target, 'toolkit').available) return false;
  const ctx = createPlanContext(machine.catalog, machine.host, { tf: target.tf, configureEnv: 'no', command: 'cudawiz', cudaRoot }, target);
  return servedByAnotherToolkit(target.findings, target.facts, ctx);
}

export const toolkitRoute: Route = {
  ...routeFacts('toolkit'),
  offered: (target) => targetRoute(target, 'toolkit').available,
  repairs: () => true,
  plan(machine, request, target) {
    const { catalog, host } = machine;
    const ctx = createPlanContext(catalog, host, { ...request.options, tf: request.tf }, target);
    const { facts, findings } = target;
    if (facts && findings) {
      // install where TF can load another toolkit's CUDA (apt's in /usr; 11.8 for TF 2.11): never
      // NVIDIA's installer beside it, only what is missing, planned from the findings as repair plans it.
      const served = request.mode === 'install' && servedByAnotherToolkit(findings, facts, ctx);
      if (request.mode === 'repair' || served) {
        // Where cuDNN goes is settled now, in the context the plan runs with: the lock names that folder.
        const { ctx: settled, steps } = repairPlanFor(findings, ctx, toolkitSteps(), facts);
        return chosenPlan('toolkit', request.mode, settled, steps, cudnnTargetDir(settled));
      }
    }
    return chosenPlan('toolkit', request.mode, ctx, toolkitSteps());
  },
};
