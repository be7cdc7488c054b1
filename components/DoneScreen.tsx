// Screen 6's ending: on success what to do next (a new terminal, the Python TF needs, pip where TF is
// not installed yet, the check); on failure the failing step's fix.
import { Box, Text, useInput } from 'ink';
import type { RunnerState } from '../src/plan/events.js';
import type { RunResult } from '../src/plan/runner.js';
import { wizardText } from '../src/i18n/wizard.js';
import type { WhatNow } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { PasteCommand } from './PasteCommand.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function DoneScreen({ runner, result, whatNow, onQuit }: { runner: RunnerState; result: RunResult; whatNow?: WhatNow; onQuit(): void }) {
  const { t } = useUi();
  useInput((input, key) => {
    if (key.return || input === 'q') onQuit();
  });
  // Never "ready" while TensorFlow has no Python that can take it.
  const headline = result.exitCode === 3 ? t.doneLeftToYou : whatNow?.python ? wizardText.doneNeedsPython : t.done;
  // The commands to paste (pip's, the check) are drawn whole on their row; the words wrap under their number.
  const steps: { text: string; command?: boolean }[] = [
    { text: wizardText.whatNowNewTerminal },
    ...(whatNow?.python ? [{ text: whatNow.python }] : []),
    ...(whatNow?.pip ? [{ text: t.whatNowPip(whatNow.pip), command: true }] : []),
    { text: t.whatNowCheck, command: true },
  ];
  return (
    <Box flexDirection="column">
      {result.ok ? (
        <Box flexDirection="column" marginTop={1}>
          {/* Done with what cudawiz may change, and something listed above is the user's to do (exit 3). */}
          <StatusLine status={result.exitCode === 3 || whatNow?.python ? 'warn' : 'pass'} text={headline} />
          <Text bold>{t.whatNow}</Text>
          {steps.map((step, i) =>
            step.command ? (
              <PasteCommand key={i} lead={`  ${i + 1}. `} command={step.text} />
            ) : (
              <Box key={i}>
                {/* The number never shrinks: the words wrap beside it. */}
                <Box flexShrink={0}>
                  <Text>{`  ${i + 1}. `}</Text>
                </Box>
                <Text>{step.text}</Text>
              </Box>
            ),
          )}
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
