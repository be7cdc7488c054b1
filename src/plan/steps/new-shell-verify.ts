// Repair's proof: the doctor's probe and verdicts, run with the environment a new shell gets.
import { diagnose } from '../../doctor/diagnose.js';
import { newShellHost } from '../../env/new-shell.js';
import { CudawizError } from '../../errors.js';
import { cliText } from '../../i18n/cli.js';
import { remediesText as R } from '../../i18n/remedies.js';
import { probeMachine } from '../../probe/index.js';
import { resolveLibrary } from '../../probe/resolution.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';

/**
 * Passes only when no failure is left for this TF (what the plan left to the user aside); its evidence
 * is the file each library loads from there.
 */
export const newShellVerifyStep = (leftToUser: ReadonlySet<string> = new Set()): Step<PlanContext> => ({
  id: 'verify',
  get title() {
    return R.newShellVerify;
  },
  changesMachine: false,
  check: async () => ({ done: false }),
  async run(ctx) {
    // The one model of a new shell (src/env/new-shell.ts): the same one verify and the env step use.
    const shell = await newShellHost(ctx.host);
    const facts = shell.changed ? await probeMachine(shell.host, { cudaRoot: ctx.root, catalog: ctx.catalog }) : await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog });
    const findings = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os });
    const evidence = ctx.req.libraries.map((l) => {
      const w = resolveLibrary(facts.search, l.file).winner;
      return w ? R.loadsIn(l.file, w.dir) : R.loadsNowhere(l.file);
    });
    // What the plan left to the user (listed above) is theirs to fix; everything else must pass.
    const failed = findings.filter((f) => f.status === 'fail' && !leftToUser.has(f.id));
    if (failed.length) throw new CudawizError(cliText.semicolons(failed.map((f) => f.title)), { code: 'verify-failed', fix: failed[0].fix ?? undefined, details: { evidence } });
    return { summary: R.newShellPasses(ctx.tf), evidence };
  },
});
