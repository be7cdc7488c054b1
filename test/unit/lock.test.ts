// The lock file itself: who holds it is judged by a real process's pid (and its start time, so a
// reused pid does not count), garbage is nobody's, and a released lock leaves nothing behind.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockedError, lockFileFor } from '../../src/lock/index.js';
import { tempDir } from '../helpers/tmp.js';

async function toolkit() {
  const root = await tempDir('cw-lock-');
  return { root, dir: path.join(root, 'cuda-10.1') };
}

const holder = (pid: number, extra: Record<string, unknown> = {}) => JSON.stringify({ pid, host: os.hostname(), token: 'x', started: new Date().toISOString(), ...extra });

describe('the toolkit lock', () => {
  it('is refused while a live process holds it, naming that pid', async () => {
    const { dir } = await toolkit();
    const sleeper = execa('sleep', ['30']);
    try {
      await writeFile(lockFileFor(dir), holder(sleeper.pid!));
      const e = await acquireLock(dir).then(() => undefined, (error: unknown) => error);
      expect(e).toBeInstanceOf(LockedError);
      expect((e as LockedError).exitCode).toBe(3);
      expect((e as LockedError).message).toBe(`Another cudawiz (pid ${sleeper.pid}) is working on ${dir}.`);
    } finally {
      sleeper.kill('SIGKILL');
      await sleeper.catch(() => undefined);
    }
  });

  it('is taken over from a process that has exited, with a notice', async () => {
    const { root, dir } = await toolkit();
    const exited = execa('true');
    const gone = { pid: exited.pid! };
    await exited;
    await writeFile(lockFileFor(dir), holder(gone.pid));
    const notices: string[] = [];
    const lock = await acquireLock(dir, { onNotice: (l) => notices.push(l) });
    expect(notices).toEqual([`A cudawiz run (pid ${gone.pid}) that is no longer running left its lock on ${dir}; taking it over.`]);
    expect(JSON.parse(await readFile(lockFileFor(dir), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    expect(await readdir(root)).toEqual([]);
  });

  it('does not count a live pid whose start time differs (the pid was reused)', async () => {
    const { dir } = await toolkit();
    await writeFile(lockFileFor(dir), holder(process.pid, { startTicks: '1' }));
    const lock = await acquireLock(dir);
    await lock.release();
    expect(existsSync(lockFileFor(dir))).toBe(false);
  });

  it('treats a garbage lock file as nobody holding it', async () => {
    const { dir } = await toolkit();
    await writeFile(lockFileFor(dir), '\0garbage');
    const lock = await acquireLock(dir);
    expect(lock.file).toBe(lockFileFor(dir));
    await lock.release();
  });

  it('refuses a second holder in the same process until the first releases', async () => {
    const { dir } = await toolkit();
    const first = await acquireLock(dir);
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(LockedError);
    await first.release();
    const again = await acquireLock(dir);
    await again.release();
  });
});
