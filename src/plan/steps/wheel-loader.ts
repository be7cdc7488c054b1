// A venv's nvidia-* wheel folders on its loader path: the marked block in its bin/activate (journalled,
// so rollback takes it back), asked through the one consent step. One step for both plans that make it:
// the pip route's (from the venv as it is after pip ran) and repair's (from the doctor's facts).
import type { Finding } from '../../doctor/finding.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { MachineFacts } from '../../probe/types.js';
import type { WheelLibraryFix } from '../../wheels/index.js';
import type { PlanContext } from '../context.js';
import type { Step, StepDone } from '../runner.js';
import { applyVenvFixJournalled } from '../venv-fix.js';
import type { StepCheck } from '../will-stop.js';
import { consentStep } from './consent.js';
import { titled } from './repair-stop.js';

type Applied = Awaited<ReturnType<typeof applyVenvFixJournalled>>;

export interface WheelLoaderSpec<C extends PlanContext> {
  title: string | (() => string);
  check(ctx: C): Promise<StepCheck>;
  /** The fix to make now, or the step's answer where there is none to make (already in place, not needed). */
  fix(ctx: C): Promise<WheelLibraryFix | StepDone>;
  question(fix: WheelLibraryFix): string;
  /** Why, as the journal records it. */
  why(fix: WheelLibraryFix): string;
  /** The summary when --configure-env no leaves it to the user. */
  left(fix: WheelLibraryFix): string;
  applied(fix: WheelLibraryFix, r: Applied): StepDone;
}

const isFix = (x: WheelLibraryFix | StepDone): x is WheelLibraryFix => 'lines' in x && 'dirs' in x;

export function wheelLoaderStep<C extends PlanContext>(spec: WheelLoaderSpec<C>): Step<C> {
  return consentStep<C>({
    id: 'wheel-loader-path',
    title: spec.title,
    consent: 'configureEnv',
    check: (ctx) => spec.check(ctx),
    async prepare(ctx) {
      const fix = await spec.fix(ctx);
      if (!isFix(fix)) return { done: fix };
      return {
        change: {
          question: spec.question(fix),
          lines: fix.lines,
          leftSummary: spec.left(fix),
          apply: async () => spec.applied(fix, await applyVenvFixJournalled(ctx.host, fix, spec.why(fix))),
        },
      };
    },
  });
}

/** Repair's: the venv's wheel folders on its loader path, from the doctor's facts. */
export function wheelLoaderPathRemedy(facts: MachineFacts, fixes: Finding[]): Step<PlanContext> | undefined {
  const fix = facts.pip?.fix;
  if (!fix) return undefined;
  const what = R.loadOrderStep(fix.missingDirs.join(', ') || fix.dirs.join(', '));
  return wheelLoaderStep({
    title: titled(what, fixes),
    check: async () => (fix.alreadyApplied ? { done: true, reason: R.loadOrderNothing } : { done: false, reason: R.loadOrderWill(fix.activateScript ?? '') }),
    fix: async () => fix,
    question: (f) => R.askConsent(f.activateScript ?? ''),
    why: () => what,
    left: () => R.leftToYou,
    applied: (f, r) => ({ summary: R.loadOrderDone(r.applied ? 1 : 0), evidence: [f.activateScript ?? '', r.recordFile ?? ''].filter(Boolean) }),
  });
}
