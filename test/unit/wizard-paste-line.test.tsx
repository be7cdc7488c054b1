// A command to paste is never broken by a newline (#39): the load-order remedy's "in this shell:
// export LD_LIBRARY_PATH=…" line, longer than the terminal, is drawn with the command on a line of its own.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StepView } from '../../components/StepView.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { remediesText } from '../../src/i18n/remedies.js';
import type { StepState } from '../../src/plan/events.js';

describe('a command to paste', () => {
  it('keeps the whole export line on one line, wider than the terminal', () => {
    const dir = '/home/someone/with/a/rather/long/path/cuda-root/cuda-11.8/lib64';
    const command = `export LD_LIBRARY_PATH="${dir}\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`;
    const step = { id: 'load-order', title: 'Put the right copies first', status: 'done', log: [], summary: 'done', evidence: [remediesText.thisShell(command)] } as unknown as StepState;
    const { lastFrame } = render(
      <UiContext.Provider value={{ t: en, unicode: true }}>
        <StepView step={step} />
      </UiContext.Provider>,
    );
    const lines = (lastFrame() ?? '').split('\n');
    expect(command.length).toBeGreaterThan(100);
    expect(lines).toContain(`    ${command}`);
    expect(lines.some((l) => l.trim() === 'in this shell:')).toBe(true);
  });
});
