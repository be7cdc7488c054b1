// The wizard's first frame (its title and the scan's spinner), drawn before the UI loads: Ink and
// React take ~100 ms to load, and a person at a terminal should see the wizard start at once. It is
// the frame Ink draws first, byte for byte (test/e2e/startup.test.ts compares them); the wizard
// erases it just before Ink draws that frame again, and from then on the screen is Ink's.
import chalk from 'chalk'; // the instance Ink colours with (a dependency of ink), so the colours match
import type { Env } from '../platform.js';
import { en } from '../i18n/en.js';
import { zh } from '../i18n/zh.js';

export interface FirstFrame {
  /** Erases the frame, leaving the cursor where it was before the frame was drawn. */
  erase(): void;
}

interface Terminal {
  write(text: string): unknown;
  columns?: number;
}

const SPINNER_FIRST = '⠋'; // @inkjs/ui's <Spinner> starts at cli-spinners' "dots" frame 0
const BEGIN_SYNC = '\u001B[?2026h'; // Ink ends its first frame with the matching "end" sequence
const ERASE_LINE = '\u001B[2K';
const UP = '\u001B[1A';
const TO_COLUMN_1 = '\u001B[G';

/** Terminal columns a line may take at most: any non-ASCII character counted as a wide one. */
const widest = (line: string) => [...line].reduce((n, c) => n + (c.charCodeAt(0) < 0x7f ? 1 : 2), 0);

/**
 * Draws the first frame when Ink will draw the same one in the same place: not in CI (Ink prints no
 * frames there) nor for a screen reader, and only when no line can wrap. Otherwise undefined, and
 * Ink draws the frame itself.
 */
export function drawFirstFrame(stdout: Terminal, lang: 'en' | 'zh', env: Env): FirstFrame | undefined {
  const ciFlag = (key: string) => key in env && env[key] !== '0' && env[key] !== 'false'; // as is-in-ci, which Ink uses
  if (ciFlag('CI') || ciFlag('CONTINUOUS_INTEGRATION') || env.INK_SCREEN_READER === 'true') return undefined;
  const t = lang === 'zh' ? zh : en;
  const lines = [chalk.bold.green(t.title), `${chalk.blue(SPINNER_FIRST)} ${t.scanning}`];
  if (![t.title, `${SPINNER_FIRST} ${t.scanning}`].every((line) => widest(line) < (stdout.columns ?? 0))) return undefined;
  stdout.write(`${lines.join('\n')}\n`);
  return {
    // The cursor sits below the frame: erase that line and each frame line above it.
    erase: () => stdout.write(`${BEGIN_SYNC}${ERASE_LINE}${`${UP}${ERASE_LINE}`.repeat(lines.length)}${TO_COLUMN_1}`),
  };
}
