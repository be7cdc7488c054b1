// Screens 4–6 while the plan runs: finished steps go into <Static> (kept in scrollback, never
// redrawn), the live area below shows only the active step.
import { Select } from '@inkjs/ui';
import { Box, Static } from 'ink';
import type { InputNeed, RunnerState } from '../src/plan/events.js';
import { CudnnWait } from './CudnnWait.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { StepView } from './StepView.js';
import { useUi } from './UiContext.js';

const FINISHED = new Set(['done', 'skipped', 'failed']);

export function RunScreen({ runner, waiting, onAnswer }: { runner: RunnerState; waiting?: InputNeed; onAnswer(text: string): void }) {
  const { t } = useUi();
  const finished = runner.steps.filter((s) => FINISHED.has(s.status));
  const active = runner.steps.find((s) => s.status === 'running' || s.status === 'waiting');
  return (
    <Box flexDirection="column">
      <Static items={finished}>{(step) => <StepView key={step.id} step={step} />}</Static>
      {active && !waiting ? <StepView step={active} /> : null}
      {waiting?.kind === 'cudnn-archive' ? <CudnnWait need={waiting} onAnswer={onAnswer} /> : null}
      {waiting?.kind === 'confirm' ? (
        <Box flexDirection="column">
          <StatusLine status="warn" text={waiting.question} />
          <Select
            options={[
              { label: t.yes, value: 'yes' },
              { label: t.no, value: 'no' },
            ]}
            onChange={onAnswer}
          />
        </Box>
      ) : null}
      {waiting?.kind === 'elevation' ? <StatusLine status="fail" text={`${waiting.message} → ${waiting.fix}`} /> : null}
      <KeyHints text={waiting ? t.keysInput : t.keysRun} />
    </Box>
  );
}
