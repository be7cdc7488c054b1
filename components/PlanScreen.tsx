// Screen 3: exactly what will happen, what is skipped as already done, and a confirm.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput, useStdout } from 'ink';
import type { RunnerState } from '../src/plan/events.js';
import { linesToCut, wrappedRows } from '../src/wizard/fit-rows.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function PlanScreen({ tf, preview, onConfirm, onBack }: { tf?: string; preview: RunnerState; onConfirm(): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const { stdout } = useStdout();
  const columns = stdout.columns || 80;
  const lines = preview.steps.map(
    (s, i) => `${i + 1}. ${s.title}${s.status === 'skipped' ? t.planDone(s.reason) : s.reason ? ` — ${s.reason}` : ''}`,
  );
  const failure = preview.result && !preview.result.ok ? preview.result.message ?? '' : undefined;
  // Rows besides the steps: the wizard's title, this title, the failure, the question and its two
  // answers with the gap above, the key hints with theirs, and the row Ink's cursor ends on. A plan
  // taller than that cuts its longest lines to one row rather than push its title off the screen.
  const others = 9 + (failure === undefined ? 0 : wrappedRows(`x ${failure}`, columns)) + wrappedRows(t.planConfirm, columns) - 1;
  const cut = stdout.rows ? linesToCut(lines.map((l) => `• ${l}`), columns, stdout.rows - others) : lines.map(() => false);
  return (
    <Box flexDirection="column">
      <Text bold>{t.planTitle(tf ?? '')}</Text>
      {preview.steps.map((s, i) => (
        <StatusLine key={s.id} status={s.status === 'skipped' ? 'skip' : 'info'} text={lines[i]} truncate={cut[i]} />
      ))}
      {failure !== undefined ? <StatusLine status="fail" text={failure} /> : null}
      <Box marginTop={1} flexDirection="column">
        <Text>{t.planConfirm}</Text>
        <Select
          options={[
            { label: t.yes, value: 'yes' },
            { label: t.no, value: 'no' },
          ]}
          onChange={(v) => (v === 'yes' ? onConfirm() : onBack())}
        />
      </Box>
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
