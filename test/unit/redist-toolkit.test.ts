// The redist toolkit on a user's machine: NVIDIA's per-component archives (fixtures in the real
// layout, real tar.xz and zip) served by the local mirror, fetched in parallel and verified, unpacked
// into a per-user folder; a corrupted download refused, a killed unpack repaired, a rollback that
// leaves nothing. Real files, real child processes, no mocks.
import { lstat, readFile, readlink, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleForNode } from '../../bench/bundle-for-node.mjs';
import { loadRedistCatalog, releaseArchives } from '../../src/redist/catalog.js';
import { checkRedistToolkit, downloadArchives, readRedistManifest, removeRedistToolkit, repairRedist, unpackRedist } from '../../src/redist/toolkit.js';
import { repoRoot } from '../helpers/cli.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

async function setup(platform: 'linux-x86_64' | 'windows-x86_64' = 'linux-x86_64') {
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { platform });
  const catalog = loadRedistCatalog(fixture.overlay);
  const release = catalog.releases.find((r) => r.version === '11.8.0')!;
  const os = platform === 'linux-x86_64' ? ('linux' as const) : ('windows' as const);
  const home = await tempDir('cw-redist-home-');
  const toolkitDir = path.join(home, '.local/share/cudawiz/cuda', os === 'linux' ? 'cuda-11.8' : 'v11.8');
  const cacheDir = path.join(home, 'cache');
  const fetchAll = () => downloadArchives({ catalog, archives: releaseArchives(catalog, release, os).archives, cacheDir, mirror: mirror!.url });
  return { fixture, catalog, release, os, toolkitDir, cacheDir, fetchAll };
}

const paths = (m: Awaited<ReturnType<typeof fetchPaths>>) => m;
async function fetchPaths(fetchAll: () => ReturnType<typeof downloadArchives>) {
  return new Map([...(await fetchAll())].map(([k, v]) => [k, v.path]));
}

