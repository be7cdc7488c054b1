// How many terminal rows a line of text takes, and which lines of a list to cut to one row so the
// whole screen fits the terminal: a plan taller than the window scrolls its title (and the top of
// the list) out of sight. Pure: text and sizes in, decisions out.

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

/**
 * Which lines to cut to one row so that they all fit in `budget` rows: the tallest first (one that
 * wraps over three rows saves the most), and none at all when everything fits. `true` = cut.
 */
export function linesToCut(lines: readonly string[], columns: number, budget: number): boolean[] {
  const rows = lines.map((l) => wrappedRows(l, columns));
  const cut = lines.map(() => false);
  let total = rows.reduce((a, b) => a + b, 0);
  const order = rows.map((r, i) => ({ r, i })).sort((a, b) => b.r - a.r || b.i - a.i);
  for (const { r, i } of order) {
    if (total <= budget || r <= 1) break;
    cut[i] = true;
    total -= r - 1;
  }
  return cut;
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
