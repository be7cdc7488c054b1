import { Text } from 'ink';
import { STATUS_LOOK, statusSymbol, type Status } from '../src/status.js';
import { useUi } from './UiContext.js';

export function StatusLine({ status, label, text, truncate, bold }: { status: Status; label?: string; text: string; truncate?: boolean; bold?: boolean }) {
  const { t, unicode } = useUi();
  return (
    <Text wrap={truncate ? 'truncate-end' : 'wrap'}>
      <Text color={STATUS_LOOK[status].ink}>{statusSymbol(status, unicode)}</Text> {label ? <Text bold>{label}{t.labelEnd}</Text> : null}
      {bold ? <Text bold>{text}</Text> : text}
    </Text>
  );
}
