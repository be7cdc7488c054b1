// Quoting paths for the lines cudawiz writes into shell scripts.

/** A double-quoted POSIX shell word: $, `, " and \ escaped, so only our own ${VAR} expands. */
export function shDoubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** A single-quoted POSIX or fish word. */
export function singleQuoted(text: string, syntax: 'posix' | 'fish'): string {
  return syntax === 'fish' ? `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'` : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A command as the user would type it: each word bare where the shell reads it as is, else double-quoted (`"cudnn>=8.6,<9"`). */
export function shownCommand(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./\\-]+$/.test(w) ? w : `"${w}"`)).join(' ');
}
