// Adding one line to a user's file and taking exactly that line out again.

/** Appends `line` on a line of its own, keeping everything before it byte for byte. */
export function withLineAppended(content: string | null, line: string): string {
  const text = content ?? '';
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${text}${sep}${line}\n`;
}

/** Is this exact line already in the file (ignoring surrounding blanks)? */
export function hasLine(content: string | null, line: string): boolean {
  return (content ?? '').split('\n').some((l) => l.trim() === line.trim());
}

/**
 * The file without the line cudawiz appended. If nothing else changed, the saved `before` comes back
 * exactly; otherwise only the last copy of the line (and the newline added for it) is removed.
 */
export function withLineRemoved(current: string, change: { before: string | null; after: string | null; line: string }): string | null {
  if (current === change.after) return change.before;
  const lines = current.split('\n');
  const at = lines.map((l) => l.trim()).lastIndexOf(change.line.trim());
  if (at < 0) return current;
  lines.splice(at, 1);
  return lines.join('\n');
}
