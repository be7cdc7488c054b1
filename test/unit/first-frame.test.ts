// The frame the wizard draws before Ink loads: only where Ink will draw the same frame in the same
// place, and erased exactly (test/e2e/startup.test.ts compares it with Ink's own, byte for byte).
import { describe, expect, it } from 'vitest';
import { drawFirstFrame } from '../../src/cli/first-frame.js';
import { visibleText } from '../helpers/pty.js';

function terminal(columns: number) {
  let written = '';
  return { columns, write: (s: string) => (written += s), text: () => written };
}

describe('the first frame, drawn before the UI loads', () => {
  it('shows the title and the scan spinner, and erases both lines and the one below them', () => {
    const term = terminal(80);
    const frame = drawFirstFrame(term, 'en', {});
    expect(visibleText(term.text())).toBe('cudawiz — TensorFlow on your NVIDIA GPU\n⠋ Looking at this machine…\n');
    const drawn = term.text().length;
    frame?.erase();
    expect(term.text().slice(drawn)).toBe('\u001B[?2026h\u001B[2K\u001B[1A\u001B[2K\u001B[1A\u001B[2K\u001B[G');
  });

  it('is left to Ink in CI, for a screen reader, and where a line could wrap', () => {
    const cases: [number, 'en' | 'zh', Record<string, string>][] = [
      [80, 'en', { CI: 'true' }],
      [80, 'en', { CONTINUOUS_INTEGRATION: '1' }],
      [80, 'en', { INK_SCREEN_READER: 'true' }],
      [40, 'en', {}],
      [44, 'zh', {}], // CJK characters take two columns each
    ];
    for (const [columns, lang, env] of cases) {
      const term = terminal(columns);
      expect(drawFirstFrame(term, lang, env)).toBeUndefined();
      expect(term.text()).toBe('');
    }
  });

  it('still draws with CI=false (as Ink reads it) and in Chinese on a wide enough terminal', () => {
    const term = terminal(80);
    expect(drawFirstFrame(term, 'zh', { CI: 'false' })).toBeDefined();
    expect(visibleText(term.text())).toContain('正在检查这台机器…');
  });
});
