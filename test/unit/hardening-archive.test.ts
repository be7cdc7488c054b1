// Hostile and damaged cuDNN archives (issue 18, items 6, 8, 9, 10, 11): each is refused with the
// reason, and the toolkit (and everything outside it) is byte-identical after.
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveReadError } from '../../src/cudnn/archive-reader.js';
import { tarPass } from '../../src/cudnn/tar-reader.js';
import { importCudnn } from '../../src/cudnn/index.js';
import { CudawizError } from '../../src/errors.js';
import { verifyManifest } from '../../src/verify/index.js';
import { checkLibraryFiles, toolkitLibraryProblems } from '../../src/verify/layers.js';
import { buildCudnnArchive, cudnnHeader, makeToolkit, treeDigest, writeArchive, type FixtureEntry } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

const header = cudnnHeader('7.6.5')['cudnn.h'];

/** A cuDNN 7.6.5 Linux tgz as NVIDIA lays it out, plus `extra` entries. */
async function tgz(extra: FixtureEntry[], before: FixtureEntry[] = []) {
  return writeArchive(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), 'tar.gz', [
    ...before,
    { name: 'cuda/include/cudnn.h', data: header },
    { name: 'cuda/lib64/libcudnn.so.7.6.5', data: 'x'.repeat(512) },
    { name: 'cuda/lib64/libcudnn.so.7', type: 'symlink', target: 'libcudnn.so.7.6.5' },
    ...extra,
    { name: 'cuda/NVIDIA_SLA_cuDNN_Support.txt', data: 'license' },
  ]);
}

async function setup() {
  const root = await tempDir();
  const toolkit = await makeToolkit(path.join(root, 'cuda-10.1'), 'linux');
  const outside = path.join(root, 'elsewhere');
  await mkdir(outside);
  await writeFile(path.join(outside, 'keep.h'), 'theirs\n');
  return { root, toolkit, outside };
}

async function refusal(p: Promise<unknown>): Promise<CudawizError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
}

