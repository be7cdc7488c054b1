// Screen 3: exactly what will happen, what is skipped as already done, and a confirm — or, when the
// preview says the plan will stop (plan/will-stop.ts), that stop and its fix instead, with no "Go ahead".
import { Select } from '@inkjs/ui';
import { Box, Text, useInput, useStdout } from 'ink';
import { stepsText } from '../src/i18n/steps.js';
import { wizardText } from '../src/i18n/wizard.js';
import type { RunnerState, StepState } from '../src/plan/events.js';
import { linesToCut, wrappedRows } from '../src/wizard/fit-rows.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function PlanScreen({ tf, preview, onConfirm, onBack, onQuit }: { tf?: string; preview: RunnerState; onConfirm(): void; onBack(): void; onQuit(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const { stdout } = useStdout();
  const columns = stdout.columns || 80;
  const stop = preview.stop;
  const aside = (s: StepState) => (s.status === 'skipped' ? t.planDone(s.reason) : `${s.notReached ? t.planNotReached : ''}${s.reason ? ` — ${s.reason}` : ''}`);
  const lines = preview.steps.map((s, i) => `${i + 1}. ${s.title}${aside(s)}`);
  // The dry run that found the stop ends "not ok" too; the stop itself is what is said.
  const failure = !stop && preview.result && !preview.result.ok ? preview.result.message ?? '' : undefined;
  const stopText = stop ? stepsText.willStopAt(stop.title, stop.message) : undefined;
  const fixText = stop?.fix ? `  → ${stop.fix}` : undefined;
  // Rows besides the steps: the wizard's title, this title, the failure (or the stop and its fix with
  // the gap above), the question (none over a stop) and its two answers with the gap above, the key
  // hints with theirs, and the row Ink's cursor ends on. A plan taller than that cuts its longest
  // lines to one row rather than push its title off the screen.
  const others = stopText
    ? 9 + wrappedRows(`x ${stopText}`, columns) + (fixText ? wrappedRows(fixText, columns) : 0)
    : 9 + (failure === undefined ? 0 : wrappedRows(`x ${failure}`, columns)) + wrappedRows(t.planConfirm, columns) - 1;
  const cut = stdout.rows ? linesToCut(lines.map((l) => `• ${l}`), columns, stdout.rows - others) : lines.map(() => false);
  return (
    <Box flexDirection="column">
      <Text bold>{t.planTitle(tf ?? '')}</Text>
      {preview.steps.map((s, i) => (
        <StatusLine key={s.id} status={s.status === 'skipped' || s.notReached ? 'skip' : s.id === stop?.step ? 'fail' : 'info'} text={lines[i]} truncate={cut[i]} />
      ))}
      {failure !== undefined ? <StatusLine status="fail" text={failure} /> : null}
      {stopText ? (
        <Box marginTop={1} flexDirection="column">
          <StatusLine status="fail" text={stopText} bold />
          {fixText ? <Text>{fixText}</Text> : null}
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {stop ? null : <Text>{t.planConfirm}</Text>}
        <Select
          options={
            stop
              ? [
                  { label: t.planBack, value: 'back' },
                  { label: wizardText.quit, value: 'quit' },
                ]
              : [
                  { label: t.yes, value: 'yes' },
                  { label: t.no, value: 'no' },
                ]
          }
          onChange={(v) => (v === 'yes' ? onConfirm() : v === 'quit' ? onQuit() : onBack())}
        />
      </Box>
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
