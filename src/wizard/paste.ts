// A command the user pastes must reach the terminal as one line: an evidence line that ends in one
// ("in this shell: export LD_LIBRARY_PATH=…") is split into its words and the command, printed apart.
import { redistText } from '../i18n/redist.js';
import { remediesText } from '../i18n/remedies.js';

/** The lead-ins the plan puts before a command to paste, in the current language. */
const leadIns = () => [remediesText.thisShell(''), redistText.envThisShell('')].map((l) => l.trimEnd()).filter(Boolean);

/** `{ words, command }` where `line` ends in a command to paste; undefined for any other line. */
export function commandToPaste(line: string): { words: string; command: string } | undefined {
  for (const lead of leadIns()) {
    const at = line.indexOf(lead);
    if (at < 0) continue;
    const command = line.slice(at + lead.length).trim();
    if (command) return { words: line.slice(0, at + lead.length).trim(), command };
  }
  return undefined;
}
