// Issues 32 and 33, end to end: redist archives that match a catalog overlay's sha256 and size (a
// compromised mirror plus manifest) and try to write outside the toolkit — through a link laid by
// one component and used by another, through a doubled slash, through the lib → lib64 rename — are
// refused with a non-zero exit; nothing outside the toolkit is written, no half-made toolkit is left,
// and rollback is clean. The built CLI runs as `nobody` when the tests run as root, as for a user.
import { chmod, copyFile, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive, type FixtureEntry } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';

/** A user's laptop (as in install-redist.test.ts) whose mirror serves archives with `extra` members;  */
async function laptop(extra: Record<string, (top: string) => FixtureEntry[]>) {
  const base = await tempDir('cw-hardening-redist-');
  await chmod(base, 0o755);
  const home = path.join(base, 'home');
  const bin = path.join(home, 'bin');
  await mkdir(bin, { recursive: true });
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(CUDNN_URL_PATH, await readFile(cudnn.file));
  const cudnnEntry = { version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } };
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { overlayExtra: { cudnn: [cudnnEntry] }, extra });
  const overlay = path.join(home, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  if (runningAsRoot) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);
  const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, PYTHONPATH: path.join(repoRoot, 'test/fixtures/python/py310') };
  const globals = ['--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(home, 'cache')];
  const run = async (argv: string[]) => {
    const command = [process.execPath, builtCli, ...argv];
    const [file, ...args] = runningAsRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command] : command;
    const r = await execa(file, args, { env, extendEnv: false, cwd: home, reject: false });
    return { code: r.exitCode ?? -1, out: `${String(r.stdout)}\n${String(r.stderr)}` };
  };
  const toolkit = path.join(home, '.local/share/cudawiz/cuda/cuda-11.8');
  return { home, run, globals, toolkit };
}

const install = ['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', '--no-color'];

describe('redist archives that would write outside the toolkit (issue 32, items 1–3)', () => {
  it.each([
    [
      'a link laid by one component, used by a later one',
      { cuda_cudart: (top: string) => [{ name: `${top}/include/sub`, type: 'symlink', target: '' }], libcublas: (top: string) => [{ name: `${top}/include/sub/x.h`, data: 'evil\n' }] },
      'include/sub',
    ],
    ['a doubled slash past the link check', { cuda_cudart: (top: string) => [{ name: `${top}/lib/dd`, type: 'symlink', target: '' }, { name: `${top}//lib/dd/x.h`, data: 'evil\n' }] }, 'lib/dd/x.h'],
    ['the lib → lib64 rename', { cuda_cudart: (top: string) => [{ name: `${top}/lib/dd`, type: 'symlink', target: '' }, { name: `${top}/lib64/dd/x.h`, data: 'evil\n' }] }, 'dd'],
  ] as const)('%s: refused, non-zero exit, nothing outside, no half-made toolkit, rollback clean', async (_what, extra, named) => {
    let elsewhereDir = '';
    // The link points at the real outside folder (known once the laptop exists): the fixture reads it lazily.
    const lazy = Object.fromEntries(Object.entries(extra).map(([id, f]) => [id, (top: string) => (f(top) as FixtureEntry[]).map((e) => (e.type === 'symlink' ? { ...e, target: elsewhereDir } : e))]));
    const base = await tempDir('cw-elsewhere-name-');
    elsewhereDir = path.join(base, 'elsewhere');
    await mkdir(elsewhereDir);
    await chmod(base, 0o755);
    await chmod(elsewhereDir, 0o777);
    await writeFile(path.join(elsewhereDir, 'keep.h'), 'theirs\n');
    const m = await laptop(lazy);
    const r = await m.run([...install, ...m.globals]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('archive was refused');
    expect(r.out).toContain(named);
    expect(r.out).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
    expect((await readdir(elsewhereDir)).sort()).toEqual(['keep.h']);
    expect(await readFile(path.join(elsewhereDir, 'keep.h'), 'utf8')).toBe('theirs\n');
    await expect(lstat(m.toolkit)).rejects.toThrow();
    const rollback = await m.run(['rollback', '--json', ...m.globals]);
    expect(rollback.code, rollback.out).toBe(0);
    expect((await readdir(elsewhereDir)).sort()).toEqual(['keep.h']);
  });
});
