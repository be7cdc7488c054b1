// The verify step, once: never done ahead, it checks the result the way the route left it and fails
// with what went wrong. The route says what it verifies (the toolkit's layers, the venv's import).
import { CudawizError } from '../../errors.js';
import { cliText } from '../../i18n/cli.js';
import { planText } from '../../i18n/plan.js';
import { stepsText } from '../../i18n/steps.js';
import type { Host } from '../../host.js';
import type { LayerResult, VerifyTarget } from '../../verify/index.js';
import type { PlanContext } from '../context.js';
import type { Step, StepDone } from '../runner.js';

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

/** What a plan verifies: its toolkit for its TF, as `host` (a new shell's, where the route changed it) sees it. */
export function verifyTarget(ctx: PlanContext, host: Host = ctx.host): VerifyTarget {
  return { host, os: ctx.os, catalog: ctx.catalog, probes: ctx.probes, tf: ctx.tf, req: ctx.req, cuda: ctx.cuda, root: ctx.root, toolkitDir: ctx.toolkitDir };
}

export function verifyStep<C extends PlanContext>(title: () => string, verify: (ctx: C) => Promise<StepDone>): Step<C> {
  return {
    id: 'verify',
    get title() {
      return title();
    },
    changesMachine: false,
    check: async () => ({ done: false }),
    run: (ctx) => verify(ctx),
  };
}
