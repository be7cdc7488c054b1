// The repair plan: first settle any cuDNN copy a killed run left half-done (finish it when every
// file can still be placed, else roll it back), then the setup steps, which skip what is healthy.
import { finishImport, importState, rollbackImport } from '../cudnn/index.js';
import type { Finding } from '../doctor/finding.js';
import type { PlanContext } from './context.js';
import type { Step } from './runner.js';
import { setupSteps } from './setup.js';
import { stepsText } from '../i18n/steps.js';

export function settleInterruptedCopy(toolkitDir: string): Step<PlanContext> {
  return {
    id: `settle-copy:${toolkitDir}`,
    get title() {
      return stepsText.settleTitle(toolkitDir);
    },
    async check() {
      const s = await importState(toolkitDir);
      return s.state === 'interrupted' ? { done: false, reason: stepsText.settlePlaced(s.placed.length, s.placed.length + s.pending.length) } : { done: true, reason: stepsText.settleNone };
    },
    async run(_ctx, io) {
      const s = await importState(toolkitDir);
      if (s.state !== 'interrupted') return { summary: stepsText.nothingToDo };
      if (s.canFinish) {
        const m = await finishImport(toolkitDir, { signal: io.signal, onProgress: (p) => io.progress({ bytes: p.bytes, total: p.totalBytes }) });
        return { summary: stepsText.settleFinished(m.files.length, m.archive.version) };
      }
      const r = await rollbackImport(toolkitDir);
      return { summary: stepsText.settleRolledBack(r.removed.length, r.restored.length), evidence: r.kept.map((k) => stepsText.settleKept(k.path, k.reason)) };
    },
  };
}

const INTERRUPTED = 'copy-interrupted:';

/**
 * The repair plan from the doctor's findings for this target: the one place a finding becomes a
 * remedy step. Today: settle each copy the doctor found half-done (a failing `copy-interrupted:DIR`),
 * then the setup steps, which skip what is healthy. Remedies per finding kind join here.
 */
export function repairSteps(findings: readonly Finding[], _ctx: PlanContext): Step<PlanContext>[] {
  const interrupted = findings.filter((f) => f.id.startsWith(INTERRUPTED) && f.status === 'fail').map((f) => settleInterruptedCopy(f.id.slice(INTERRUPTED.length)));
  return [...interrupted, ...setupSteps()];
}
