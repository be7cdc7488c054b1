// A Linux laptop for end-to-end runs: an RTX 2060 on driver 525 (fixture nvidia-smi on PATH), no CUDA
// yet, the cuDNN tgz already in ~/Downloads, and a local NVIDIA mirror serving the fixture runfile
// under the real name, with a catalog overlay naming its checksum. Everything lives in temp dirs.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { bundleForNode } from '../../bench/bundle-for-node.mjs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { repoRoot, runBuilt } from './cli.js';
import { buildCudnnArchive, treeDigest } from './cudnn-archive.js';
import { startMirror, type NvidiaMirror } from './mirror.js';
import { tempDir } from './tmp.js';

export const CUDA_101 = { version: '10.1.243', runPath: 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run' };
const MATH_LIBS = 'libcublas.so.10 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.10';

export interface Laptop {
  home: string;
  cudaRoot: string;
  cache: string;
  toolkit: string;
  downloads: string;
  archive: string;
  overlay: string;
  mirror: NvidiaMirror;
  env: Record<string, string>;
  /** The global flags that point cudawiz at this laptop's mirror, catalog overlay and folders. */
  globals: string[];
}

export async function laptop(cuda = CUDA_101, options: { pythonPath?: string; runfilePadding?: number; linkBytesPerSec?: number } = {}): Promise<Laptop> {
  const home = await tempDir('cw-home-');
  const cudaRoot = path.join(home, 'cuda-root');
  const downloads = path.join(home, 'Downloads');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(home, 'driver-lib');
  const cache = path.join(home, 'cache');
  await Promise.all([mkdir(cudaRoot), mkdir(downloads), mkdir(bin), mkdir(driverLib)]);
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  const mirror = await startMirror({ root: await tempDir('cw-mirror-'), linkBytesPerSec: options.linkBytesPerSec });
  // Padding after the script's final `exit 0` makes a download long enough to interrupt; sh never reads it.
  const script = await readFile(path.join(repoRoot, 'test/fixtures/cuda-installer/cuda_runfile.sh'));
  const runfile = await mirror.addFile(cuda.runPath, Buffer.concat([script, randomBytes(options.runfilePadding ?? 0)]));
  const archive = await buildCudnnArchive(downloads, { era: 'linux-cuda-folder' });
  // The fixture archive carries NVIDIA's file name, so the overlay gives its checksum in place of NVIDIA's.
  const overlay = path.join(home, 'overlay.json');
  const archiveSha = createHash('sha256').update(await readFile(archive.file)).digest('hex');
  await writeFile(overlay, JSON.stringify({ cuda: [{ version: cuda.version, installers: { linux: { sha256: runfile.sha256 } } }], cudnn: [{ version: '7.6.5.32', cuda: '10.1', archives: { linux: { sha256: archiveSha } } }] }));
  const toolkit = path.join(cudaRoot, `cuda-${cuda.version.split('.').slice(0, 2).join('.')}`);
  // The user's own loader path lives where users keep it, so a new shell has it too (repair's proof asks one).
  await writeFile(path.join(home, '.bashrc'), `export LD_LIBRARY_PATH=${path.join(toolkit, 'lib64')}:${driverLib}\nexport PYTHONPATH=${options.pythonPath ?? ''}\n`);
  return {
    home,
    cudaRoot,
    cache,
    toolkit,
    downloads,
    archive: archive.file,
    overlay,
    mirror,
    env: {
      HOME: home,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      // The user's own loader path, as a home install with --configure-env no leaves it to them.
      LD_LIBRARY_PATH: `${path.join(toolkit, 'lib64')}:${driverLib}`,
      CUDA_FIXTURE_LIBS: MATH_LIBS,
      CUDA_FIXTURE_TMP_LOG: path.join(home, 'cuda-installer.log'),
      PYTHONPATH: options.pythonPath ?? '',
    },
    globals: ['--catalog', overlay, '--mirror', mirror.url, '--cuda-root', cudaRoot, '--cache-dir', cache],
  };
}

/** Runs the fixture runfile by hand, as a user would have, into the laptop's CUDA root. */
export async function installByHand(m: Laptop, runName: string, mm: string, libs: string): Promise<string> {
  const dir = await tempDir('cw-run-');
  const run = path.join(dir, runName);
  await copyFile(path.join(repoRoot, 'test/fixtures/cuda-installer/cuda_runfile.sh'), run);
  const toolkit = path.join(m.cudaRoot, `cuda-${mm}`);
  const r = await execa('sh', [run, '--silent', '--toolkit', `--installpath=${toolkit}`, `--tmpdir=${dir}`], { env: { CUDA_FIXTURE_LIBS: libs }, reject: false });
  if (r.exitCode !== 0) throw new Error(`the fixture runfile failed: ${r.stdout}${r.stderr}`);
  return toolkit;
}

/** cudawiz's own import in a real child process, copying slowly; killed with SIGKILL after `afterFiles` files, or left to finish. */
export async function importInChild(archive: string, toolkit: string, afterFiles?: number): Promise<void> {
  const script = await bundleForNode(path.join(repoRoot, 'test/fixtures/slow-cudnn-import.ts'), path.join(await tempDir(), 'slow-cudnn-import.mjs'));
  const child = execa(process.execPath, [script, archive, toolkit, 'linux', afterFiles === undefined ? '0' : '100'], { reject: false });
  if (afterFiles !== undefined) {
    for await (const line of createInterface({ input: child.stdout! })) {
      if (((JSON.parse(line) as { files?: number }).files ?? 0) >= afterFiles) {
        child.kill('SIGKILL');
        break;
      }
    }
  }
  await child;
}


/** Every file (not folder) under `dir`, its mode and sha256; what `skip` matches left out. */
export async function fileDigests(dir: string, skip: RegExp): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await treeDigest(dir)).filter(([k, v]) => !v.startsWith('dir:') && !skip.test(k)));
}

