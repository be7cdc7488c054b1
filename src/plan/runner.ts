// One runner for every plan: checks which steps are already done, runs the rest in order, emits
// typed events, stops cleanly on abort, and asks (wizard) or stops with exit 3 (headless) when a
// step needs the user.
import { CudawizError, EXIT } from '../errors.js';
import { describeFsError } from '../fs-errors.js';
import type { InputNeed, Progress, RunnerEvent } from './events.js';
import { stepsText } from '../i18n/steps.js';
import { planEvent, type StepCheck } from './will-stop.js';

/** A yes to a question (NeedsInput's, or a command's [y/N]), typed or given as a flag value: y, yes, true, 1. */
export const saidYes = (answer: string): boolean => /^(y|yes|true|1)$/i.test(answer.trim());

export class NeedsInput extends Error {
  constructor(readonly need: InputNeed) {
    super(need.kind === 'elevation' ? need.message : need.kind === 'confirm' ? need.question : `Waiting for ${need.file}`);
    this.name = 'NeedsInput';
  }
}

export interface StepIO {
  signal: AbortSignal;
  progress(p: Progress): void;
  log(line: string): void;
}

export interface StepDone {
  summary?: string;
  evidence?: string[];
  /** What the step listed is the user's to do before TensorFlow works: the run ends "waiting on you" (exit 3), not "done". */
  leftToUser?: boolean;
}

export interface Step<C> {
  id: string;
  title: string;
  /** Already true on this machine? Re-runs skip finished work through this. `stop`: the run would stop here (will-stop.ts). */
  check(ctx: C): Promise<StepCheck>;
  run(ctx: C, io: StepIO): Promise<StepDone | void>;
  /** Takes the user's answer to a NeedsInput this step raised; the runner then runs the step again. */
  accept?(ctx: C, answer: string): void;
  /**
   * false: the step only looks (a preflight, a verify, a stop, a listing) — a plan made of others'
   * steps (repair taking a route's) leaves it out, and it is never what a run asks consent for.
   */
  changesMachine?: boolean;
}

export interface RunOptions {
  signal: AbortSignal;
  onEvent(event: RunnerEvent): void;
  dryRun?: boolean;
  /** Present in the wizard: resolves with the user's answer, or undefined to stop. */
  ask?(need: InputNeed, stepId: string): Promise<string | undefined>;
}

export interface RunResult {
  ok: boolean;
  exitCode: number;
  message?: string;
}

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error as Error)?.name === 'AbortError';
}

export async function runPlan<C>(steps: Step<C>[], ctx: C, options: RunOptions): Promise<RunResult> {
  const { signal, onEvent } = options;
  const finish = (r: RunResult): RunResult => {
    onEvent({ type: 'result', ...r });
    return r;
  };
  const checks: StepCheck[] = [];
  for (const step of steps) {
    try {
      checks.push(await step.check(ctx));
    } catch (error) {
      checks.push({ done: false, reason: stepsText.couldNotCheck((error as Error).message) });
    }
  }
  const plan = planEvent(steps, checks);
  onEvent(plan);
  // A plan that will stop is a problem found, even when nothing runs: exit 1, not "this would work".
  if (options.dryRun) return finish(plan.stop ? { ok: false, exitCode: EXIT.problems, message: stepsText.dryRun } : { ok: true, exitCode: EXIT.ok, message: stepsText.dryRun });

  let waiting = false;
  for (const [i, step] of steps.entries()) {
    if (checks[i].done) continue;
    if (signal.aborted) return finish({ ok: false, exitCode: EXIT.interrupted, message: 'interrupted' });
    onEvent({ type: 'step-start', id: step.id });
    const io: StepIO = {
      signal,
      progress: (progress) => onEvent({ type: 'progress', id: step.id, progress }),
      log: (line) => onEvent({ type: 'log', id: step.id, line }),
    };
    for (;;) {
      try {
        const { leftToUser, ...done } = (await step.run(ctx, io)) ?? {};
        if (leftToUser) waiting = true;
        onEvent({ type: 'step-done', id: step.id, ...done });
        break;
      } catch (error) {
        if (error instanceof NeedsInput) {
          onEvent({ type: 'needs-input', id: step.id, need: error.need });
          const answer = options.ask && !signal.aborted ? await options.ask(error.need, step.id) : undefined;
          if (answer !== undefined && step.accept) {
            step.accept(ctx, answer);
            onEvent({ type: 'step-start', id: step.id });
            continue;
          }
          if (signal.aborted) return finish({ ok: false, exitCode: EXIT.interrupted, message: 'interrupted' });
          return finish({ ok: false, exitCode: EXIT.needsUser, message: error.message });
        }
        if (isAbort(error, signal)) {
          // A service that says what state it left things in (a partial toolkit) is worth showing.
          const said = error instanceof CudawizError && error.exitCode === EXIT.interrupted ? error : undefined;
          onEvent({ type: 'step-failed', id: step.id, message: said?.message ?? stepsText.interruptedContinue, fix: said?.fix });
          return finish({ ok: false, exitCode: EXIT.interrupted, message: 'interrupted' });
        }
        const mapped = describeFsError(error);
        const e = mapped instanceof CudawizError ? mapped : undefined;
        onEvent({
          type: 'step-failed',
          id: step.id,
          message: (mapped as Error).message,
          fix: e?.fix,
          logFile: typeof e?.options.details?.logFile === 'string' ? (e.options.details.logFile as string) : undefined,
        });
        return finish({ ok: false, exitCode: e?.exitCode ?? EXIT.problems, message: (mapped as Error).message });
      }
    }
  }
  // Everything cudawiz may change is done, and the plan listed what only the user can do: said, exit 3.
  return finish(waiting ? { ok: true, exitCode: EXIT.needsUser, message: stepsText.doneLeftToYou } : { ok: true, exitCode: EXIT.ok });
}
