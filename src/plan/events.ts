// The runner's vocabulary: the events it emits and the state they fold into. The wizard, the plain
// reporter and --json all read this one state (or the events), so they cannot disagree.
export type StepStatus = 'pending' | 'skipped' | 'running' | 'waiting' | 'done' | 'failed' | 'planned';

export interface Progress {
  bytes: number;
  total?: number;
  /** bytes per second */
  speed?: number;
  /** seconds left */
  eta?: number;
  resumedFrom?: number;
  unit?: 'bytes' | 'files';
}

export type InputNeed =
  | { kind: 'cudnn-archive'; file: string; page: string; downloadsDir: string; why: string; candidates?: string[] }
  | { kind: 'confirm'; question: string; flag: string }
  | { kind: 'elevation'; message: string; fix: string };

/** Where a plan will stop, from its preview: the step, what stops it and the fix (plan.stop in --json). */
export interface PlanStop {
  step: string;
  title: string;
  /** English id: the code of the error the step's run would throw (preflight-no-driver, not-enough-space…). */
  code: string;
  message: string;
  fix?: string;
}

export type RunnerEvent =
  /**
   * `notReached`: a step still to do after the step the plan will stop at. `changesMachine`: the step's
   * own word (Step.changesMachine; false: it only looks), what a command asks consent for; the runner
   * always says it (absent only in an event made by hand, and then read as true, as Step's is).
   */
  | { type: 'plan'; steps: { id: string; title: string; done: boolean; changesMachine?: boolean; reason?: string; notReached?: true }[]; stop?: PlanStop }
  | { type: 'step-start'; id: string }
  | { type: 'progress'; id: string; progress: Progress }
  | { type: 'log'; id: string; line: string }
  | { type: 'needs-input'; id: string; need: InputNeed }
  | { type: 'step-done'; id: string; summary?: string; skipped?: boolean; evidence?: string[] }
  | { type: 'step-failed'; id: string; message: string; fix?: string; logFile?: string }
  | { type: 'result'; ok: boolean; exitCode: number; message?: string };

export interface StepState {
  id: string;
  title: string;
  status: StepStatus;
  reason?: string;
  summary?: string;
  evidence?: string[];
  progress?: Progress;
  /** The last few lines of a child's output. */
  log: string[];
  error?: { message: string; fix?: string; logFile?: string };
  need?: InputNeed;
  /** Still to do, but after the step the plan will stop at. */
  notReached?: boolean;
}

export interface RunnerState {
  steps: StepState[];
  active?: string;
  result?: { ok: boolean; exitCode: number; message?: string };
  /** The plan will stop here (its preview said so): no "Go ahead" over it. */
  stop?: PlanStop;
}

export const LOG_TAIL = 6;

export const initialRunnerState: RunnerState = { steps: [] };

function patch(state: RunnerState, id: string, change: (s: StepState) => StepState): RunnerState {
  return { ...state, steps: state.steps.map((s) => (s.id === id ? change(s) : s)) };
}

export function reduceRunner(state: RunnerState, event: RunnerEvent): RunnerState {
  switch (event.type) {
    case 'plan':
      return {
        steps: event.steps.map((s) => ({ id: s.id, title: s.title, status: s.done ? 'skipped' : 'pending', reason: s.reason, log: [], ...(s.notReached ? { notReached: true } : {}) })),
        ...(event.stop ? { stop: event.stop } : {}),
      };
    case 'step-start':
      return { ...patch(state, event.id, (s) => ({ ...s, status: 'running', need: undefined })), active: event.id };
    case 'progress':
      return patch(state, event.id, (s) => ({ ...s, progress: event.progress }));
    case 'log':
      return patch(state, event.id, (s) => ({ ...s, log: [...s.log, event.line].slice(-LOG_TAIL) }));
    case 'needs-input':
      return patch(state, event.id, (s) => ({ ...s, status: 'waiting', need: event.need }));
    case 'step-done':
      return {
        ...patch(state, event.id, (s) => ({ ...s, status: event.skipped ? 'skipped' : 'done', summary: event.summary, evidence: event.evidence, need: undefined })),
        active: undefined,
      };
    case 'step-failed':
      return {
        ...patch(state, event.id, (s) => ({ ...s, status: 'failed', error: { message: event.message, fix: event.fix, logFile: event.logFile } })),
        active: undefined,
      };
    case 'result':
      return { ...state, active: undefined, result: { ok: event.ok, exitCode: event.exitCode, message: event.message } };
  }
}
