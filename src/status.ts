// One vocabulary for how a fact, a finding, a check or a step came out, and one way to show each:
// the symbol (Unicode, or ASCII where the terminal cannot draw it) and the colour, the same in the
// headless output (src/io/output.ts) and on the wizard's screens (components/StatusLine.tsx).
export type Status = 'pass' | 'warn' | 'fail' | 'skip' | 'info';

interface StatusLook {
  unicode: string;
  ascii: string;
  /** SGR colour code for plain terminal output. */
  ansi: number;
  /** The same colour by the name Ink takes. */
  ink: string;
}

export const STATUS_LOOK: Record<Status, StatusLook> = {
  pass: { unicode: '✓', ascii: '[ok]', ansi: 32, ink: 'green' },
  warn: { unicode: '⚠', ascii: '[!!]', ansi: 33, ink: 'yellow' },
  fail: { unicode: '✗', ascii: '[XX]', ansi: 31, ink: 'red' },
  skip: { unicode: '–', ascii: '[--]', ansi: 90, ink: 'gray' },
  info: { unicode: '•', ascii: '[..]', ansi: 36, ink: 'cyan' },
};

export function statusSymbol(status: Status, unicode: boolean): string {
  return unicode ? STATUS_LOOK[status].unicode : STATUS_LOOK[status].ascii;
}
