// How many terminal rows a line of text takes, how a line wraps without breaking a word (a path, a
// URL) or a command to paste, and which part of a list taller than the screen is shown. Pure: text
// and sizes in, decisions out.

/** Columns a character takes: East Asian wide and full-width forms take two (as terminals draw them). */
function charWidth(cp: number): number {
  if (cp < 0x1100) return 1;
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/**
 * Rows `text` takes when wrapped at `columns` the way Ink wraps (word by word; a word longer than a
 * row is broken; a wide character is its own word, as CJK text breaks between any two characters).
 */
export function wrappedRows(text: string, columns: number): number {
  if (columns < 1) return 1;
  // Tokens: a wide character alone, or a run of other characters with the spaces after it.
  const tokens = text.match(/[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]|[^\s\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]+\s*|\s+/gu) ?? [];
  let rows = 1;
  let used = 0;
  for (const token of tokens) {
    const word = token.trimEnd();
    const spaces = token.length - word.length;
    let w = displayWidth(word);
    if (used > 0 && used + w > columns) {
      rows++;
      used = 0;
    }
    while (w > columns) {
      rows++;
      w -= columns;
    }
    used = Math.min(columns, used + w + spaces);
  }
  return rows;
}

/** How many of `lines` (in order, wrapped) fit in `budget` rows: at least the first, so a cause is never hidden. */
export function problemsThatFit(lines: readonly string[], columns: number, budget: number): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += wrappedRows(lines[i], columns);
    if (used > budget && i > 0) return i;
  }
  return lines.length;
}

const NBSP = '\ue000'; // a private-use character: no regex takes it for a space
/** A drive letter, then folders (a folder's name may hold single spaces up to its backslash), then the last name. */
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\\\s,;()]+(?: [^\\\s,;()]+)*\\)*[^\\\s,;()]*/g;
const CLOSING = /^[，。、；：！？）」』】》〉]$/u;
const WIDE = /^[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]$/u;
const TOKENS = /[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]|[^\s\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]+\s*|\s+/gu;

/**
 * `text` wrapped into rows of `columns` (after a lead of `lead` columns on every row: the status mark,
 * then the continuation's indent), word by word and never inside a word: a path or a URL stays whole
 * on one row. A word wider than the row stands alone on its row, unbroken (the terminal folds it, and
 * it still pastes as one). CJK text breaks between any two wide characters.
 */
export function wrapWords(text: string, columns: number, lead = 0): string[] {
  const room = Math.max(1, columns - lead);
  const rows: string[][] = [];
  let row: string[] = [];
  let used = 0;
  const width = (tokens: string[]) => tokens.reduce((n, t) => n + displayWidth(t), 0);
  // A Windows path's spaces ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1") are no place to break.
  const glued = text.replace(WINDOWS_PATH, (p) => p.replace(/ /g, NBSP));
  for (const token of glued.match(TOKENS) ?? []) {
    const word = token.trimEnd();
    const w = displayWidth(word);
    if (used > 0 && word && used + w > room) {
      // A closing mark（，。）never starts a row: the character before it goes down with it.
      const carry = CLOSING.test(word) && row.length > 1 && WIDE.test(row[row.length - 1]) ? [row.pop()!] : [];
      rows.push(row);
      row = carry;
      used = width(carry);
    }
    if (!row.length && !word) continue; // no row starts with spaces carried over from the last
    row.push(token);
    used += w + (token.length - word.length);
  }
  rows.push(row);
  return rows.map((r) => r.join('').trimEnd().replaceAll(NBSP, ' '));
}

/**
 * A command to paste wrapped into rows that still paste as one: whole when it fits, else broken at
 * spaces, each row but the last ending in " \" (the shell's line continuation).
 */
export function wrapCommand(command: string, columns: number, lead = 0): string[] {
  if (displayWidth(command) <= columns - lead) return [command];
  const rows = wrapWords(command, columns - 2, lead);
  return rows.map((r, i) => (i < rows.length - 1 ? `${r} \\` : r));
}

/** Terminal rows that `rows` (each after a lead of `lead` columns) take: a row wider than the terminal folds. */
export function terminalRows(rows: readonly string[], columns: number, lead = 0): number {
  return rows.reduce((n, r) => n + Math.max(1, Math.ceil((lead + displayWidth(r)) / Math.max(1, columns))), 0);
}

/** Where a plan line ends in a command to paste ("…: sudo ldconfig", "→ cudawiz repair --tf 2.12"): its words and the command. */
export function splitCommand(text: string): { words: string; command: string } | undefined {
  const m = /(^|[:：]\s*|→\s*|\b(?:use|run) |运行|使用)((?:sudo|cudawiz|conda|pip|pip3|python3?(?:\.\d+)?|export|apt-get|apt|dnf|source|ldconfig|winget|setx)\s\S.*)$/u.exec(text);
  if (!m) return undefined;
  return { words: text.slice(0, m.index + m[1].length).trimEnd(), command: m[2].trim() };
}

/** The first row of a window of `visible` rows over `total`, moved by `delta` from `top` and kept in range. */
export function scrollTo(top: number, delta: number, total: number, visible: number): number {
  return Math.max(0, Math.min(Math.max(0, total - visible), top + delta));
}
