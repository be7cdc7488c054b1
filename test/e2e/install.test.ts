// `cudawiz install` and `repair` end to end: the built CLI in a real child process, against the local
// NVIDIA mirror serving the fixture CUDA runfile, a cuDNN tgz with the real layout, a fixture
// nvidia-smi on PATH, and a temp --cuda-root. Nothing outside the temp dirs is written.
import { randomBytes } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { buildCudnnArchive, treeDigest } from '../helpers/cudnn-archive.js';
import { CUDA_101, laptop as makeLaptop } from '../helpers/laptop.js';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** The shared laptop, with the install flags this file uses on every run. */
async function laptop(cuda = CUDA_101) {
  const l = await makeLaptop(cuda);
  mirror = l.mirror;
  return { ...l, args: (...extra: string[]) => [...extra, ...l.globals, '--downloads', l.downloads, '--configure-env', 'no'] };
}

const events = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; id?: string; ok?: boolean; exitCode?: number; steps?: { id: string; done: boolean }[]; message?: string });

describe('cudawiz install, headless', () => {
  it('sets up TF 2.3 on a fresh Linux laptop: downloads, verifies, installs CUDA 10.1, copies cuDNN 7.6.5, verifies', async () => {
    const m = await laptop();
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--json'), { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(r.code).toBe(0);
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(['preflight', 'python', 'disk-space', 'download-cuda', 'install-cuda', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    const lib64 = await readdir(path.join(m.toolkit, 'lib64'));
    expect(lib64).toEqual(expect.arrayContaining(['libcudart.so.10.1', 'libcudnn.so.7', 'libcudnn.so.7.6.5']));
    const manifest = JSON.parse(await readFile(path.join(m.toolkit, '.cudawiz/manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ state: 'complete', archive: { version: '7.6.5' } });
    expect(mirror!.requests.filter((q) => q.path.endsWith('.run')).length).toBeGreaterThan(0);

    // Run again: every step that changes the machine says it is already done, and nothing is fetched.
    const before = mirror!.requests.length;
    const digest = await treeDigest(m.toolkit);
    const again = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--json'), { env: m.env });
    const plan = events(again.stdout).find((e) => e.type === 'plan')!;
    // configure-env runs again only to print the lines for the user (--configure-env no); it changes nothing.
    expect(plan.steps!.filter((s) => !s.done).map((s) => s.id)).toEqual(['preflight', 'python', 'configure-env', 'verify']);
    expect(again.code).toBe(0);
    expect(mirror!.requests.length).toBe(before);
    expect(await treeDigest(m.toolkit)).toEqual(digest);
  });

  it('without --yes and without a terminal, shows the plan, names the flag and changes nothing (exit 3)', async () => {
    const m = await laptop();
    const r = await runBuilt(m.args('install', '--tf', '2.3'), { env: m.env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('pass --yes to go ahead');
    expect(r.stdout).toContain('Install the CUDA toolkit');
    expect(await readdir(m.cudaRoot)).toEqual([]);
  });

  it('--dry-run prints the plan and changes nothing', async () => {
    const m = await laptop();
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--dry-run'), { env: m.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan:');
    expect(r.stdout).toContain('Get the cuDNN archive');
    expect(await readdir(m.cudaRoot)).toEqual([]);
    // Only the plan's size check asked the server (HEAD, no body): nothing was downloaded.
    expect(mirror!.requests.filter((q) => q.method !== 'HEAD')).toHaveLength(0);
  });

  it('waits on the user (exit 3) with the page and the exact file when the archive is nowhere to be found', async () => {
    // TF 2.4 needs cuDNN 8.0 for CUDA 11.0: its public copy (8.0.5.39) is not on this mirror, so the login path is left.
    const m = await laptop({ version: '11.0.3', runPath: 'compute/cuda/11.0.3/local_installers/cuda_11.0.3_450.51.06_linux.run' });
    const r = await runBuilt(m.args('install', '--tf', '2.4', '--route', 'toolkit', '--yes'), { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain('waiting for cudnn-11.0-linux-x64-v8.0.5.39.tgz');
    expect(r.stdout).toContain('the public copy of cudnn-11.0-linux-x64-v8.0.5.39.tgz could not be downloaded');
    expect(r.stdout).toContain('https://developer.nvidia.com/rdp/cudnn-archive');
    expect(r.stdout).toContain('--cudnn-archive');
    // CUDA itself went in; the next run with --cudnn-archive continues from there.
    expect(await readdir(path.join(m.toolkit, 'bin'))).toContain('nvcc');
  });

  it('refuses an archive under NVIDIA\'s name whose bytes are not NVIDIA\'s (a truncated download), before opening it', async () => {
    const m = await laptop();
    const fake = path.join(await tempDir('cw-fake-'), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz');
    await writeFile(fake, randomBytes(4096));
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--cudnn-archive', fake), { env: m.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${fake} is not NVIDIA's cudnn-10.1-linux-x64-v7.6.5.32.tgz`);
    expect(r.stdout).toContain('Download it again from https://developer.nvidia.com/rdp/cudnn-archive');
    expect(await readdir(path.join(m.toolkit, 'lib64'))).not.toContain('libcudnn.so.7');
  });

  it('refuses a wrong archive before copying anything, and says why', async () => {
    const m = await laptop();
    const wrong = await buildCudnnArchive(await tempDir('cw-wrong-'), { era: 'linux-archive', version: '8.9.7.29', cuda: '12' });
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--cudnn-archive', wrong.file), { env: m.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/cuDNN 8\.9\.7|major|7\.6/);
    expect(await readdir(path.join(m.toolkit, 'lib64'))).not.toContain('libcudnn.so.8');
    expect(r.stderr).toMatch(/Log: .*cudawiz-.*\.log/);
  });
});
