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
import { asOtherUser, canSwitchToNobody, otherUserCli, readableCopy } from '../helpers/other-user.js';
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
  const driverLib = path.join(base, 'driver-lib');
  await mkdir(bin, { recursive: true });
  await mkdir(driverLib);
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(CUDNN_URL_PATH, await readFile(cudnn.file));
  const cudnnEntry = { version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } };
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { overlayExtra: { cudnn: [cudnnEntry] }, extra });
  const overlay = path.join(home, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  if (canSwitchToNobody) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);
  const toolkit = path.join(home, '.local/share/cudawiz/cuda/cuda-11.8');
  // The user runs a copy of the built CLI and reads a copy of the Python fixture: the checkout may be where only its owner can go.
  const userCli = await otherUserCli();
  const pythonPath = path.join(await readableCopy('test/fixtures/python/py310'), 'test/fixtures/python/py310');
  // What a user who added the printed lines has (--configure-env no).
  const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: `${path.join(toolkit, 'lib64')}:${driverLib}`, PYTHONPATH: pythonPath };
  const globals = ['--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(home, 'cache')];
  const run = async (argv: string[]) => {
    const [file, ...args] = asOtherUser([process.execPath, userCli, ...argv]);
    const r = await execa(file, args, { env, extendEnv: false, cwd: home, reject: false });
    return { code: r.exitCode ?? -1, out: `${String(r.stdout)}\n${String(r.stderr)}` };
  };
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

describe('rollback of a redist toolkit (issue 33, items 1–2)', () => {
  it("removes only the files its manifest lists that are unchanged; the user's own files and a changed one stay, named; root does not touch that user's toolkit", async () => {
    const m = await laptop({});
    const r = await m.run([...install, ...m.globals]);
    expect(r.code, r.out).toBe(0);
    // The user's own files in the toolkit folder, and one of cudawiz's changed since.
    const theirs = ['lib64/libnvinfer.so.8', 'notebooks/try.ipynb'];
    for (const f of theirs) {
      await mkdir(path.dirname(path.join(m.toolkit, f)), { recursive: true });
      await writeFile(path.join(m.toolkit, f), `the user's ${f}\n`);
    }
    await writeFile(path.join(m.toolkit, 'include/cublas_v2.h'), '/* edited by the user */\n');
    if (runningAsRoot) {
      await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, m.toolkit]);
      // Root is not that user: the toolkit's bookkeeping is someone else's, so nothing of it is removed.
      const asRoot = await execa(process.execPath, [builtCli, 'rollback', '--cuda-dir', m.toolkit, '--no-color'], { reject: false, env: { PATH: process.env.PATH ?? '', HOME: m.home }, extendEnv: false });
      expect(asRoot.exitCode, String(asRoot.stdout) + String(asRoot.stderr)).toBe(1);
      expect(String(asRoot.stdout) + String(asRoot.stderr)).toContain(`is owned by user ${NOBODY}, neither root nor you`);
      expect(String(asRoot.stdout) + String(asRoot.stderr)).not.toContain('rollback --cuda-dir');
      expect((await lstat(path.join(m.toolkit, 'lib64/libcudart.so.11.8.89'))).isFile()).toBe(true);
    }
    const rollback = await m.run(['rollback', '--no-color', ...m.globals]);
    expect(rollback.code, rollback.out).toBe(0);
    expect(rollback.out).toContain("left 2 files cudawiz never wrote (yours): lib64/libnvinfer.so.8, notebooks/try.ipynb");
    expect(rollback.out).toContain('left 1 file cudawiz wrote that changed since');
    expect(rollback.out).toContain('include/cublas_v2.h');
    for (const f of theirs) expect(await readFile(path.join(m.toolkit, f), 'utf8')).toBe(`the user's ${f}\n`);
    expect(await readFile(path.join(m.toolkit, 'include/cublas_v2.h'), 'utf8')).toBe('/* edited by the user */\n');
    await expect(lstat(path.join(m.toolkit, 'lib64/libcudart.so.11.8.89'))).rejects.toThrow();
    await expect(lstat(path.join(m.toolkit, '.cudawiz'))).rejects.toThrow();
    await expect(lstat(path.join(m.toolkit, 'bin'))).rejects.toThrow();
  }, 240_000);

  it('a minimal or foreign manifest in a folder of data: rollback --cuda-dir deletes nothing, exit 1, and says why in words', async () => {
    const base = await tempDir('cw-hardening-minimal-');
    const data = path.join(base, 'data');
    await mkdir(path.join(data, '.cudawiz'), { recursive: true });
    await writeFile(path.join(data, 'thesis.tex'), 'years of work\n');
    await writeFile(path.join(data, '.cudawiz', 'redist.json'), JSON.stringify({ tool: 'cudawiz', what: 'cuda-redist', files: [] }));
    const r = await execa(process.execPath, [builtCli, 'rollback', '--cuda-dir', data, '--no-color'], { reject: false, env: { PATH: process.env.PATH ?? '', HOME: base }, extendEnv: false });
    const out = String(r.stdout) + String(r.stderr);
    expect(r.exitCode, out).toBe(1);
    expect(out).toContain('is not a cudawiz manifest cudawiz can use');
    expect(out).not.toMatch(/Expected|invalid_type|ZodError/);
    expect(await readFile(path.join(data, 'thesis.tex'), 'utf8')).toBe('years of work\n');
    expect((await readdir(path.join(data, '.cudawiz')))).toEqual(['redist.json']);
  });
});
