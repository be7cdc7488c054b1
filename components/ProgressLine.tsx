// One line of progress: a bar, bytes (or files), speed, time left, and where a resume started.
import { Text } from 'ink';
import type { Progress } from '../src/plan/events.js';
import { formatBytes, formatEta } from '../src/format.js';
import { useUi } from './UiContext.js';

export function ProgressLine({ progress, width = 24 }: { progress: Progress; width?: number }) {
  const { t, unicode } = useUi();
  const ratio = progress.total ? Math.min(1, progress.bytes / progress.total) : 0;
  const filled = Math.round(ratio * width);
  const [full, empty] = unicode ? ['█', '░'] : ['#', '-'];
  const files = progress.unit === 'files';
  const amount = files
    ? `${progress.bytes}/${progress.total ?? '?'} files`
    : `${formatBytes(progress.bytes)}${progress.total ? ` / ${formatBytes(progress.total)}` : ''}`;
  const parts = [amount];
  if (progress.speed && !files) parts.push(`${formatBytes(progress.speed)}/s`);
  if (progress.eta !== undefined) parts.push(`ETA ${formatEta(progress.eta)}`);
  if (progress.resumedFrom) parts.push(t.resumedFrom(formatBytes(progress.resumedFrom)));
  return (
    <Text>
      <Text color="cyan">{full.repeat(filled)}</Text>
      <Text dimColor>{empty.repeat(width - filled)}</Text> {Math.floor(ratio * 100)}% {parts.join(' · ')}
    </Text>
  );
}
