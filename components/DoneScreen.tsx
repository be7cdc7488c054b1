// Screen 6's ending: on success a short "what now"; on failure the failing step's fix.
import { Box, Text, useInput } from 'ink';
import type { RunnerState } from '../src/plan/events.js';
import type { RunResult } from '../src/plan/runner.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function DoneScreen({ runner, result, pip, onQuit }: { runner: RunnerState; result: RunResult; pip?: string; onQuit(): void }) {
  const { t } = useUi();
  useInput((input, key) => {
    if (key.return || input === 'q') onQuit();
  });
  return (
    <Box flexDirection="column">
      {result.ok ? (
        <Box flexDirection="column" marginTop={1}>
          {/* Done with what cudawiz may change, and something listed above is the user's to do (exit 3). */}
          {result.exitCode === 3 ? <StatusLine status="warn" text={t.doneLeftToYou} /> : <StatusLine status="pass" text={t.done} />}
          <Text bold>{t.whatNow}:</Text>
          {pip ? <Text>  {t.whatNowPip(pip)}</Text> : null}
          <Text>  {t.whatNowCheck}</Text>
        </Box>
      ) : (
        <Box marginTop={1}>
          <StatusLine status={result.exitCode === 3 ? 'warn' : 'fail'} text={runner.steps.some((s) => s.status === 'failed') ? t.stoppedAbove : t.stepLine(t.failedTitle, result.message ?? '')} />
        </Box>
      )}
      <KeyHints text={t.keysDone} />
    </Box>
  );
}
