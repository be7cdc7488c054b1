// Which Python will take this TensorFlow: pip cannot install TF 2.3 into Python 3.11, so a plan that
// installs CUDA 10.1 for it must say so before the download, name an interpreter that fits, and how
// to make a virtual environment with it.
import { cliText } from '../../i18n/cli.js';
import { planText } from '../../i18n/plan.js';
import { venvProgram } from '../../platform.js';
import { locateProgram } from '../../probe/commands.js';
import { machineFs } from '../../probe/machine-fs.js';
import { inRange, majorMinor, parseDotted } from '../../version.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';

export interface PythonFit {
  fits: boolean;
  /** The probed interpreter's version; undefined when none was found. */
  version?: string;
  range: string;
  /** When it does not fit: an interpreter on PATH that does (python3.8), if any. */
  other?: string;
}

/** Whether `version` (3.11.7) can take a TF whose wheels exist for min–max. */
export function pythonFits(version: string, range: { min: string; max: string }): boolean {
  return inRange(version, range.min, range.max);
}

/** The minor versions from max down to min: 3.8, 3.7, 3.6, 3.5. */
function minorsDown(min: string, max: string): string[] {
  const [maj, lo] = parseDotted(min) ?? [3, 0];
  const hi = (parseDotted(max) ?? [3, 0])[1] ?? 0;
  const out: string[] = [];
  for (let m = hi; m >= (lo ?? 0); m--) out.push(`${maj}.${m}`);
  return out;
}

export async function pythonFit(ctx: PlanContext): Promise<PythonFit> {
  const { min, max } = ctx.req.python;
  const range = min === max ? min : `${min}–${max}`;
  const facts = (await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog })).python;
  const version = facts.state === 'found' ? facts.version : undefined;
  if (version && pythonFits(version, { min, max })) return { fits: true, version, range };
  const mfs = machineFs(ctx.os, ctx.host.fsRoot);
  // Windows: the py launcher picks a version (py -3.8); Linux: python3.8 on PATH.
  const other = ctx.os === 'windows' ? undefined : minorsDown(min, max).map((v) => `python${v}`).find((n) => locateProgram(ctx.host, mfs, n));
  return { fits: false, version, range, other };
}

/** The lines that say which Python and how: "use python3.8: python3.8 -m venv …". */
export function pythonAdvice(ctx: PlanContext, fit: PythonFit): string {
  const venv = `.venv-tf${majorMinor(ctx.req.row)}`;
  const pipExe = venvProgram(ctx.os, venv, 'pip');
  const pip = ctx.req.pip;
  if (fit.fits) return planText.pythonFits(fit.version!, ctx.tf, fit.range);
  const head = fit.version ? planText.pythonTooNew(fit.version, ctx.tf, fit.range) : planText.pythonNone(fit.range, majorMinor(ctx.req.row));
  if (fit.other) return cliText.semicolons([head, planText.pythonUse(fit.other, venv)]);
  const want = minorsDown(ctx.req.python.min, ctx.req.python.max)[0];
  const cmd = ctx.os === 'windows' ? `py -${want}` : `python${want}`;
  // No "your distribution's python3.8" on Windows: python.org's installer and the py launcher.
  const howTo = ctx.os === 'windows' ? planText.pythonNoneFoundWindows : planText.pythonNoneFound;
  return cliText.semicolons([head, howTo(fit.range, want, cmd, venv, pipExe, pip)]);
}

export const pythonStep: Step<PlanContext> = {
  id: 'python',
  get title() {
    return planText.stepPython;
  },
  async check(ctx) {
    const fit = await pythonFit(ctx);
    return { done: fit.fits, reason: pythonAdvice(ctx, fit) };
  },
  // Nothing is installed here: the step says which Python and how, and the rest of the plan goes on
  // (CUDA and cuDNN serve whichever interpreter is used).
  async run(ctx) {
    const fit = await pythonFit(ctx);
    const venv = `.venv-tf${majorMinor(ctx.req.row)}`;
    return { summary: pythonAdvice(ctx, fit), evidence: fit.other ? [planText.pythonThen(venvProgram(ctx.os, venv, 'pip'), ctx.req.pip)] : [] };
  },
};
