// Quoting paths for the lines cudawiz writes into shell scripts.

/** A double-quoted POSIX shell word: $, `, " and \ escaped, so only our own ${VAR} expands. */
export function shDoubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** A single-quoted POSIX or fish word. */
export function singleQuoted(text: string, syntax: 'posix' | 'fish'): string {
  return syntax === 'fish' ? `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'` : `'${text.replace(/'/g, `'\\''`)}'`;
}
