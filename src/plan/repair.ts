// The repair plan: first settle any cuDNN copy a killed run left half-done (finish it when every
// file can still be placed, else roll it back), then the setup steps, which skip what is healthy.
import { finishImport, importState, rollbackImport } from '../cudnn/index.js';
import type { MachineFacts } from '../probe/types.js';
import type { PlanContext } from './context.js';
import type { Step } from './runner.js';
import { setupSteps } from './setup.js';

export function settleInterruptedCopy(toolkitDir: string): Step<PlanContext> {
  return {
    id: `settle-copy:${toolkitDir}`,
    title: `Settle the interrupted cuDNN copy in ${toolkitDir}`,
    async check() {
      const s = await importState(toolkitDir);
      return s.state === 'interrupted' ? { done: false, reason: `${s.placed.length} of ${s.placed.length + s.pending.length} files were placed` } : { done: true, reason: 'no interrupted copy' };
    },
    async run(_ctx, io) {
      const s = await importState(toolkitDir);
      if (s.state !== 'interrupted') return { summary: 'nothing to do' };
      if (s.canFinish) {
        const m = await finishImport(toolkitDir, { signal: io.signal, onProgress: (p) => io.progress({ bytes: p.bytes, total: p.totalBytes }) });
        return { summary: `finished: ${m.files.length} files of cuDNN ${m.archive.version} in place` };
      }
      const r = await rollbackImport(toolkitDir);
      return { summary: `rolled back: ${r.removed.length} removed, ${r.restored.length} originals restored`, evidence: r.kept.map((k) => `kept ${k.path}: ${k.reason}`) };
    },
  };
}

export function repairSteps(facts: MachineFacts): Step<PlanContext>[] {
  const interrupted = facts.toolkits.filter((t) => t.cudawizCopy?.state === 'copying').map((t) => settleInterruptedCopy(t.path));
  return [...interrupted, ...setupSteps()];
}
