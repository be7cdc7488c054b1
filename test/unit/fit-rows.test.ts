import { describe, expect, it } from 'vitest';
import { displayWidth, linesToCut, wrappedRows } from '../../src/wizard/fit-rows.js';

describe('rows a line takes, and which lines a tall plan cuts', () => {
  it('counts CJK characters as two columns and breaks between them', () => {
    expect(displayWidth('CUDA 10.1')).toBe(9);
    expect(displayWidth('安装 CUDA')).toBe(9);
    // 40 CJK characters are 80 columns: one row at 80, two at 79.
    expect(wrappedRows('装'.repeat(40), 80)).toBe(1);
    expect(wrappedRows('装'.repeat(40), 79)).toBe(2);
  });

  it('wraps word by word as Ink does, and breaks a word longer than a row', () => {
    // The plan's step 2 at 80 columns: Ink put "2.3.0 (it takes …" on a second row.
    expect(wrappedRows('• 2. Choose the Python for TensorFlow — Python 3.11.7 cannot install TensorFlow 2.3.0 (it takes 3.5–3.8); use python3.8 -m venv .venv-tf2.3', 80)).toBe(2);
    expect(wrappedRows('• 1. Check this machine — GPU, driver and compute capability look right', 80)).toBe(1);
    expect(wrappedRows('x'.repeat(170), 80)).toBe(3);
  });

  it('cuts nothing when the plan fits, and the tallest lines first when it does not', () => {
    const lines = ['short', 'y '.repeat(100), 'z '.repeat(50), 'w '.repeat(60)];
    expect(linesToCut(lines, 80, 10)).toEqual([false, false, false, false]);
    // 1 + 3 + 2 + 2 = 8 rows into 6: the three-row line goes first (−2), which is enough.
    expect(linesToCut(lines, 80, 6)).toEqual([false, true, false, false]);
    // Into 4: every wrapping line is cut; a one-row line never is.
    expect(linesToCut(lines, 80, 4)).toEqual([false, true, true, true]);
    expect(linesToCut(lines, 80, 1)).toEqual([false, true, true, true]);
  });
});
