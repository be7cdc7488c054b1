// The steps of a repair that change nothing: a stop that ends the run before anything changes (the
// actions, and why cudawiz will not take them), and what is left to the user, listed like any step.
import type { Finding } from '../../doctor/finding.js';
import { CudawizError } from '../../errors.js';
import { cliText } from '../../i18n/cli.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { PlanContext } from '../context.js';
import type { RepairItem } from '../remedies/types.js';
import type { Step } from '../runner.js';

/** A remedy step's title: what it does, and the findings it fixes. */
export const titled = (base: string, fixes: Finding[]): string => (fixes.length ? `${base} — ${R.fixes(cliText.semicolons(fixes.map((f) => f.title)))}` : base);

/** The error a stop ends the run with; the package manager's step raises it too on a no (Windows' conda Library\\bin). */
export function stopError(stops: RepairItem[]): CudawizError {
  return new CudawizError(cliText.semicolons(stops.map((s) => s.finding.title)), {
    code: 'repair-stop',
    fix: [...stops.map((s) => R.stopAction(s.action ?? '', s.why ?? '')), R.stopsBefore].join('\n'),
    details: { stops: stops.map((s) => ({ finding: s.finding.id, action: s.action, why: s.why, cause: s.finding.cause })) },
  });
}

/** Ends the run before any step changes anything: the actions, and why cudawiz will not take them. */
export function stopStep(stops: RepairItem[]): Step<PlanContext> {
  // One error for the plan's preview (a plan that will stop, plan/will-stop.ts) and the run.
  const stopped = () => stopError(stops);
  return {
    id: 'stop',
    get title() {
      return R.stopStep(cliText.semicolons(stops.map((s) => s.finding.title)));
    },
    changesMachine: false,
    check: async () => ({ done: false, reason: stops[0].action, stop: stopped() }),
    async run() {
      throw stopped();
    },
  };
}

/**
 * What repair lists and leaves to the user — actions that do not stop the remedies, and findings no
 * step fixes — shown in the plan like any step (text, --json, the wizard), changing nothing.
 */
export function leftToUserStep(items: RepairItem[]): Step<PlanContext> {
  const lines = items.map((i) => (i.stop ? R.leftStop(i.finding.title, i.action ?? '', i.why ?? '') : R.noRemedy(i.finding.title, i.finding.fix ?? '')));
  return {
    id: 'left-to-you',
    get title() {
      return R.leftToYouTitle(cliText.semicolons(items.map((i) => i.finding.title)));
    },
    changesMachine: false,
    check: async () => ({ done: false, reason: lines[0] }),
    // Only an action the user must take keeps TensorFlow from working; a finding listed with its fix alone does not end the run waiting.
    run: async () => ({ summary: R.leftToYouSummary(items.length), evidence: lines, ...(items.some((i) => i.stop) ? { leftToUser: true } : {}) }),
  };
}
