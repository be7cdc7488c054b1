// Screen 3: exactly what will happen, what is skipped as already done, and a confirm.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import type { RunnerState } from '../src/plan/events.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function PlanScreen({ tf, preview, onConfirm, onBack }: { tf?: string; preview: RunnerState; onConfirm(): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  return (
    <Box flexDirection="column">
      <Text bold>{t.planTitle(tf ?? '')}</Text>
      {preview.steps.map((s, i) => (
        <StatusLine
          key={s.id}
          status={s.status === 'skipped' ? 'skip' : 'info'}
          text={`${i + 1}. ${s.title}${s.status === 'skipped' ? ` (${t.planAlreadyDone}${s.reason ? `: ${s.reason}` : ''})` : s.reason ? ` — ${s.reason}` : ''}`}
        />
      ))}
      {preview.result && !preview.result.ok ? <StatusLine status="fail" text={preview.result.message ?? ''} /> : null}
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
