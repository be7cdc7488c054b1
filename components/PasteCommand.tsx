// A command the user pastes (#39): drawn as wide as it is, so no newline ever breaks it. The terminal
// may fold a row wider than itself, but a fold is no character: the copied text is the one line.
import { Box, Text } from 'ink';
import { displayWidth } from '../src/wizard/fit-rows.js';

/** `lead` (an indent, "  2. ") then the command, on one row that does not shrink to the screen. */
export function PasteCommand({ command, lead = '' }: { command: string; lead?: string }) {
  return (
    <Box width={displayWidth(lead + command)} flexShrink={0}>
      <Text>
        {lead}
        {command}
      </Text>
    </Box>
  );
}
