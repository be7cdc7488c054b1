// Screen 2: the TensorFlow versions for this OS with what each needs; the ones this machine cannot
// run are listed apart with the reason. Typing a version jumps to it.
import { Box, Text, useInput } from 'ink';
import type { TfChoice } from '../src/wizard/controller.js';
import { KeyHints } from './KeyHints.js';
import { VersionList } from './VersionList.js';
import { useUi } from './UiContext.js';

export function ChooseTfScreen({ choices, defaultVersion, onPick, onBack }: { choices: TfChoice[]; defaultVersion?: string; onPick(v: string): void; onBack(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  // Select focuses its first option, so the default (installed or recommended) version leads the list.
  const runnable = choices.filter((c) => !c.blocked).sort((a, b) => Number(b.version === defaultVersion) - Number(a.version === defaultVersion));
  const blocked = choices.filter((c) => c.blocked);
  return (
    <Box flexDirection="column">
      <Text bold>{t.chooseTf}</Text>
      <Text dimColor>{t.chooseTfHint}</Text>
      <VersionList
        visible={8}
        rows={runnable.map((c) => ({ version: c.version, label: `TensorFlow ${c.version.padEnd(7)} ${t.needs(c.cuda, c.cudnn, c.python)}${c.verdict === 'ptx-jit' ? ` ${t.slowFirstStart}` : ''}${c.pythonCannot ? ` ${c.pythonCannot}` : ''}` }))}
        onPick={onPick}
      />
      {blocked.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text dimColor>
            {t.cannotRun}: {blocked.slice(0, 3).map((c) => c.version).join(', ')}
            {blocked.length > 3 ? ` (+${blocked.length - 3})` : ''} — {blocked[0].blocked}
          </Text>
        </Box>
      ) : null}
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
