// The steps that can go into <Static>: the finished ones up to the first that is not, so the list
// only ever grows at its end (Static prints new items by position).
import type { RunnerState, StepState } from '../src/plan/events.js';

const FINISHED = new Set(['done', 'skipped', 'failed']);

export function finishedPrefix(runner: RunnerState): StepState[] {
  const out: StepState[] = [];
  for (const s of runner.steps) {
    if (!FINISHED.has(s.status)) break;
    out.push(s);
  }
  return out;
}
