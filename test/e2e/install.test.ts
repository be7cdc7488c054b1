// `cudawiz install` and `repair` end to end: the built CLI in a real child process, against the local
// NVIDIA mirror serving the fixture CUDA runfile, a cuDNN tgz with the real layout, a fixture
// nvidia-smi on PATH, and a temp --cuda-root. Nothing outside the temp dirs is written.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, runBuilt } from '../helpers/cli.js';
import { buildCudnnArchive, treeDigest } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const RUN_PATH = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
const MATH_LIBS = 'libcublas.so.10 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.10';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

interface Laptop {
  cudaRoot: string;
  toolkit: string;
  downloads: string;
  archive: string;
  env: Record<string, string>;
  args(...extra: string[]): string[];
}

/** A Linux laptop with an RTX 2060 on driver 525, no CUDA yet, and the cuDNN tgz already in Downloads. */
async function laptop(cuda: { version: string; runPath: string } = { version: '10.1.243', runPath: RUN_PATH }): Promise<Laptop> {
  const home = await tempDir('cw-home-');
  const cudaRoot = path.join(home, 'cuda-root');
  const downloads = path.join(home, 'Downloads');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(home, 'driver-lib');
  await Promise.all([mkdir(cudaRoot), mkdir(downloads), mkdir(bin), mkdir(driverLib)]);
  for (const f of ['rtx2060-laptop.sh', 'answer-query.sh']) await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi', f), path.join(bin, f === 'answer-query.sh' ? f : 'nvidia-smi'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const runfile = await mirror.addFile(cuda.runPath, await readFile(path.join(repoRoot, 'test/fixtures/cuda-installer/cuda_runfile.sh')));
  const overlay = path.join(home, 'overlay.json');
  await writeFile(overlay, JSON.stringify({ cuda: [{ version: cuda.version, installers: { linux: { sha256: runfile.sha256 } } }] }));
  const archive = await buildCudnnArchive(downloads, { era: 'linux-cuda-folder' });
  const toolkit = path.join(cudaRoot, `cuda-${cuda.version.split('.').slice(0, 2).join('.')}`);
  const m = mirror;
  return {
    cudaRoot,
    toolkit,
    downloads,
    archive: archive.file,
    env: {
      HOME: home,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      // The user's own loader path, as a home install with --configure-env no leaves it to them.
      LD_LIBRARY_PATH: `${path.join(toolkit, 'lib64')}:${driverLib}`,
      CUDA_FIXTURE_LIBS: MATH_LIBS,
      CUDA_FIXTURE_TMP_LOG: path.join(home, 'cuda-installer.log'),
      PYTHONPATH: '',
    },
    args: (...extra) => [...extra, '--catalog', overlay, '--mirror', m.url, '--cuda-root', cudaRoot, '--cache-dir', path.join(home, 'cache'), '--downloads', downloads, '--configure-env', 'no'],
  };
}

const events = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; id?: string; ok?: boolean; exitCode?: number; steps?: { id: string; done: boolean }[]; message?: string });

describe('cudawiz install, headless', () => {
  it('sets up TF 2.3 on a fresh Linux laptop: downloads, verifies, installs CUDA 10.1, copies cuDNN 7.6.5, verifies', async () => {
    const m = await laptop();
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--json'), { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(r.code).toBe(0);
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(['preflight', 'download-cuda', 'install-cuda', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
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
    expect(plan.steps!.filter((s) => !s.done).map((s) => s.id)).toEqual(['preflight', 'configure-env', 'verify']);
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
    expect(mirror!.requests).toHaveLength(0);
  });

  it('waits on the user (exit 3) with the page and the exact file when the login-gated archive is nowhere to be found', async () => {
    // TF 2.4 needs cuDNN 8.0 for CUDA 11.0, whose Linux tgz exists only behind NVIDIA's login.
    const m = await laptop({ version: '11.0.3', runPath: 'compute/cuda/11.0.3/local_installers/cuda_11.0.3_450.51.06_linux.run' });
    const r = await runBuilt(m.args('install', '--tf', '2.4', '--yes'), { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain('waiting for cudnn-11.0-linux-x64-v8.0.4.30.tgz');
    expect(r.stdout).toContain('https://developer.nvidia.com/rdp/cudnn-archive');
    expect(r.stdout).toContain('--cudnn-archive');
    // CUDA itself went in; the next run with --cudnn-archive continues from there.
    expect(await readdir(path.join(m.toolkit, 'bin'))).toContain('nvcc');
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
