import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkZlibwapi, peMachine } from '../../src/cudnn/index.js';
import { peBytes } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

describe('zlibwapi.dll for cuDNN 8.3+ on Windows', () => {
  it('reads the PE machine type: x64, x86, or not a PE file', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'a.dll'), peBytes('x64'));
    await writeFile(path.join(dir, 'b.dll'), peBytes('x86'));
    await writeFile(path.join(dir, 'c.dll'), 'not a dll');
    expect(await peMachine(path.join(dir, 'a.dll'))).toBe('x64');
    expect(await peMachine(path.join(dir, 'b.dll'))).toBe('x86');
    expect(await peMachine(path.join(dir, 'c.dll'))).toBe('not-pe');
  });

  it('passes over a 32-bit copy on PATH and finds the 64-bit one further on', async () => {
    const root = await tempDir();
    const [bin, old, good] = ['toolkit-bin', 'old-tools', 'zlib-x64'].map((d) => path.join(root, d));
    for (const d of [bin, old, good]) await mkdir(d);
    await writeFile(path.join(old, 'zlibwapi.dll'), peBytes('x86'));
    await writeFile(path.join(good, 'zlibwapi.dll'), peBytes('x64'));
    const r = await checkZlibwapi([bin, old, good]);
    expect(r).toMatchObject({ ok: true, found: path.join(good, 'zlibwapi.dll'), unusable: [{ file: path.join(old, 'zlibwapi.dll'), machine: 'x86' }] });
  });

  it('says how to get one when only a 32-bit copy (or none) exists', async () => {
    const dir = await tempDir();
    const none = await checkZlibwapi([dir]);
    expect(none.ok).toBe(false);
    expect(none.fix).toContain('zlib123dllx64.zip');
    await writeFile(path.join(dir, 'zlibwapi.dll'), peBytes('x86'));
    const x86 = await checkZlibwapi([dir]);
    expect(x86.fix).toMatch(/^Only non-64-bit copies were found \(.*zlibwapi\.dll: x86\)/);
  });
});
