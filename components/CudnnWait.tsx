// Screen 5's waiting part: where to log in, the exact file to pick and why, and a path prompt.
import { TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import type { InputNeed } from '../src/plan/events.js';
import { useUi } from './UiContext.js';

export function CudnnWait({ need, onAnswer }: { need: Extract<InputNeed, { kind: 'cudnn-archive' }>; onAnswer(path: string): void }) {
  const { t } = useUi();
  return (
    <Box flexDirection="column">
      <Text>{t.cudnnWaiting}</Text>
      <Text>{t.cudnnOpen(need.page)}</Text>
      <Text>
        {t.cudnnPick('')}
        <Text bold color="cyan">
          {need.file}
        </Text>
      </Text>
      <Text dimColor>{t.cudnnWhy(need.why)}</Text>
      <Text>{t.cudnnWatching(need.downloadsDir)}</Text>
      <Box>
        <Text>{t.cudnnPathLabel}</Text>
        <TextInput placeholder={need.file} suggestions={need.candidates} onSubmit={(v) => v.trim() && onAnswer(v.trim())} />
      </Box>
    </Box>
  );
}