describe("a cuDNN archive may only write cuDNN's own files", () => {
  it.each([
    ['a link over the toolkit runtime', { name: 'cuda/lib64/libcudart.so.10.1', type: 'symlink', target: 'libcudnn.so.7' } as FixtureEntry, 'lib64/libcudart.so.10.1'],
    ['cublas', { name: 'cuda/lib64/libcublas.so.10', data: 'evil' } as FixtureEntry, 'lib64/libcublas.so.10'],
    ['cuda_runtime.h', { name: 'cuda/include/cuda_runtime.h', data: 'evil' } as FixtureEntry, 'include/cuda_runtime.h'],
    ['bin/nvcc', { name: 'cuda/bin/nvcc', data: '#!/bin/sh\nevil\n' } as FixtureEntry, 'bin/nvcc'],
    ['a cudnn link to another library', { name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: 'libcudart.so.10.1' } as FixtureEntry, 'lib64/libcudnn.so'],
  ])('%s: refused, named, toolkit byte-identical', async (_what, entry, named) => {
    const { toolkit } = await setup();
    const before = await treeDigest(toolkit);
    const e = await refusal(importCudnn({ archive: await tgz([entry]), toolkitDir: toolkit, os: 'linux' }));
    expect(e.code).toBe('cudnn-archive-refused');
    expect(e.message).toContain("not cuDNN's");
    expect(e.message).toContain(entry.name);
    expect(named).toBeTruthy();
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('the same through the zip path (Windows)', async () => {
    const root = await tempDir();
    const toolkit = await makeToolkit(path.join(root, 'v10.1'), 'windows');
    const a = await buildCudnnArchive(await tempDir(), { era: 'windows-cuda-folder' });
    const evil = await writeArchive(path.join(await tempDir(), path.basename(a.file)), 'zip', [
      { name: 'cuda/include/cudnn.h', data: header },
      { name: 'cuda/bin/cudnn64_7.dll', data: 'MZ' },
      { name: 'cuda/bin/cudart64_101.dll', data: 'MZ evil' },
    ]);
    const before = await treeDigest(toolkit);
    const e = await refusal(importCudnn({ archive: evil, toolkitDir: toolkit, os: 'windows' }));
    expect(e.message).toContain('cuda/bin/cudart64_101.dll');
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it("NVIDIA's own layouts still import (static libs, sub-library headers, every era)", async () => {
    for (const era of ['linux-cuda-folder', 'linux-archive', 'windows-archive', 'windows-bin-x64'] as const) {
      const os = era.startsWith('windows') ? 'windows' : 'linux';
      const toolkit = await makeToolkit(path.join(await tempDir(), 'cuda'), os, era.includes('cuda-folder') ? '10.1' : '12.0');
      const a = await buildCudnnArchive(await tempDir(), { era });
      const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os });
      expect(m.state).toBe('complete');
    }
    const toolkit = await makeToolkit(path.join(await tempDir(), 'cuda'), 'linux');
    const m = await importCudnn({ archive: await tgz([{ name: 'cuda/lib64/libcudnn_static.a', data: 's' }, { name: 'cuda/include/cudnn_adv_infer.h', data: 'h' }]), toolkitDir: toolkit, os: 'linux' });
    expect(m.files.map((f) => f.path)).toContain('lib64/libcudnn_static.a');
  });
});

describe('verify: every library resolves to a real library of its own name', () => {
  it('flags a self-loop, a 0-byte file, a link to another library, a dangling link; passes a good chain', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'libcudnn.so.7.6.5'), 'x'.repeat(100));
    await symlink('libcudnn.so.7.6.5', path.join(dir, 'libcudnn.so.7'));
    await symlink('libloop.so.1', path.join(dir, 'libloop.so.1'));
    await writeFile(path.join(dir, 'libempty.so.1'), '');
    await writeFile(path.join(dir, 'libcudart.so.10.1.243'), 'rt');
    await symlink('libcudnn.so.7', path.join(dir, 'libcudart.so.10.1'));
    await symlink('nothere', path.join(dir, 'libgone.so.1'));
    const files = ['libcudnn.so.7', 'libloop.so.1', 'libempty.so.1', 'libcudart.so.10.1', 'libgone.so.1'].map((f) => path.join(dir, f));
    const problems = await checkLibraryFiles(files);
    expect(problems.map((p) => path.basename(p.file))).toEqual(['libloop.so.1', 'libempty.so.1', 'libcudart.so.10.1', 'libgone.so.1']);
    expect(problems.map((p) => p.problem)).toEqual([
      expect.stringContaining('loop'),
      expect.stringContaining('0 bytes'),
      expect.stringContaining('another library'),
      expect.stringContaining('nothing'),
    ]);
    expect(await checkLibraryFiles([path.join(dir, 'libcudnn.so.7'), path.join(dir, 'libcudart.so.10.1.243')])).toEqual([]);
  });

  it("the toolkit's libcudart.so.10.1 turned into a link to libcudnn: the libraries check names it", async () => {
    const { toolkit } = await setup();
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    expect(await toolkitLibraryProblems('linux', toolkit, ['libcudart.so.10.1', 'libcudnn.so.7'])).toEqual([]);
    await symlink('libcudnn.so.7', path.join(toolkit, 'lib64/libcudart.so.10.1'));
    const bad = await toolkitLibraryProblems('linux', toolkit, ['libcudart.so.10.1', 'libcudnn.so.7']);
    expect(bad).toEqual([{ file: path.join(toolkit, 'lib64/libcudart.so.10.1'), problem: expect.stringContaining('another library') }]);
    expect(await verifyManifest(toolkit)).toMatchObject({ status: 'pass', evidence: [expect.any(String), '4 libraries resolve to real files of their own name'] });
  });
});

