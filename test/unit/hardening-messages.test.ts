// Issue 33's "also" items: what cudawiz says must be true. A full --dest is named as the --dest
// (not as the cache file it copied from) and keeps no half copy; root is not told to use sudo.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { importCudnn } from '../../src/cudnn/index.js';
import { CudawizError } from '../../src/errors.js';
import { builtCli } from '../helpers/cli.js';
import { buildCudnnArchive, makeToolkit } from '../helpers/cudnn-archive.js';
import { laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';

const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts.reverse()) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
});
const mount = (dir: string, options: string) => {
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
  mounts.push(dir);
};

describe.runIf(runningAsRoot)('on a full or read-only disk (tmpfs, as root)', () => {
  it('a full --dest is named as the --dest, and no half copy is left there', async () => {
    const m = await laptop();
    const full = path.join(await tempDir('cw-dest-full-'), 'full');
    await mkdir(full);
    mount(full, 'size=256k');
    await writeFile(path.join(full, 'fill'), Buffer.alloc(512 * 1024)).catch(() => undefined);
    const cache = path.join(m.home, 'cache');
    const r = await execa(process.execPath, [builtCli, 'download', 'cuda', '--version', '10.1', '--os', 'linux', '--catalog', m.overlay, '--mirror', m.mirror.url, '--cache-dir', cache, '--dest', full, '--no-color'], { env: { PATH: process.env.PATH ?? '', ...m.env }, extendEnv: false, reject: false });
    const out = String(r.stdout) + String(r.stderr);
    await m.mirror.close();
    expect(r.exitCode, out).not.toBe(0);
    expect(out).toMatch(/full/);
    expect(out).toContain(full);
    expect(out).not.toContain(cache);
    expect(await readdir(full)).toEqual(['fill']);
  });

  it('root whose toolkit is on a read-only disk is not told to run sudo', async () => {
    const base = await tempDir('cw-ro-toolkit-');
    const ro = path.join(base, 'ro');
    await mkdir(ro);
    mount(ro, 'size=1m');
    const toolkit = await makeToolkit(path.join(ro, 'cuda-10.1'), 'linux');
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const e = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' }).then(() => undefined, (error: unknown) => error as CudawizError);
    expect(e).toBeInstanceOf(CudawizError);
    expect(e!.fix).not.toMatch(/Run it with sudo|sudo cudawiz/);
    expect(e!.fix).toContain('You are root already');
  });
});
