// One status vocabulary, one symbol table: a check reads the same on the wizard's screens as in a
// headless command's output, in Unicode and in the ASCII a legacy console or LANG=C gets.
import { PassThrough } from 'node:stream';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StatusLine } from '../../components/StatusLine.js';
import { UiContext } from '../../components/UiContext.js';
import { createOutput } from '../../src/io/output.js';
import { en } from '../../src/i18n/en.js';
import { STATUS_LOOK, type Status } from '../../src/status.js';

const STATUSES = Object.keys(STATUS_LOOK) as Status[];

function screenSymbol(status: Status, unicode: boolean): string {
  const { lastFrame } = render(
    <UiContext.Provider value={{ t: en, unicode }}>
      <StatusLine status={status} text="CUDA 10.1 is installed" />
    </UiContext.Provider>,
  );
  return (lastFrame() ?? '').replace(/ CUDA 10\.1 is installed$/, '');
}

describe('status symbols', () => {
  it.each([true, false])('are the same on the screens and in the headless output (unicode: %s)', (unicode) => {
    const out = createOutput({ stdout: new PassThrough(), stderr: new PassThrough(), json: false, color: false, unicode });
    for (const status of STATUSES) expect(screenSymbol(status, unicode)).toBe(out.symbol(status));
  });

  it('are told apart in ASCII, each by itself', () => {
    const ascii = STATUSES.map((s) => STATUS_LOOK[s].ascii);
    expect(new Set(ascii).size).toBe(ascii.length);
    expect(ascii.every((a) => /^[\x20-\x7e]+$/.test(a))).toBe(true);
  });
});