describe('a tar with a file and then a same-named entry', () => {
  it('a dangling symlink after the file: the archive is refused (no unhandled rejection), nothing left in .cudawiz', async () => {
    const { toolkit } = await setup();
    const before = await treeDigest(toolkit);
    const file = await tgz([{ name: 'cuda/lib64/libcudnn.so.7.6.5', type: 'symlink', target: 'nothere' }]);
    const e = await refusal(importCudnn({ archive: file, toolkitDir: toolkit, os: 'linux' }));
    expect(e.code).toBe('cudnn-archive-refused');
    expect(e.message).toContain('more than once');
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('a duplicate file name (different bytes): refused, not a manifest with the wrong sha256', async () => {
    const { toolkit } = await setup();
    const before = await treeDigest(toolkit);
    const e = await refusal(importCudnn({ archive: await tgz([{ name: 'cuda/include/cudnn.h', data: `${header}/* again */\n` }]), toolkitDir: toolkit, os: 'linux' }));
    expect(e.message).toContain('"cuda/include/cudnn.h" more than once');
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('the raw tar pass (no entry guard): the hash of a replaced file fails as the archive, never as an unhandled rejection', async () => {
    const file = await tgz([{ name: 'cuda/lib64/libcudnn.so.7.6.5', type: 'symlink', target: 'nothere' }]);
    const dest = path.join(await tempDir(), 'out');
    const error = await tarPass(file, 'tar.gz', dest, { write: () => true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Either the pass notices the file it hashed is gone (refusal), or it finished with the link in place; never a crash.
    if (error !== undefined) expect(error).toBeInstanceOf(ArchiveReadError);
    else expect((await lstat(path.join(dest, 'cuda/lib64/libcudnn.so.7.6.5'))).isSymbolicLink()).toBe(true);
  });
});

describe('a folder link inside the toolkit', () => {
  it('include/thrust → elsewhere: a member under it is refused, elsewhere byte-identical', async () => {
    const { root, toolkit, outside } = await setup();
    await symlink(outside, path.join(toolkit, 'include/thrust'));
    const before = await treeDigest(root);
    const e = await refusal(importCudnn({ archive: await tgz([{ name: 'cuda/include/thrust/cudnn_keep.h', data: 'planted' }]), toolkitDir: toolkit, os: 'linux' }));
    expect(e.code).toBe('link-out');
    expect(e.message).toContain(outside);
    expect(await treeDigest(root)).toEqual(before);
    expect(await readFile(path.join(outside, 'keep.h'), 'utf8')).toBe('theirs\n');
    expect(await readdir(outside)).toEqual(['keep.h']);
  });
});

describe('a re-copy from a damaged zip', () => {
  it('leaves the working cuDNN in place: staged and checked fully before the previous copy is replaced', async () => {
    const toolkit = await makeToolkit(path.join(await tempDir(), 'v10.1'), 'windows');
    const good = await buildCudnnArchive(await tempDir(), { era: 'windows-cuda-folder' });
    await importCudnn({ archive: good.file, toolkitDir: toolkit, os: 'windows' });
    const working = await treeDigest(toolkit);
    // Same layout, stored (no compression), one byte of a DLL flipped: the listing is fine, the CRC is not.
    const entries: FixtureEntry[] = [
      { name: 'cuda/include/cudnn.h', data: header },
      { name: 'cuda/bin/cudnn64_7.dll', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 7)]) },
      { name: 'cuda/lib/x64/cudnn.lib', data: 'lib' },
    ];
    const damaged = await writeArchive(path.join(await tempDir(), path.basename(good.file)), 'zip', entries, { store: true });
    const bytes = await readFile(damaged);
    const at = bytes.indexOf('cuda/bin/cudnn64_7.dll') + 'cuda/bin/cudnn64_7.dll'.length + 100;
    bytes[at] ^= 0xff;
    await writeFile(damaged, bytes);
    const e = await refusal(importCudnn({ archive: damaged, toolkitDir: toolkit, os: 'windows', replacePrevious: true }));
    expect(e.code).toBe('cudnn-archive-refused');
    expect(e.message).toMatch(/damaged|CRC/);
    expect(await treeDigest(toolkit)).toEqual(working);
  });
});