describe('the redist toolkit', () => {
  it('fetches the 9 components TF loads and lays them out as a Linux toolkit: lib64 with its links, runnable nvcc, version.json', async () => {
    const s = await setup();
    const files = paths(await fetchPaths(s.fetchAll));
    expect([...files.keys()].sort()).toEqual(['cuda_cudart', 'cuda_cupti', 'cuda_nvcc', 'cuda_nvrtc', 'libcublas', 'libcufft', 'libcurand', 'libcusolver', 'libcusparse']);
    const m = await unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, builtFor: '11.2', files });
    expect(m.state).toBe('complete');
    const lib64 = await readdir(path.join(s.toolkitDir, 'lib64'));
    expect(lib64).toEqual(expect.arrayContaining(['libcudart.so.11.0', 'libcublas.so.11', 'libcublasLt.so.11', 'libcufft.so.10', 'libcurand.so.10', 'libcusolver.so.11', 'libcusparse.so.11', 'libcupti.so.11.8', 'libnvrtc.so.11.2']));
    expect(await readlink(path.join(s.toolkitDir, 'lib64/libcudart.so.11.0'))).toBe('libcudart.so.11.8.89');
    expect(await readdir(s.toolkitDir)).not.toContain('lib');
    expect((await stat(path.join(s.toolkitDir, 'nvvm/libdevice/libdevice.10.bc'))).isFile()).toBe(true);
    const nvcc = await execa(path.join(s.toolkitDir, 'bin/nvcc'), ['--version']);
    expect(nvcc.stdout).toContain('release 11.8');
    expect(JSON.parse(await readFile(path.join(s.toolkitDir, 'version.json'), 'utf8')).cuda.version).toBe('11.8.0');
    // Each archive's LICENSE is kept per component, none overwriting another.
    expect((await readdir(path.join(s.toolkitDir, 'licenses'))).length).toBe(9);
    expect((await checkRedistToolkit(s.toolkitDir, { deep: true })).changed).toEqual([]);
  });

  it('lays out a Windows toolkit from the zips: DLLs in bin, lib\\x64, CUPTI under extras\\CUPTI\\lib64', async () => {
    const s = await setup('windows-x86_64');
    const m = await unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, files: await fetchPaths(s.fetchAll) });
    expect(m.state).toBe('complete');
    expect(await readdir(path.join(s.toolkitDir, 'bin'))).toEqual(expect.arrayContaining(['cudart64_110.dll', 'cublas64_11.dll', 'cublasLt64_11.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_11.dll', 'cusparse64_11.dll', 'nvrtc64_112_0.dll', 'nvcc.exe', 'ptxas.exe']));
    expect(await readdir(path.join(s.toolkitDir, 'lib/x64'))).toContain('cudart.lib');
    expect(await readdir(path.join(s.toolkitDir, 'extras/CUPTI/lib64'))).toEqual(['cupti64_2022.3.0.dll']);
  });

  it('refuses a corrupted archive: deleted, named with both checksums, nothing unpacked', async () => {
    const s = await setup();
    mirror!.fault({ mode: 'wrong-bytes', path: 'libcufft-linux-x86_64-10.9.0.58-archive.tar.xz' });
    const error = await s.fetchAll().then(() => undefined, (e: unknown) => e as { code?: string; message: string });
    expect(error?.code).toBe('checksum-mismatch');
    expect(error?.message).toContain(s.fixture.archives.libcufft.sha256);
    expect(await readdir(s.cacheDir)).not.toContain('libcufft-linux-x86_64-10.9.0.58-archive.tar.xz');
    await expect(stat(s.toolkitDir)).rejects.toThrow();
  });

  it('after a kill mid-unpack, repair re-verifies every file and finishes from the cache without fetching again', async () => {
    const s = await setup();
    const files = await fetchPaths(s.fetchAll);
    const script = await bundleForNode(path.join(repoRoot, 'test/fixtures/slow-redist-unpack.ts'), path.join(await tempDir(), 'slow-redist-unpack.mjs'));
    const child = execa(process.execPath, [script, s.fixture.overlay, s.toolkitDir, 'linux', '40', JSON.stringify(Object.fromEntries(files))], { reject: false });
    for await (const line of createInterface({ input: child.stdout! })) {
      if (((JSON.parse(line) as { files?: number }).files ?? 0) >= 6) {
        child.kill('SIGKILL');
        break;
      }
    }
    await child;
    const half = await checkRedistToolkit(s.toolkitDir);
    expect(half.state).toBe('unpacking');
    expect(half.components.length).toBeGreaterThan(0);
    const before = mirror!.requests.length;
    const r = await repairRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, cacheDir: s.cacheDir, mirror: mirror!.url });
    expect(r.refetched.sort()).toEqual(half.components.sort());
    expect(mirror!.requests.length).toBe(before);
    const after = await checkRedistToolkit(s.toolkitDir, { deep: true });
    expect(after).toMatchObject({ state: 'complete', changed: [], components: [] });
    expect(await readdir(path.join(s.toolkitDir, '.cudawiz'))).not.toContain('staging');
  });

  it('repair re-fetches only the component whose file changed, when its cached archive is gone', async () => {
    const s = await setup();
    await unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, files: await fetchPaths(s.fetchAll) });
    await writeFile(path.join(s.toolkitDir, 'lib64/libcurand.so.10.3.0.86'), 'damaged by a disk error');
    await rm(path.join(s.cacheDir, 'libcurand-linux-x86_64-10.3.0.86-archive.tar.xz'));
    const before = mirror!.requests.length;
    const r = await repairRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, cacheDir: s.cacheDir, mirror: mirror!.url });
    expect(r.check.changed).toEqual(['lib64/libcurand.so.10.3.0.86']);
    expect(r.refetched).toEqual(['libcurand']);
    expect(mirror!.requests.slice(before).map((q) => path.posix.basename(q.path))).toEqual(['libcurand-linux-x86_64-10.3.0.86-archive.tar.xz']);
    expect((await checkRedistToolkit(s.toolkitDir, { deep: true })).changed).toEqual([]);
  });

  it('rollback removes the toolkit whole and leaves nothing', async () => {
    const s = await setup();
    await unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, files: await fetchPaths(s.fetchAll) });
    const r = await removeRedistToolkit(s.toolkitDir);
    expect(r).toMatchObject({ removed: true, release: '11.8.0' });
    await expect(lstat(s.toolkitDir)).rejects.toThrow();
    expect(await removeRedistToolkit(s.toolkitDir)).toMatchObject({ removed: false });
  });

  it('never writes into a toolkit folder it did not lay out (an installer\'s CUDA 11.8)', async () => {
    const s = await setup();
    const files = await fetchPaths(s.fetchAll);
    await unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, files });
    await rm(path.join(s.toolkitDir, '.cudawiz'), { recursive: true });
    await expect(unpackRedist({ catalog: s.catalog, release: s.release, os: s.os, toolkitDir: s.toolkitDir, files })).rejects.toMatchObject({ code: 'redist-dir-taken' });
    expect(await readRedistManifest(s.toolkitDir)).toBeUndefined();
  });
});
