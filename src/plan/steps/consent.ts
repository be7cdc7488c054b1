// The one consent protocol for every change the user must agree to (the loader path, a venv's activate
// block, a loader file for every program, a package manager's command): `ask` — the question (the wizard
// or a terminal answers it; headless, the run waits on the flag, exit 3); `no` — the lines for the user
// to run themselves, nothing changed; `yes` — applied, journalled for rollback. A step says what it would
// change (`prepare`); this decides whether it happens, in one place.
import type { EnvConsent } from '../../env/index.js';
import type { PlanContext } from '../context.js';
import { NeedsInput, saidYes, type Step, type StepDone, type StepIO } from '../runner.js';
import type { StepCheck } from '../will-stop.js';

/** Which of the user's consents a change needs: --configure-env (files of theirs), --package-manager (a manager's command). */
export type ConsentKind = 'configureEnv' | 'packageManager';

const FLAG: Record<ConsentKind, string> = { configureEnv: '--configure-env yes', packageManager: '--package-manager yes' };

/** A change that waits on consent: the question, what a no leaves to the user, what a yes does. */
export interface Consented {
  question: string;
  /** On a no: the lines the user runs themselves (logged), and the step's summary. */
  lines: string[];
  leftSummary: string;
  /** On a no, evidence beyond the lines (the line for this shell). */
  leftEvidence?: string[];
  /** On a no instead of listing the lines (a stop that had no workaround ends the run). */
  onNo?: () => StepDone;
  /** On a yes, before the question would be asked (apt needs root: the sudo line, exit 3). */
  beforeYes?: () => Promise<void>;
  /** On a yes: apply and journal. */
  apply(io: StepIO): Promise<StepDone>;
}

/** What `prepare` finds: nothing to ask (a finished answer), or a change that waits on consent. */
export type Prepared = { done: StepDone } | { change: Consented };

export interface ConsentStepSpec<C extends PlanContext> {
  id: string;
  title: string | (() => string);
  consent: ConsentKind;
  check(ctx: C): Promise<StepCheck>;
  /** What this step would change now; throws where the run must stop (a refusal, an unsafe folder). */
  prepare(ctx: C, io: StepIO): Promise<Prepared>;
}

/** Asks, lists or applies one prepared change, by the context's consent. */
export async function byConsent(consent: EnvConsent | undefined, kind: ConsentKind, change: Consented, io: StepIO): Promise<StepDone> {
  const given = consent ?? 'no';
  if (given === 'ask') throw new NeedsInput({ kind: 'confirm', question: change.question, flag: FLAG[kind] });
  if (given === 'no') {
    if (change.onNo) return change.onNo();
    for (const l of change.lines) io.log(l);
    return { summary: change.leftSummary, evidence: [...change.lines, ...(change.leftEvidence ?? [])] };
  }
  await change.beforeYes?.();
  return change.apply(io);
}

/** A step that changes the machine only with the user's consent; its answer sets that consent for the rest of the run. */
export function consentStep<C extends PlanContext>(spec: ConsentStepSpec<C>): Step<C> {
  return {
    id: spec.id,
    get title() {
      return typeof spec.title === 'string' ? spec.title : spec.title();
    },
    changesMachine: true,
    check: (ctx) => spec.check(ctx),
    async run(ctx, io) {
      const p = await spec.prepare(ctx, io);
      if ('done' in p) return p.done;
      return byConsent(ctx[spec.consent], spec.consent, p.change, io);
    },
    accept(ctx, answer) {
      ctx[spec.consent] = saidYes(answer) ? 'yes' : 'no';
    },
  };
}

/** The accept of a step that keeps its own run but shares the protocol's answer (the route's env and pip steps). */
export const acceptConsent =
  (kind: ConsentKind) =>
  (ctx: PlanContext, answer: string): void => {
    ctx[kind] = saidYes(answer) ? 'yes' : 'no';
  };
