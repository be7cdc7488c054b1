// The captures as the pages hold them: a `<!-- capture: TITLE -->` line right above a fenced block
// (``` or ~~~) whose body is the capture of that title (scripts/capture-screens.captures.ts). Found,
// compared and rewritten here, for scripts/capture-screens.ts and test/unit/docs-captures.test.ts.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface MarkedBlock {
  file: string;
  name: string;
  body: string;
  /** Offsets of the body in the file's text. */
  start: number;
  end: number;
}

/** Every page a reader is sent to: the READMEs, CONTRIBUTING.md and docs/ (both languages). */
export async function pageFiles(root: string): Promise<string[]> {
  const pages = ['README.md', 'README.zh-CN.md', 'CONTRIBUTING.md'];
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
    const found: string[] = [];
    for (const e of entries) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) found.push(...(await walk(rel)));
      else if (e.name.endsWith('.md')) found.push(rel);
    }
    return found;
  };
  return [...pages, ...(await walk('docs')).sort()];
}

const MARKER = /^<!-- capture: (.+?) -->\n(`{3,}|~{3,})[^\n]*\n/gm;

export function markedBlocks(file: string, text: string): MarkedBlock[] {
  const blocks: MarkedBlock[] = [];
  for (const m of text.matchAll(MARKER)) {
    const start = m.index + m[0].length;
    const close = text.indexOf(`\n${m[2]}\n`, start - 1);
    if (close < 0) throw new Error(`${file}: the capture "${m[1]}" has no closing ${m[2]}`);
    blocks.push({ file, name: m[1], body: text.slice(start, Math.max(start, close)), start, end: Math.max(start, close) });
  }
  return blocks;
}

export async function pageBlocks(root: string): Promise<MarkedBlock[]> {
  const all: MarkedBlock[] = [];
  for (const file of await pageFiles(root)) {
    const text = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
    if (text !== undefined) all.push(...markedBlocks(file, text));
  }
  return all;
}

/** Terminal columns a line takes: CJK and full-width characters take two. */
function columns(line: string): number {
  let n = 0;
  for (const ch of line) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return n;
}

/**
 * What may differ between two runs of the same capture and says nothing about the CLI: speeds, free
 * space, ETAs, the loopback mirror's port, a progress bar's fill and percentage, the spinner's frame,
 * this machine's Python version, and where the terminal wrapped (whitespace, newlines, a word broken at column 80).
 */
export function normaliseCapture(text: string): string {
  return text
    // A full row (80 columns; 79 when a wide character did not fit) went on in the next: tmux broke a word there.
    .replace(/^(.*)\n/gm, (row, line: string) => (columns(line) >= 79 ? line : row))
    .replace(/\s+/g, ' ')
    .replace(/\d+(?:\.\d+)? ?[KMG]?i?B\/s/g, 'N/s')
    .replace(/\d+(?:\.\d+)? ?[KMG]iB free/g, 'N free')
    .replace(/剩余 ?\d+(?:\.\d+)?\s*[KMG]iB/g, '剩余 N')
    .replace(/ETA \S+/g, 'ETA N')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/[█░]+\s*\d+%/g, 'BAR')
    .replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, '⠿')
    .replace(/Python 3\.\d+\.\d+/g, 'Python 3.N')
    .replace(/(you have|你的是) 3\.\d+/g, '$1 3.N')
    .trim();
}

/** The marked blocks whose capture is in `captured` and differs from it (after normaliseCapture). */
export async function comparePages(root: string, captured: ReadonlyMap<string, string>): Promise<{ compared: number; differ: string[] }> {
  const differ: string[] = [];
  let compared = 0;
  for (const b of await pageBlocks(root)) {
    const now = captured.get(b.name);
    if (now === undefined) continue;
    compared++;
    if (normaliseCapture(now) !== normaliseCapture(b.body)) differ.push(`${b.file}: ${b.name}`);
  }
  return { compared, differ };
}

/** Rewrites each marked block with its fresh capture; returns `file: title` for each one rewritten. */
export async function writePages(root: string, captured: ReadonlyMap<string, string>): Promise<string[]> {
  const written: string[] = [];
  for (const file of await pageFiles(root)) {
    const full = path.join(root, file);
    const text = await readFile(full, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    let out = text;
    // From the last block back, so the earlier offsets stay right.
    for (const b of markedBlocks(file, text).reverse()) {
      const now = captured.get(b.name);
      if (now === undefined || now === b.body) continue;
      // An empty block's closing fence follows its opening one directly: the capture brings its own newline.
      out = out.slice(0, b.start) + now + (b.body === '' ? '\n' : '') + out.slice(b.end);
      written.push(`${file}: ${b.name}`);
    }
    if (out !== text) await writeFile(full, out);
  }
  return written;
}
