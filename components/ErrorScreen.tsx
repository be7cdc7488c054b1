// Where every failed intent lands: what went wrong and what to do; Esc goes back where it can, q quits (exit 1).
import { Box, Text, useInput } from 'ink';
import { wizardText } from '../src/i18n/wizard.js';
import { KeyHints } from './KeyHints.js';
import { StatusLine } from './StatusLine.js';

export function ErrorScreen({ message, fix, canGoBack, onBack, onQuit }: { message: string; fix?: string; canGoBack: boolean; onBack(): void; onQuit(): void }) {
  useInput((input, key) => {
    if (key.escape && canGoBack) onBack();
    else if (input === 'q' || key.return) onQuit();
  });
  return (
    <Box flexDirection="column">
      <Text bold>{wizardText.errorTitle}</Text>
      <StatusLine status="fail" text={message} />
      {fix ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{wizardText.errorWhatToDo}:</Text>
          <Text>  → {fix}</Text>
        </Box>
      ) : null}
      <KeyHints text={canGoBack ? wizardText.keysError : wizardText.keysErrorNoBack} />
    </Box>
  );
}
