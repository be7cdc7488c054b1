// Headless renderers of runner events: plain lines (one per step, occasional percentages) or JSON
// lines (one event each, the last one the result). The plain lines read the state reduceRunner folds the
// events into, the very state the wizard's screens draw, so the two renderers cannot disagree.
import type { Output } from './output.js';
import { formatBytes } from '../format.js';
import { initialRunnerState, reduceRunner, type RunnerEvent, type RunnerState } from '../plan/events.js';
import { cliText } from '../i18n/cli.js';
import { stepsText } from '../i18n/steps.js';

export type Reporter = (event: RunnerEvent) => void;

export function jsonLinesReporter(write: (line: string) => void): Reporter {
  return (event) => write(JSON.stringify(event));
}

/** Percentages at most every 10 points, so a log stays readable. */
export function plainReporter(out: Output, options: { verbose?: boolean } = {}): Reporter {
  let state: RunnerState = initialRunnerState;
  const title = (id: string): string | undefined => state.steps.find((s) => s.id === id)?.title;
  // What this reporter has printed (not what the run is): the last percentage said per step.
  const lastPercent = new Map<string, number>();
  return (event) => {
    state = reduceRunner(state, event);
    switch (event.type) {
      case 'plan':
        out.line(out.bold(stepsText.plan));
        for (const s of event.steps) {
          const reason = s.reason ? out.dim(` — ${s.reason}`) : '';
          if (s.done) out.line(`  ${out.symbol('skip')} ${s.title}${out.dim(cliText.stepAside(stepsText.alreadyDone(s.reason)))}`);
          else if (s.notReached) out.line(`  ${out.symbol('skip')} ${s.title}${out.dim(cliText.stepAside(stepsText.notReached))}${reason}`);
          else out.line(`  ${out.symbol('info')} ${s.title}${reason}`);
        }
        break;
      case 'step-start':
        // With --verbose a step's output lines follow; say whose they are.
        if (options.verbose) out.line(out.dim(`  … ${title(event.id)}`));
        break;
      case 'progress': {
        const { bytes, total } = event.progress;
        if (!total) break;
        const pct = Math.floor((bytes / total) * 10) * 10;
        if (pct > (lastPercent.get(event.id) ?? -1) && pct < 100) {
          lastPercent.set(event.id, pct);
          const unit = event.progress.unit === 'files' ? stepsText.files(bytes, total) : stepsText.bytesOf(formatBytes(bytes), formatBytes(total));
          out.line(out.dim(`    ${cliText.stepProgress(String(title(event.id)), pct, unit)}`));
        }
        break;
      }
      case 'log':
        if (options.verbose) out.line(out.dim(`    | ${event.line}`));
        break;
      case 'needs-input': {
        const n = event.need;
        if (n.kind === 'cudnn-archive') {
          out.line(`${out.symbol('warn')} ${stepsText.waitingFor(String(title(event.id)), n.file)}`);
          out.line(`    ${n.why}`);
          out.line(`    ${stepsText.logInAt(n.page)}`);
          out.line(`    ${stepsText.runAgainWith(n.downloadsDir ? `${n.downloadsDir}/${n.file}` : n.file)}`);
        } else if (n.kind === 'confirm') {
          out.line(`${out.symbol('warn')} ${stepsText.passFlag(n.question, n.flag)}`);
        } else {
          out.line(`${out.symbol('fail')} ${n.message}`);
          out.line(`    → ${n.fix}`);
        }
        break;
      }
      case 'step-done':
        out.line(`${out.symbol(event.skipped ? 'skip' : 'pass')} ${event.summary ? cliText.stepSays(String(title(event.id)), event.summary) : title(event.id)}`);
        for (const e of event.evidence ?? []) out.line(out.dim(`    ${e}`));
        break;
      case 'step-failed':
        out.line(`${out.symbol('fail')} ${cliText.stepSays(String(title(event.id)), event.message)}`);
        if (event.fix) out.line(`    → ${event.fix}`);
        if (event.logFile) out.line(`    ${stepsText.log(event.logFile)}`);
        break;
      case 'result': {
        // Where the plan will stop: said once, after the steps, unless the run itself reached it and said it as it failed.
        const stop = state.stop;
        if (stop && !state.steps.some((s) => s.status === 'failed')) {
          out.line(`${out.symbol('fail')} ${stepsText.willStopAt(stop.title, stop.message)}`);
          if (stop.fix) out.line(`    → ${stop.fix}`);
        }
        out.line(event.ok ? out.paint('pass', event.message ?? stepsText.done) : out.paint('fail', event.message ?? stepsText.stopped));
        break;
      }
    }
  };
}
