// One cudawiz at a time per toolkit and per download: two real CLI processes on one laptop. The
// second is told which pid holds the toolkit (exit 3) and changes nothing; a lock left by a run that
// was killed is taken over with a notice.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, runBuilt } from '../helpers/cli.js';
import { laptop as makeLaptop, type Laptop } from '../helpers/laptop.js';
import { lockFileFor } from '../../src/lock/index.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function laptop(options?: Parameters<typeof makeLaptop>[1]): Promise<Laptop> {
  const l = await makeLaptop(undefined, options);
  cleanups.push(() => l.mirror.close());
  return l;
}

function spawnCli(m: Laptop, args: string[], env: Record<string, string> = {}): ResultPromise<{ reject: false }> {
  const child = execa(process.execPath, [builtCli, ...args], { env: { PATH: process.env.PATH ?? '', ...m.env, ...env }, extendEnv: false, reject: false });
  cleanups.push(() => {
    child.kill('SIGKILL');
    return child;
  });
  return child;
}

/** Resolves with the first line of `stream` that `match` accepts: the CLI's own output is the event. */
function firstLine(stream: NodeJS.ReadableStream, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: stream });
    rl.on('line', (l) => {
      if (match(l)) {
        resolve(l);
        rl.close();
      }
    });
    const seen: string[] = [];
    rl.on('line', (l) => seen.push(l));
    rl.on('close', () => reject(new Error(`the stream ended first:\n${seen.join('\n')}`)));
  });
}

const installArgs = (m: Laptop) => ['install', '--tf', '2.3', '--yes', '--json', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no'];

describe('one cudawiz per toolkit', () => {
  it('refuses a second install while the first runs, names its pid, and takes over the lock once it is killed', async () => {
    const m = await laptop();
    const pidfile = path.join(m.home, 'installer.pids');
    // The first run's installer waits on a child forever: the run holds the toolkit for as long as we like.
    const first = spawnCli(m, installArgs(m), { CUDA_FIXTURE_FAIL: 'child', CUDA_FIXTURE_PIDFILE: pidfile });
    cleanups.push(async () => {
      const pids = existsSync(pidfile) ? (await readFile(pidfile, 'utf8')).trim().split(/\s+/).map(Number) : [];
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    });
    await firstLine(first.stdout!, (l) => l.includes('"type":"log"') && l.includes('Waiting for the component installer'));
    expect(existsSync(lockFileFor(m.toolkit))).toBe(true);

    const second = await runBuilt(installArgs(m), { env: m.env });
    expect(second.code).toBe(3);
    expect(second.stderr).toContain(`Another cudawiz (pid ${first.pid}) is working on ${m.toolkit}.`);
    expect(second.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(JSON.parse(second.stdout)).toMatchObject({ error: { code: 'locked', pid: first.pid, dir: m.toolkit } });

    // SIGKILL: no cleanup runs, the lock file stays behind with a dead pid in it.
    first.kill('SIGKILL');
    await first;
    for (const pid of (await readFile(pidfile, 'utf8')).trim().split(/\s+/).map(Number)) process.kill(pid, 'SIGKILL');
    expect(existsSync(lockFileFor(m.toolkit))).toBe(true);
    // The fixture's stand-in for /tmp/cuda-installer.log, which cudawiz moves aside only at the real path.
    await rm(m.env.CUDA_FIXTURE_TMP_LOG, { force: true });

    const third = await runBuilt(installArgs(m), { env: m.env });
    expect(third.code, third.stdout + third.stderr).toBe(0);
    expect(third.stderr).toContain(`A cudawiz run (pid ${first.pid}) that is no longer running left its lock on ${m.toolkit}; taking it over.`);
    expect(existsSync(lockFileFor(m.toolkit))).toBe(false);
  });

  it('refuses a second download of the same file into the same cache while the first is under way', async () => {
    // 6 MiB at 512 KiB/s: the first download takes ~12 s, long enough to be overlapped.
    const m = await laptop({ runfilePadding: 6 * 1024 * 1024, linkBytesPerSec: 512 * 1024 });
    const args = ['download', 'cuda', '--version', '10.1', '--os', 'linux', ...m.globals];
    const first = spawnCli(m, args);
    await firstLine(first.stderr!, (l) => /\d+%/.test(l));
    const second = await runBuilt(args, { env: m.env });
    expect(second.code).toBe(3);
    const entry = path.join(m.cache, 'cuda_10.1.243_418.87.00_linux.run');
    expect(second.stderr).toContain(`Another cudawiz (pid ${first.pid}) is working on ${entry}.`);
    first.kill('SIGINT');
    await first;
  });
});
