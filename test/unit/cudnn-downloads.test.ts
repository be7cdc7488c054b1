import { appendFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findArchiveInDownloads, waitForArchiveInDownloads } from '../../src/cudnn/index.js';
import { tempDir } from '../helpers/tmp.js';

const NAME = 'cudnn-10.1-windows10-x64-v7.6.5.32.zip';

describe('finding the cuDNN archive in Downloads', () => {
  it('finds the exact name, or the newest browser duplicate "name (1).zip", case-insensitively', async () => {
    const dir = await tempDir();
    expect(await findArchiveInDownloads(dir, NAME)).toBeUndefined();
    await writeFile(path.join(dir, 'cudnn-10.1-windows10-x64-v7.6.5.32.ZIP'), 'first');
    expect(await findArchiveInDownloads(dir, NAME)).toBe(path.join(dir, 'cudnn-10.1-windows10-x64-v7.6.5.32.ZIP'));
    const dup = path.join(dir, 'cudnn-10.1-windows10-x64-v7.6.5.32 (1).zip');
    await writeFile(dup, 'second');
    const later = new Date(Date.now() + 5000);
    const { utimes } = await import('node:fs/promises');
    await utimes(dup, later, later);
    expect(await findArchiveInDownloads(dir, NAME)).toBe(dup);
    await writeFile(path.join(dir, 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), 'other');
    expect(await findArchiveInDownloads(path.join(dir, 'missing'), NAME)).toBeUndefined();
  });

  it('waits while the browser writes NAME.crdownload, and resolves once it is renamed and stops growing', async () => {
    const dir = await tempDir();
    const partial = path.join(dir, `${NAME}.crdownload`);
    await writeFile(partial, 'part one');
    let resolved = false;
    const waiting = waitForArchiveInDownloads(dir, NAME, { stableMs: 150 }).then((f) => {
      resolved = true;
      return f;
    });
    await appendFile(partial, ' part two');
    expect(resolved).toBe(false);
    await rename(partial, path.join(dir, NAME));
    expect(await waiting).toBe(path.join(dir, NAME));
  });

  it('resolves at once for a file already there, and can be cancelled while waiting', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, NAME), 'complete');
    expect(await waitForArchiveInDownloads(dir, NAME, { stableMs: 20 })).toBe(path.join(dir, NAME));
    const controller = new AbortController();
    const waiting = waitForArchiveInDownloads(await tempDir(), NAME, { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toThrow();
  });
});
