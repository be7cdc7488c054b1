// A user's Linux laptop for the redist route end to end: RTX 2060 on driver 525 (fixture nvidia-smi),
// bash, Python 3.10 (fixture), no CUDA, nothing in the system changed, and the local NVIDIA mirror
// serving fixture redist archives in NVIDIA's layout plus a public cuDNN archive. The CLI runs as
// `nobody` where root can switch (test/helpers/other-user.ts), or as root when a test asks.
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { repoRoot } from './cli.js';
import { buildCudnnArchive } from './cudnn-archive.js';
import { startMirror } from './mirror.js';
import { asOtherUser, canSwitchToNobody, otherUserCli, readableCopy } from './other-user.js';
import { serveRedistFixtures } from './redist-fixture.js';
import { tempDir } from './tmp.js';

const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';
const CUDNN12 = 'cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz';
const CUDNN12_URL_PATH = `compute/cudnn/redist/cudnn/linux-x86_64/${CUDNN12}`;

export interface RedistUserOptions {
  /** The mirror serves CUDA 12.9.1's archives and cuDNN 8.9.7 for CUDA 12 (TF 2.15–2.17) instead of 11.8's and cuDNN 8.1. */
  cuda12?: boolean;
  /** A toolkit folder outside the home folder (`<base>/data/cuda`, the user's own), passed as --cuda-root. */
  outsideHome?: boolean;
}

export interface RunOptions {
  /** Source this file first, as a new shell would. */
  source?: string;
  env?: Record<string, string>;
  /** Run as the test's own user (root, where the tests run as root), not as `nobody`. */
  asTester?: boolean;
}

export async function redistUser(options: RedistUserOptions = {}) {
  const base = await tempDir('cw-redist-e2e-');
  await chmod(base, 0o755);
  const home = path.join(base, 'home');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(base, 'driver-lib');
  const cudaRoot = options.outsideHome ? path.join(base, 'data', 'cuda') : undefined;
  await mkdir(bin, { recursive: true });
  await mkdir(driverLib);
  if (cudaRoot) await mkdir(cudaRoot, { recursive: true });
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  await writeFile(path.join(home, '.bashrc'), '# the user\'s own bashrc\n');
  const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = options.cuda12
    ? await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-archive', version: '8.9.7.29', cuda: '12', fileName: CUDNN12 })
    : await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(options.cuda12 ? CUDNN12_URL_PATH : CUDNN_URL_PATH, await readFile(cudnn.file));
  const cudnnEntry = options.cuda12
    ? { version: '8.9.7.29', cuda: '12', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN12_URL_PATH}`, sha256: served.sha256, size: served.size } } }
    : { version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } };
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { release: options.cuda12 ? '12.9.1' : '11.8.0', overlayExtra: { cudnn: [cudnnEntry] } });
  const overlay = path.join(home, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  if (canSwitchToNobody) {
    await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);
    if (cudaRoot) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, path.join(base, 'data')]);
  }
  // The user runs a copy of the built CLI and reads a copy of the Python fixture: the checkout may be where only its owner can go.
  const builtCli = await otherUserCli();
  const pythonPath = path.join(await readableCopy('test/fixtures/python/py310'), 'test/fixtures/python/py310');
  const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: driverLib, PYTHONPATH: pythonPath };
  const globals = ['--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(home, 'cache'), ...(cudaRoot ? ['--cuda-root', cudaRoot] : [])];
  /** The built CLI as that user (nobody when the tests run as root), optionally after sourcing a file as a new shell would. */
  const run = async (argv: string[], o: RunOptions = {}) => {
    const command = o.source ? ['bash', '-c', `. "$0" && exec "$@"`, o.source, process.execPath, builtCli, ...argv] : [process.execPath, builtCli, ...argv];
    const [file, ...args] = o.asTester ? command : asOtherUser(command);
    const r = await execa(file, args, { env: { ...env, ...o.env }, extendEnv: false, cwd: home, reject: false });
    return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
  const mm = options.cuda12 ? '12.9' : '11.8';
  const toolkit = cudaRoot ? path.join(cudaRoot, `cuda-${mm}`) : path.join(home, `.local/share/cudawiz/cuda/cuda-${mm}`);
  // What a user who added the printed lines has (--configure-env no).
  const ownLoaderPath = { LD_LIBRARY_PATH: `${path.join(toolkit, 'lib64')}:${driverLib}` };
  return { base, home, cudaRoot, fixture, mirror, run, globals, toolkit, ownLoaderPath };
}
