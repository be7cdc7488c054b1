// The remedy that replaces a stale copy through the package manager that owns it (conda, pip, apt),
// run only with the user's consent: --package-manager yes, or a yes to the question in the wizard or
// a terminal (never --yes alone). What the manager holds is read from it first and journalled, so
// `cudawiz rollback` runs the manager's own way back. A failure says what to do and changes nothing
// else: this step runs before any other step that changes the machine.
import type { PackageReplacement } from '../../doctor/cause.js';
import type { Finding } from '../../doctor/finding.js';
import { applyPackageChange, commandLine, envPlaces, managerProgram, readPackageState } from '../../env/index.js';
import { isElevated } from '../../cuda/elevation.js';
import { CudawizError } from '../../errors.js';
import { cliText } from '../../i18n/cli.js';
import { envText } from '../../i18n/env.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { PlanContext } from '../context.js';
import type { RepairItem } from '../remedies/types.js';
import { NeedsInput, type Step } from '../runner.js';
import { consentStep } from './consent.js';
import { stopError } from './repair-stop.js';

/**
 * One package manager command for the findings it fixes. `items` share the command; where they
 * were stops (no workaround exists), a no to the question ends the run as the stop would have.
 */
export function packageManagerStep(replace: PackageReplacement, items: RepairItem[], id = 'package-manager'): Step<PlanContext> {
  const fixes: Finding[] = items.map((i) => i.finding);
  const shown = commandLine(replace.run);
  const stops = items.filter((i) => i.action && i.why && !i.remedy);
  return consentStep({
    id,
    title: () => `${R.packageStep(shown)} — ${R.fixes(cliText.semicolons(fixes.map((f) => f.title)))}`,
    consent: 'packageManager',
    async check(ctx) {
      if (ctx.packageManager !== 'yes') return { done: false, reason: R.packageAsks };
      // A manager root will not run (another user can change it) stops the plan before anything changes: the dry run says so too.
      const refused = await managerProgram(ctx.host, replace).then(() => undefined, (error: unknown) => (error instanceof CudawizError && error.code === 'program-untrusted' ? error : undefined));
      return { done: false, reason: R.packageInstead(replace.manager), ...(refused ? { stop: refused } : {}) };
    },
    prepare: async (ctx) => ({
      change: {
        question: R.packageConsent(shown),
        lines: [replace.command],
        leftSummary: R.packageNotRun(replace.command),
        onNo() {
          if (stops.length) throw stopError(stops);
          return { summary: R.packageNotRun(replace.command), evidence: [replace.command] };
        },
        async beforeYes() {
          // apt changes the system: only root runs it; anyone else gets the sudo line and the run waits on them (exit 3).
          if (replace.manager === 'apt' && (await isElevated(ctx.host)) !== true) throw new NeedsInput({ kind: 'elevation', message: R.packageNeedsRoot(replace.command), fix: replace.command });
        },
        async apply(io) {
          await managerProgram(ctx.host, replace);
          const before = await readPackageState(ctx.host, replace);
          if (typeof before === 'string') throw new CudawizError(R.packageCannotRead(replace.manager, before), { code: 'package-manager-failed', fix: R.packageRunYourself(replace.command) });
          const journalFile = envPlaces({ host: ctx.host, root: ctx.host.fsRoot }).journalFile;
          io.log(shown);
          const r = await applyPackageChange(ctx.host, replace, before, journalFile, R.packageWhy(cliText.semicolons(fixes.map((f) => f.title))));
          const exit = r.failure ?? envText.exited(r.exitCode);
          if (!r.ok) {
            const what = r.journalled && r.undo ? R.packageFailedPartly(replace.manager, commandLine(r.undo)) : R.packageFailedNothing(replace.manager);
            throw new CudawizError(R.packageFailed(shown, exit), { code: 'package-manager-failed', fix: [what, ...r.tail.map((l) => `  ${l}`)].join('\n'), details: { exitCode: r.exitCode, tail: r.tail } });
          }
          ctx.replaced ??= new Set();
          for (const f of fixes) ctx.replaced.add(f.id);
          return { summary: R.packageDone(replace.manager), evidence: [exit, ...r.tail, r.undo ? R.rollbackRuns(commandLine(r.undo)) : R.noRollback(replace.manager)] };
        },
      },
    }),
  });
}

/** Without consent: the command listed with the finding it would fix, the workaround above having fixed it for now; nothing runs. */
export function packageLeftStep(replace: PackageReplacement, items: RepairItem[], id = 'package-manager-left'): Step<PlanContext> {
  const titles = cliText.semicolons(items.map((i) => i.finding.title));
  return {
    id,
    get title() {
      return R.packageLeftTitle(replace.command, titles);
    },
    changesMachine: false,
    check: async () => ({ done: false, reason: R.packageNotRun(replace.command) }),
    run: async () => ({ summary: R.packageNotRun(replace.command), evidence: [replace.command] }),
  };
}

/**
 * A workaround kept for a no to the package manager: it steps aside when the manager replaced every
 * stale copy it works around in this run.
 */
export function unlessReplaced(step: Step<PlanContext>, findingIds: string[]): Step<PlanContext> {
  return {
    id: step.id,
    get title() {
      return `${step.title} ${R.ifNo}`;
    },
    changesMachine: step.changesMachine,
    check: (ctx) => step.check(ctx),
    async run(ctx, io) {
      if (findingIds.every((id) => ctx.replaced?.has(id))) return { summary: R.notNeeded };
      return step.run(ctx, io);
    },
    ...(step.accept ? { accept: (ctx: PlanContext, answer: string) => step.accept!(ctx, answer) } : {}),
  };
}
