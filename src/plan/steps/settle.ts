// Settling a cuDNN copy a killed run left half-done: finish it when every file can still be placed,
// else roll it back, so the rest of a repair starts from a whole toolkit.
import { finishImport, importState, rollbackImport } from '../../cudnn/index.js';
import { stepsText } from '../../i18n/steps.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';

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
