// How headless commands write: plain lines (with optional colour and ✓/✗ or ASCII symbols) or one
// JSON document. Services never print; commands hand their results to an Output.
import type { Writable } from 'node:stream';
import type { Env } from '../platform.js';

export type Status = 'pass' | 'warn' | 'fail' | 'skip' | 'info';

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

const SYMBOLS: Record<Status, [string, string]> = {
  pass: ['✓', '[ok]'],
  warn: ['⚠', '[!!]'],
  fail: ['✗', '[XX]'],
  skip: ['–', '[--]'],
  info: ['•', '[..]'],
};
const COLORS: Record<Status, number> = { pass: 32, warn: 33, fail: 31, skip: 90, info: 36 };

export function createOutput(options: { stdout: Writable; stderr: Writable; json: boolean; color: boolean; unicode: boolean }): Output {
  const { stdout, stderr, json, color, unicode } = options;
  const wrap = (code: number, text: string) => (color ? `\u001B[${code}m${text}\u001B[0m` : text);
  return {
    json,
    color,
    unicode,
    line: (text = '') => void stdout.write(`${text}\n`),
    error: (text) => void stderr.write(`${text}\n`),
    writeJson: (value) => void stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    symbol: (status) => wrap(COLORS[status], SYMBOLS[status][unicode ? 0 : 1]),
    paint: (status, text) => wrap(COLORS[status], text),
    bold: (text) => wrap(1, text),
    dim: (text) => wrap(2, text),
  };
}
