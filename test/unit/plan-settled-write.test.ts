// #38 item 3, written for real: TF 2.11 on the redist route with a driver below CUDA 11.8's own (R470, the
// fixture nvidia-smi) — the plan's lock, its checks and the run's writes name the same folder. The CLI
// runs in-process on a fixture machine against the loopback mirror serving fixture redist archives in
// NVIDIA's layout and a public cuDNN archive; the toolkit lands in the lock target and nowhere else.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withLock } from '../../src/lock/index.js';
import { runCli } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine } from '../fixtures/machine.js';

const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** Every file and link under `dir`, relative to it. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('TF 2.11 on the redist route, driver R470 (below CUDA 11.8\'s own), run for real', { timeout: 120_000 }, () => {
  it('the lock, the checks and the writes name one folder: the toolkit lands in the lock target and nowhere else', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/local/bin:/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'r470-old-driver');
    mirror = await startMirror({ root: await tempDir('cw-mirror-') });
    const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
    const served = await mirror.addFile(CUDNN_URL_PATH, await readFile(cudnn.file));
    const cudnnEntry = { version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } };
    const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { release: '11.8.0', kib: 1, overlayExtra: { cudnn: [cudnnEntry] } });
    const root = await tempDir('cw-settled-root-');
    const cache = await tempDir('cw-settled-cache-');
    const flags = ['--tf', '2.11', '--route', 'redist', '--configure-env', 'no', '--cuda-root', root, '--catalog', fixture.overlay, '--mirror', mirror.url, '--cache-dir', cache, '--json'];

    // The checks: the dry run's plan names the lock target for the unpack (chosen with the driver: 11.8, not TF's 11.2).
    const dry = await runCli(['install', ...flags, '--dry-run'], { host: m.host });
    const plan = dry.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'plan');
    const lockTarget = path.join(root, 'cuda-11.8');
    expect(plan.stop, dry.stdout + dry.stderr).toBeUndefined();
    expect(plan.steps.find((s: { id: string }) => s.id === 'unpack-cuda-redist').reason).toContain(lockTarget);
    expect(await readdir(root)).toEqual([]);

    // The lock: held on that folder (by this test), the run does not start — it is the folder the run locks.
    const held = await withLock(lockTarget, () => runCli(['install', ...flags, '--yes'], { host: m.host }));
    expect(held.code, held.stdout + held.stderr).toBe(3);
    expect(held.stdout + held.stderr).toContain(String(process.pid));
    expect(await readdir(root)).toEqual([]);

    // The writes: the run unpacks CUDA and copies cuDNN into that folder. (Verify may fail here: no Python or TF on this machine.)
    const run = await runCli(['install', ...flags, '--yes'], { host: m.host });
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const done = events.filter((e) => e.type === 'step-done').map((e) => e.id);
    expect(done, run.stdout + run.stderr).toEqual(expect.arrayContaining(['preflight', 'download-cuda-redist', 'unpack-cuda-redist', 'import-cudnn']));
    // Only the lock target under the toolkit root (no cuda-11.2 for TF's own CUDA, no second folder), and the lock itself gone.
    expect(await readdir(root)).toEqual(['cuda-11.8']);
    const files = await tree(lockTarget);
    expect(files).toEqual(expect.arrayContaining(['lib64/libcudart.so.11.0', 'lib64/libcublas.so.11', 'bin/nvcc', 'include/cudnn.h']));
    expect(files.some((f) => /^lib64\/libcudnn\.so\.8/.test(f))).toBe(true);
    // Nothing else on the machine: only the fixture's own nvidia-smi (--configure-env no; the toolkit root was given).
    expect(await tree(m.root)).toEqual(['usr/bin/nvidia-smi']);
    expect(run.code, run.stdout + run.stderr).toBeLessThan(2);
  });
});
