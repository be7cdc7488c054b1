import { describe, expect, it } from 'vitest';
import { displayWidth, scrollTo, splitCommand, terminalRows, wrapCommand, wrapWords, wrappedRows } from '../../src/wizard/fit-rows.js';

describe('rows a line takes, how a plan line wraps, and the window over a tall plan', () => {
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

  it('wraps a plan line between words, never inside a path, and a word wider than the row stands whole on its own row', () => {
    const line = '8. Make the libraries findable — 2 changes: /etc/ld.so.conf.d/cudawiz-cudnn-8.6-cuda11.conf, then ldconfig';
    const rows = wrapWords(line, 80, 2);
    expect(rows).toEqual(['8. Make the libraries findable — 2 changes:', '/etc/ld.so.conf.d/cudawiz-cudnn-8.6-cuda11.conf, then ldconfig']);
    for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(78);
    const long = `/tmp/${'x'.repeat(100)}/lib64`;
    expect(wrapWords(`into ${long} (toolkit only)`, 80, 2)).toEqual(['into', long, '(toolkit only)']);
    expect(terminalRows(['into', long, '(toolkit only)'], 80, 2)).toBe(4);
    // CJK breaks between characters, two columns each.
    const zh = wrapWords('把 cuDNN 复制到 CUDA 文件夹——bin、include、lib 复制进 /tmp/cw-home/cuda-root/cuda-10.1，并用清单记录备份', 40, 2);
    for (const r of zh) expect(displayWidth(r)).toBeLessThanOrEqual(38);
    expect(zh.join('')).toContain('/tmp/cw-home/cuda-root/cuda-10.1');
    // A closing mark never starts a row: the character before it goes down with it.
    const marks = wrapWords('装到 /tmp/cw-home-oWJqbb/cuda-root/cuda-10.1（只装工具包，不动显卡驱动）', 50, 2);
    for (const r of marks.slice(1)) expect(r).not.toMatch(/^[，。）、；：]/);
    expect(marks.length).toBeGreaterThan(1);
    expect(marks.join('').replace(/ /g, '')).toBe('装到/tmp/cw-home-oWJqbb/cuda-root/cuda-10.1（只装工具包，不动显卡驱动）');
    // A Windows path keeps its spaces on one row.
    const win = wrapWords('5. Install the CUDA toolkit — into C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1 (toolkit only, never the display driver)', 80, 2);
    expect(win).toEqual(['5. Install the CUDA toolkit — into', 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1 (toolkit only, never', 'the display driver)']);
  });

  it('puts a command to paste on rows of its own, whole when it fits, else broken at spaces with the shell\'s continuation', () => {
    expect(splitCommand('Python 3.11.7 cannot install TensorFlow 2.3.0 (it takes 3.5–3.8); use python3.8 -m venv .venv-tf2.3')).toEqual({
      words: 'Python 3.11.7 cannot install TensorFlow 2.3.0 (it takes 3.5–3.8); use', command: 'python3.8 -m venv .venv-tf2.3',
    });
    expect(splitCommand('Rerun it as root: sudo cudawiz repair --tf 2.12')).toEqual({ words: 'Rerun it as root:', command: 'sudo cudawiz repair --tf 2.12' });
    expect(splitCommand('GPU, driver and compute capability look right')).toBeUndefined();
    expect(wrapCommand('cudawiz repair --tf 2.12', 80, 2)).toEqual(['cudawiz repair --tf 2.12']);
    const cmd = `cudawiz install --tf 2.12 --cudnn-archive ${'/home/user/Downloads/'.repeat(3)}cudnn-linux-x86_64-8.6.0.163_cuda11-archive.tar.xz --yes`;
    const rows = wrapCommand(cmd, 80, 2);
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows.slice(0, -1)) expect(r.endsWith(' \\')).toBe(true);
    // Pasted into a shell, the rows are the one command again.
    expect(rows.join('\n').replace(/ \\\n/g, ' ')).toBe(cmd);
  });

  it('scrolls a window over the rows and keeps it in range', () => {
    expect(scrollTo(0, 1, 20, 15)).toBe(1);
    expect(scrollTo(5, 1, 20, 15)).toBe(5);
    expect(scrollTo(0, -1, 20, 15)).toBe(0);
    expect(scrollTo(2, 15, 20, 15)).toBe(5);
    expect(scrollTo(0, 3, 10, 15)).toBe(0);
  });
});
