// The TF version list: ↑/↓ move, Enter picks, and typing a version (2.3) jumps to it; a line under the
// rows says how many more there are and that typing jumps. Its pointer is the other lists' (@inkjs/ui's
// Select draws figures.pointer), so one screen never mixes ❯ and >.
import figures from 'figures';
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { focusRow, startList, typeKey } from '../src/wizard/version-list.js';
import { useUi } from './UiContext.js';

export function VersionList({ rows, visible, onPick }: { rows: { version: string; label: string }[]; visible: number; onPick(version: string): void }) {
  const { t } = useUi();
  const [s, setS] = useState(startList);
  const versions = rows.map((r) => r.version);
  useInput((input, key) => {
    if (key.downArrow) setS((p) => focusRow(p, p.focus + 1, rows.length, visible));
    else if (key.upArrow) setS((p) => focusRow(p, p.focus - 1, rows.length, visible));
    else if (key.pageDown) setS((p) => focusRow(p, p.focus + visible, rows.length, visible));
    else if (key.pageUp) setS((p) => focusRow(p, p.focus - visible, rows.length, visible));
    else if (key.return && rows[s.focus]) onPick(rows[s.focus].version);
    // A paste or a fast typist arrives as one string: "2.3".
    else if (/^[0-9.]+$/.test(input)) setS((p) => [...input].reduce((acc, ch) => typeKey(acc, ch, versions, visible), p));
  });
  const shown = rows.slice(s.top, s.top + visible);
  const below = rows.length - s.top - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((r, i) => {
        const focused = s.top + i === s.focus;
        return (
          <Box key={r.version} gap={1} paddingLeft={focused ? 0 : 2}>
            {focused ? <Text color="blue">{figures.pointer}</Text> : null}
            <Text color={focused ? 'blue' : undefined} wrap="truncate-end">
              {r.label}
            </Text>
          </Box>
        );
      })}
      {rows.length > visible ? <Text dimColor>{t.listMore(s.top, below, s.typed)}</Text> : null}
    </Box>
  );
}