/**
 * A laptop on which `install --tf 2.3 --route toolkit --yes` ran through the built CLI (npm run build
 * first): NVIDIA's installer laid the toolkit out and the journal names its uninstaller. `before`: every
 * file of the home before the install, the cache (downloads and logs, kept by design) left out by `skip`.
 */
export async function laptopWithInstallerToolkit(): Promise<{ m: Laptop; env: Record<string, string>; calls: string; skip: RegExp; before: Record<string, string>; uninstaller: string }> {
  const m = await laptop();
  const calls = path.join(m.cache, 'calls.txt');
  const env = { ...m.env, CUDA_FIXTURE_CALLS: calls };
  const skip = /^cache\//;
  const before = await fileDigests(m.home, skip);
  const r = await runBuilt(['install', '--tf', '2.3', '--route', 'toolkit', '--yes', '--configure-env', 'no', ...m.globals, '--downloads', m.downloads], { env });
  if (r.code !== 0) {
    await m.mirror.close();
    throw new Error(`install exited ${r.code}:\n${r.stdout}${r.stderr}`);
  }
  return { m, env, calls, skip, before, uninstaller: path.join(m.toolkit, 'bin', 'cuda-uninstaller') };
}

/**
 * An RTX 2060 laptop's driver side in `home`: bin/nvidia-smi (the captured fixture) and driver-lib/libcuda.so.1,
 * no CUDA, and the user's own .bashrc. Returns the folders to put on PATH and LD_LIBRARY_PATH.
 */
export async function driverOnlyHome(home: string): Promise<{ bin: string; driverLib: string }> {
  const bin = path.join(home, 'bin');
  const driverLib = path.join(home, 'driver-lib');
  await mkdir(bin, { recursive: true });
  await mkdir(driverLib);
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  await writeFile(path.join(home, '.bashrc'), "# the user's own bashrc\n");
  return { bin, driverLib };
}
