// A cuDNN-only repair's first line: why the CUDA TF loads already serves it (runtime-serving's rule, the
// doctor's own), so only cuDNN comes, with the full toolkit named as the alternative and its size.
import { routeTotal } from '../../bundle/describe.js';
import { routeFiles } from '../../routes/index.js';
import { servingRuntimeFor } from '../../doctor/runtime-serving.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { MachineFacts } from '../../probe/types.js';
import { loadRedistCatalog } from '../../redist/catalog.js';
import { major } from '../../version.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';

/** Changes nothing: done from the start. */
export function cudaServesStep(facts: MachineFacts, ctx: PlanContext): Step<PlanContext> | undefined {
  const s = servingRuntimeFor(ctx.catalog, facts, ctx.tf, ctx.os);
  if (!s || !ctx.req.cudnn) return undefined;
  const { runtime, served } = s;
  const how = served.how === 'exact' ? R.servesExactly : R.servesByMinorCompat(String(major(served.cuda)), served.cuda, served.driverMin);
  const title = R.keepCuda(runtime.version ?? runtime.majorMinor ?? '', runtime.toolkit ?? runtime.dir, ctx.tf, how, ctx.req.cudnn);
  return {
    id: 'cuda-serves',
    title,
    changesMachine: false,
    check: async () => ({ done: false, reason: fullToolkitAlternative(ctx) }),
    run: async () => ({ summary: R.cudaKept }),
  };
}

/** The full toolkit instead of the smallest change: the redist route's command and download, else the installer's size. */
function fullToolkitAlternative(ctx: PlanContext): string | undefined {
  try {
    const redist = routeFiles(ctx.catalog, loadRedistCatalog(), ctx.tf, ctx.os, 'redist');
    if (redist.available) return R.fullToolkitInstead(`cudawiz install --tf ${ctx.tf} --route redist`, routeTotal(redist));
    const toolkit = routeFiles(ctx.catalog, loadRedistCatalog(), ctx.tf, ctx.os, 'toolkit');
    return toolkit.available ? R.fullToolkitSize(ctx.cuda, routeTotal(toolkit)) : undefined;
  } catch {
    return undefined;
  }
}
