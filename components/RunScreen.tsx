// Screens 4–6 while the plan runs: finished steps go into <Static> (kept in scrollback, never
// redrawn), the live area below shows only the active step.
import { Select } from '@inkjs/ui';
import { Box } from 'ink';
import type { InputNeed, RunnerState } from '../src/plan/events.js';
import { CudnnWait } from './CudnnWait.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { StepView } from './StepView.js';
import { useUi } from './UiContext.js';

export function RunScreen({ runner, waiting, onAnswer }: { runner: RunnerState; waiting?: InputNeed; onAnswer(text: string): void }) {
  const { t } = useUi();
  const active = runner.steps.find((s) => s.status === 'running' || s.status === 'waiting');
  return (
    <Box flexDirection="column">
      {active && !waiting ? <StepView step={active} /> : null}
      {waiting?.kind === 'cudnn-archive' ? <CudnnWait need={waiting} onAnswer={onAnswer} /> : null}
      {waiting?.kind === 'confirm' ? (
        <Box flexDirection="column">
          <StatusLine status="warn" text={waiting.question} />
          <Select
            options={[
              { label: t.confirmYes, value: 'yes' },
              { label: t.confirmNo, value: 'no' },
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
