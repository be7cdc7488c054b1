// How headless commands write: plain lines (with optional colour and the symbols of src/status.ts) or one
// JSON document. Services never print; commands hand their results to an Output.
import type { Writable } from 'node:stream';
import type { Env } from '../platform.js';
import { STATUS_LOOK, statusSymbol, type Status } from '../status.js';
import { colourMarks, forJson, forTerminal } from '../redact.js';

export type { Status } from '../status.js';

export interface Output {
  json: boolean;
  color: boolean;
  unicode: boolean;
  line(text?: string): void;
  error(text: string): void;
  writeJson(value: unknown): void;
  symbol(status: Status): string;
  paint(status: Status, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

/** Unicode symbols unless the terminal is known not to draw them (legacy conhost, LANG=C). */
export function unicodeSafe(env: Env, platform: NodeJS.Platform = process.platform): boolean {
  if (env.CUDAWIZ_ASCII === '1') return false;
  if (platform === 'win32') return Boolean(env.WT_SESSION || env.TERM_PROGRAM || env.ConEmuANSI === 'ON');
  const lang = env.LC_ALL ?? env.LC_CTYPE ?? env.LANG ?? '';
  return lang === '' || /utf-?8/i.test(lang);
}

export function createOutput(options: { stdout: Writable; stderr: Writable; json: boolean; color: boolean; unicode: boolean }): Output {
  const { stdout, stderr, json, color, unicode } = options;
  // Colours are marks until line()/error() print them: an escape sequence inside a file's words is never drawn.
  const colours = colourMarks();
  const wrap = (code: number, text: string) => (color ? `${colours.mark(code)}${text}${colours.mark(0)}` : text);
  return {
    json,
    color,
    unicode,
    // Whatever a command prints, a --mirror password in it is not, nor a control character a file or flag carried
    // (JSON escapes those itself).
    line: (text = '') => void stdout.write(`${forTerminal(text, colours)}\n`),
    error: (text) => void stderr.write(`${forTerminal(text, colours)}\n`),
    writeJson: (value) => void stdout.write(`${forJson(JSON.stringify(value, null, 2))}\n`),
    symbol: (status) => wrap(STATUS_LOOK[status].ansi, statusSymbol(status, unicode)),
    paint: (status, text) => wrap(STATUS_LOOK[status].ansi, text),
    bold: (text) => wrap(1, text),
    dim: (text) => wrap(2, text),
  };
}
