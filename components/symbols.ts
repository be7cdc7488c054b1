// Status symbols for the screens: Unicode where the terminal draws it, ASCII elsewhere.
import type { Status } from '../src/cli/output.js';

const UNICODE: Record<Status, string> = { pass: '✓', warn: '⚠', fail: '✗', skip: '–', info: '•' };
const ASCII: Record<Status, string> = { pass: '+', warn: '!', fail: 'x', skip: '-', info: '*' };
export const STATUS_COLOR: Record<Status, string> = { pass: 'green', warn: 'yellow', fail: 'red', skip: 'gray', info: 'cyan' };

export function statusSymbol(status: Status, unicode: boolean): string {
  return (unicode ? UNICODE : ASCII)[status];
}
