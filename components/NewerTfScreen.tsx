// A TensorFlow newer than the catalog: not a dead end. Says so, lists what still works, and offers
// to set up the newest row where TF kept the same CUDA.
import { Select } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import type { Beyond } from '../src/wizard/controller.js';
import { planText } from '../src/i18n/plan.js';
import { wizardText } from '../src/i18n/wizard.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';
import { useUi } from './UiContext.js';

export function NewerTfScreen({ beyond, onPick, onBack, onQuit }: { beyond: Beyond; onPick(tf: string): void; onBack(): void; onQuit(): void }) {
  const { t } = useUi();
  useInput((_input, key) => {
    if (key.escape) onBack();
  });
  const setups = beyond.options.filter((o) => o.tf);
  return (
    <Box flexDirection="column">
      <StatusLine status="warn" text={beyond.headline} />
      <Text bold>{planText.beyondWhatWorks}</Text>
      {beyond.options.map((o, i) => (
        <Text key={o.id}>
          {`  ${i + 1}. `}
          {o.text}
        </Text>
      ))}
      <Box marginTop={1}>
        <Select
          options={[
            ...setups.map((o) => ({ value: o.tf!, label: wizardText.setUpFor(o.tf!, o.cuda ?? '?', o.cudnn ?? '?') })),
            { value: '', label: wizardText.quit },
          ]}
          onChange={(v) => (v ? onPick(v) : onQuit())}
        />
      </Box>
      <KeyHints text={t.keysSelect} />
    </Box>
  );
}
