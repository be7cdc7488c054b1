// One step of a running plan: its status line, progress, and the last lines of its child's output.
import { Spinner } from '@inkjs/ui';
import { Box, Text } from 'ink';
import type { StepState } from '../src/plan/events.js';
import { commandToPaste } from '../src/wizard/paste.js';
import { PasteCommand } from './PasteCommand.js';
import { ProgressLine } from './ProgressLine.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function StepView({ step }: { step: StepState }) {
  const { t } = useUi();
  if (step.status === 'running') {
    return (
      <Box flexDirection="column">
        <Spinner label={step.title} />
        {step.progress ? (
          <Box marginLeft={2}>
            <ProgressLine progress={step.progress} />
          </Box>
        ) : null}
        {step.log.map((line, i) => (
          <Text key={i} dimColor wrap="truncate-end">
            {'  '}
            {line}
          </Text>
        ))}
      </Box>
    );
  }
  const status = step.status === 'done' ? 'pass' : step.status === 'failed' ? 'fail' : step.status === 'waiting' ? 'warn' : 'skip';
  return (
    <Box flexDirection="column">
      <StatusLine status={status} text={t.stepLine(step.title, step.summary, step.status === 'skipped' ? step.reason : undefined)} />
      {step.evidence?.map((e, i) => {
        const paste = commandToPaste(e);
        if (!paste) {
          return (
            <Text key={i} dimColor>
              {'    '}
              {e}
            </Text>
          );
        }
        // The command on a line of its own, as wide as it is: the terminal may fold it, but no newline breaks it.
        return (
          <Box key={i} flexDirection="column">
            <Text dimColor>
              {'    '}
              {paste.words}
            </Text>
            <PasteCommand lead="    " command={paste.command} />
          </Box>
        );
      })}
      {step.error ? (
        <Box flexDirection="column" marginLeft={2}>
          <Text color="red">{step.error.message}</Text>
          {step.error.fix ? <Text>→ {step.error.fix}</Text> : null}
          {step.error.logFile ? <Text dimColor>{t.stepLog(step.error.logFile)}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
