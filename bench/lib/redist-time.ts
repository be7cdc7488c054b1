// The timed half of bench/redist.mjs (bundled for plain node): one local NVIDIA mirror capped at
// 100 MiB/s for the whole link, serving both routes' files for TF 2.12 on Linux at 1/scale of their
// real sizes — the fixture runfile padded so its bytes keep the real installer's ratio to the redist
// archives — and the built CLI run to "verified" for each route from a fresh home, in turn.
import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { buildCudnnArchive } from '../../test/helpers/cudnn-archive.js';
import { startMirror } from '../../test/helpers/mirror.js';
import { serveRedistFixtures } from '../../test/helpers/redist-fixture.js';

const [repo, scaleArg, roundsArg, ratioArg] = process.argv.slice(2);
const scale = Number(scaleArg);
const rounds = Number(roundsArg);
/** Installer bytes / redist bytes, from the real sizes. */
const installerToRedist = Number(ratioArg);
const MiB = 1024 * 1024;
const RUN_PATH = 'compute/cuda/11.8.0/local_installers/cuda_11.8.0_520.61.05_linux.run';
const CUDNN = 'cudnn-linux-x86_64-8.6.0.163_cuda11-archive.tar.xz';
const CUDNN_PATH = `compute/cudnn/redist/cudnn/linux-x86_64/${CUDNN}`;

function libraryLike(n: number): Buffer {
  const out = randomBytes(n);
  for (let i = 0; i < n; i++) out[i] = 0x41 + (out[i] % 6);
  return out;
}
function xzStream(data: Buffer): Buffer {
  const r = spawnSync('xz', ['-1', '-T1', '-c'], { input: data, maxBuffer: 64 * MiB });
  if (r.status !== 0) throw new Error(`xz failed: ${r.stderr}`);
  return r.stdout;
}

const work = await mkdtemp(path.join(os.tmpdir(), 'cudawiz-bench-redist-'));
try {
  const mirror = await startMirror({ root: path.join(work, 'mirror'), linkBytesPerSec: 100 * MiB });
  // One weight unit of the fixture is ~1 MB of the real archive: 1 MiB / scale of library bytes.
  const fixture = await serveRedistFixtures(mirror, await mkdtemp(path.join(work, 'fx-')), { kib: 1024 / scale });
  const script = await readFile(path.join(repo, 'test/fixtures/cuda-installer/cuda_runfile.sh'));
  const runBytes = Math.round(fixture.totalBytes * installerToRedist);
  // The runfile's payload is compressed as the redist archives are (xz of library-like bytes, see
  // test/helpers/redist-fixture.ts), and the fixture installer decompresses it into its --tmpdir as
  // makeself does: both routes decode what they download. One stream, repeated to the size.
  const stream = xzStream(libraryLike(8 * MiB));
  const copies = Math.max(1, Math.round((runBytes - script.length) / stream.length));
  const runfile = await mirror.addFile(RUN_PATH, Buffer.concat([script, ...Array.from({ length: copies }, () => stream)]));
  const cudnn = await buildCudnnArchive(work, { era: 'linux-archive', version: '8.6.0.163', cuda: '11', fileName: CUDNN, libraryBytes: 256 * 1024 });
  const cudnnServed = await mirror.addFile(CUDNN_PATH, await readFile(cudnn.file));
  const overlay = JSON.parse(await readFile(fixture.overlay, 'utf8')) as Record<string, unknown>;
  const overlayFile = path.join(work, 'overlay.json');
  await writeFile(overlayFile, JSON.stringify({
    ...overlay,
    cuda: [{ version: '11.8.0', installers: { linux: { sha256: runfile.sha256 } } }],
    cudnn: [{ version: '8.6.0.163', cuda: '11', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_PATH}`, sha256: cudnnServed.sha256, size: cudnnServed.size } } }],
  }));

  const runOnce = async (route: 'toolkit' | 'redist') => {
    const home = await mkdtemp(path.join(work, `home-${route}-`));
    const bin = path.join(home, 'bin');
    const driverLib = path.join(home, 'driver-lib');
    const root = path.join(home, 'cuda-root');
    await Promise.all([mkdir(bin), mkdir(driverLib), mkdir(root)]);
    await copyFile(path.join(repo, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
    await copyFile(path.join(repo, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
    await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
    const env = {
      HOME: home,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      LD_LIBRARY_PATH: `${path.join(root, 'cuda-11.8', 'lib64')}:${driverLib}`,
      CUDA_FIXTURE_LIBS: 'libcublas.so.11 libcublasLt.so.11 libcufft.so.10 libcurand.so.10 libcusolver.so.11 libcusparse.so.11',
      CUDA_FIXTURE_TMP_LOG: path.join(home, 'cuda-installer.log'),
      PYTHONPATH: '',
    };
    const logFile = path.join(work, `log-${route}.jsonl`);
    const args = [path.join(repo, 'dist/cli.js'), '--log', logFile, 'install', '--tf', '2.12', '--route', route, '--yes', '--configure-env', 'no', '--catalog', overlayFile, '--mirror', mirror.url, '--cuda-root', root, '--cache-dir', path.join(home, 'cache')];
    const t0 = performance.now();
    // Asynchronous: this process is the mirror, and must keep serving while the CLI downloads.
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const ms = performance.now() - t0;
    if (status !== 0) throw new Error(`install --route ${route} exited ${status}:\n${output}`);
    await rm(home, { recursive: true, force: true });
    // Where the time went, per step (stderr: the caller's table stays clean).
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((l) => ({ t: Date.parse(l.slice(0, 24)), e: l.slice(25) }));
    const starts = new Map<string, number>();
    const parts: string[] = [];
    for (const { t, e } of lines) {
      const m = /^\{"type":"(step-start|step-done|plan)"(?:,"id":"([^"]+)")?/.exec(e);
      if (m?.[1] === 'plan') parts.push(`plan ${t - lines[0].t} ms`);
      if (m?.[1] === 'step-start') starts.set(m[2], t);
      if (m?.[1] === 'step-done' && starts.has(m[2])) parts.push(`${m[2]} ${t - starts.get(m[2])!} ms`);
    }
    process.stderr.write(`${route}: ${Math.round(ms)} ms — ${parts.join(', ')}\n`);
    await rm(logFile, { force: true });
    return ms;
  };
  const times = { toolkit: [] as number[], redist: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    times.toolkit.push(await runOnce('toolkit'));
    times.redist.push(await runOnce('redist'));
  }
  await mirror.close();
  process.stdout.write(`${JSON.stringify({ times, installerBytes: runfile.size, redistBytes: fixture.totalBytes })}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
