import { Text } from 'ink';
import type { Status } from '../src/cli/output.js';
import { STATUS_COLOR, statusSymbol } from './symbols.js';
import { useUi } from './UiContext.js';

export function StatusLine({ status, label, text, truncate }: { status: Status; label?: string; text: string; truncate?: boolean }) {
  const { unicode } = useUi();
  return (
    <Text wrap={truncate ? 'truncate-end' : 'wrap'}>
      <Text color={STATUS_COLOR[status]}>{statusSymbol(status, unicode)}</Text> {label ? <Text bold>{label}: </Text> : null}
      {text}
    </Text>
  );
}
