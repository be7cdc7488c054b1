import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CudawizError } from '../../src/errors.js';
import { finishImport, importCudnn, importState, readManifest, rollbackImport, type ImportProgress } from '../../src/cudnn/index.js';
import { pathFor } from '../../src/platform.js';
import { buildCudnnArchive, makeToolkit, treeDigest, writeArchive } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

async function linuxToolkit() {
  const dir = path.join(await tempDir(), 'cuda-10.1');
  await mkdir(dir);
  return makeToolkit(dir, 'linux');
}

describe('importing cuDNN into a toolkit', () => {
  it('copies the ≤ 8.2 Linux tgz into include and lib64, links kept as links, under a complete manifest', async () => {
    const toolkit = await linuxToolkit();
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const events: ImportProgress[] = [];
    const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1', onProgress: (p) => events.push(p) });
    expect(m.state).toBe('complete');
    expect(m.files.map((f) => f.path).sort()).toEqual(Object.values(a.expected).sort());
    expect(await readlink(path.join(toolkit, 'lib64/libcudnn.so'))).toBe('libcudnn.so.7');
    expect(await readlink(path.join(toolkit, 'lib64/libcudnn.so.7'))).toBe('libcudnn.so.7.6.5');
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toContain('#define CUDNN_MAJOR 7');
    expect((await readManifest(toolkit))?.state).toBe('complete');
    expect(await importState(toolkit)).toMatchObject({ state: 'complete' });
    const last = events.filter((e) => e.phase === 'copy').at(-1)!;
    expect(last).toMatchObject({ files: m.files.length, totalFiles: m.files.length });
    // staging is cleaned away; only the manifest remains in .cudawiz
    expect((await treeDigest(path.join(toolkit, '.cudawiz'))).hasOwnProperty('staging')).toBe(false);
  });

  it('lays a Windows cuDNN 7.6.5 zip into a fixture Windows toolkit: bin, include, lib\\x64', async () => {
    const toolkit = path.join(await tempDir(), 'v10.1');
    await makeToolkit(toolkit, 'windows');
    const a = await buildCudnnArchive(await tempDir(), { era: 'windows-cuda-folder' });
    const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'windows', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(m.files.map((f) => f.path).sort()).toEqual(['bin/cudnn64_7.dll', 'include/cudnn.h', 'lib/x64/cudnn.lib']);
    // What a Windows user would be shown, built with Windows path rules.
    const shown = m.files.map((f) => pathFor('windows').join('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1', ...f.path.split('/')));
    expect(shown).toContain('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1\\lib\\x64\\cudnn.lib');
    expect((await lstat(path.join(toolkit, 'bin', 'cudnn64_7.dll'))).isFile()).toBe(true);
    expect(m.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256 ?? ''))).toBe(true);
  });

  it('puts 9.x bin/x64 DLLs into bin, and ≥ 8.3 Linux lib/ into lib64', async () => {
    const win = path.join(await tempDir(), 'v12.5');
    await makeToolkit(win, 'windows', '12.5');
    const nine = await buildCudnnArchive(await tempDir(), { era: 'windows-bin-x64' });
    const m = await importCudnn({ archive: nine.file, toolkitDir: win, os: 'windows', tfCudnn: '9.3', cudaVersion: '12.5' });
    expect(m.files.map((f) => f.path)).toContain('bin/cudnn64_9.dll');
    const linux = await linuxToolkit();
    const eight = await buildCudnnArchive(await tempDir(), { era: 'linux-archive' });
    const m8 = await importCudnn({ archive: eight.file, toolkitDir: linux, os: 'linux' });
    expect(m8.files.map((f) => f.path).sort()).toEqual(Object.values(eight.expected).sort());
    expect(await readlink(path.join(linux, 'lib64/libcudnn.so.8'))).toBe('libcudnn.so.8.9.7');
  });

  it('follows the toolkit’s own lib64 → targets/x86_64-linux/lib link, as real Linux toolkits have', async () => {
    const toolkit = path.join(await tempDir(), 'cuda-10.1');
    await mkdir(path.join(toolkit, 'targets/x86_64-linux/lib'), { recursive: true });
    await mkdir(path.join(toolkit, 'include'));
    await symlink('targets/x86_64-linux/lib', path.join(toolkit, 'lib64'));
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    expect((await lstat(path.join(toolkit, 'targets/x86_64-linux/lib/libcudnn.so.7.6.5'))).isFile()).toBe(true);
  });

  it('refuses a toolkit whose lib64 points outside it, changing nothing', async () => {
    const outside = await tempDir();
    const toolkit = path.join(await tempDir(), 'cuda-10.1');
    await mkdir(toolkit);
    await symlink(outside, path.join(toolkit, 'lib64'));
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await expect(importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' })).rejects.toMatchObject({ code: 'link-out' });
    expect(await treeDigest(toolkit)).toEqual(before);
    expect(await treeDigest(outside)).toEqual({});
  });

  it('every refusal leaves the toolkit tree byte-for-byte unchanged', async () => {
    const toolkit = await linuxToolkit();
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* the user’s own cuDNN 7.4 header */\n');
    const before = await treeDigest(toolkit);
    const dir = await tempDir();
    const full = await readFile((await buildCudnnArchive(dir, { era: 'linux-cuda-folder', libraryBytes: 50_000 })).file);
    await writeFile(path.join(dir, 'truncated.tgz'), full.subarray(0, full.length >> 1));
    const archives: [string, string][] = [
      ['corrupt', path.join(dir, 'truncated.tgz')],
      ['not-cudnn', await writeArchive(path.join(dir, 'other.tgz'), 'tar.gz', [{ name: 'docs/readme.txt', data: 'hi' }])],
      ['wrong-version', (await buildCudnnArchive(dir, { era: 'linux-archive' })).file],
      ['wrong-cuda', (await buildCudnnArchive(dir, { era: 'linux-cuda-folder', cuda: '9.0' })).file],
      ['wrong-os', (await buildCudnnArchive(dir, { era: 'windows-cuda-folder' })).file],
      ['unsafe-path', await writeArchive(path.join(dir, 'evil.tgz'), 'tar.gz', [{ name: 'cuda/include/cudnn.h', data: '#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 6\n' }, { name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: '/etc/passwd' }])],
    ];
    for (const [code, archive] of archives) {
      const error = await importCudnn({ archive, toolkitDir: toolkit, os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' }).catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(CudawizError);
      expect((error as CudawizError).options.details?.problems).toEqual(expect.arrayContaining([expect.objectContaining({ code })]));
      expect(await treeDigest(toolkit), code).toEqual(before);
    }
    const big = (await buildCudnnArchive(dir, { era: 'linux-cuda-folder', libraryBytes: 10_000 })).file;
    await expect(importCudnn({ archive: big, toolkitDir: toolkit, os: 'linux', maxTotalBytes: 5_000 })).rejects.toThrow(/unpacks to/);
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('a cancelled import before the copy starts leaves nothing behind', async () => {
    const toolkit = await linuxToolkit();
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const controller = new AbortController();
    const p = importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux', signal: controller.signal, onProgress: () => controller.abort() });
    await expect(p).rejects.toMatchObject({ code: 'interrupted', exitCode: 130 });
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('backs up a pre-existing cudnn.h and libcudnn.so before overwriting, and a rollback restores them byte-for-byte', async () => {
    const toolkit = await linuxToolkit();
    const oldHeader = '/* cuDNN 7.4.2 header the user copied by hand */\n#define CUDNN_MAJOR 7\n';
    await writeFile(path.join(toolkit, 'include/cudnn.h'), oldHeader);
    await symlink('libcudnn.so.7.4.2', path.join(toolkit, 'lib64/libcudnn.so'));
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    expect(m.files.find((f) => f.path === 'include/cudnn.h')?.original?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(path.join(toolkit, '.cudawiz/backup/include/cudnn.h'), 'utf8')).toBe(oldHeader);
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toContain('CUDNN_MINOR 6');
    const r = await rollbackImport(toolkit);
    expect(r.from).toBe('complete');
    expect(r.restored.sort()).toEqual(['include/cudnn.h', 'lib64/libcudnn.so']);
    expect(r.kept).toEqual([]);
    expect(await treeDigest(toolkit)).toEqual(before);
    expect(await importState(toolkit)).toEqual({ state: 'none' });
  });

  it('a rollback keeps a file the user changed since, and reports it', async () => {
    const toolkit = await linuxToolkit();
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* edited by the user */\n');
    const r = await rollbackImport(toolkit);
    expect(r.kept).toEqual([{ path: 'include/cudnn.h', reason: 'changed since cudawiz wrote it' }]);
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toBe('/* edited by the user */\n');
    expect(r.removed).toContain('lib64/libcudnn.so.7.6.5');
    await expect(lstat(path.join(toolkit, 'lib64/libcudnn.so.7.6.5'))).rejects.toThrow();
    expect(await importState(toolkit)).toMatchObject({ state: 'none', rolledBack: { kept: ['include/cudnn.h'] } });
  });

  it('refuses a second import over a complete one unless asked to replace it', async () => {
    const toolkit = await linuxToolkit();
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    await expect(importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' })).rejects.toMatchObject({ code: 'already-imported' });
    const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux', replacePrevious: true });
    expect(m.files.every((f) => f.original === undefined)).toBe(true);
    expect(await finishImport(toolkit)).toMatchObject({ state: 'complete' });
  });
});

describe('damage found only while unpacking', () => {
  it('a stored zip whose bytes were flipped after its directory was written is refused by CRC, toolkit unchanged', async () => {
    const toolkit = path.join(await tempDir(), 'v10.1');
    await makeToolkit(toolkit, 'windows');
    const before = await treeDigest(toolkit);
    const file = path.join(await tempDir(), 'cudnn-10.1-windows10-x64-v7.6.5.32.zip');
    const dll = Buffer.alloc(4096, 7);
    await writeArchive(file, 'zip', [
      { name: 'cuda/include/cudnn.h', data: '#define CUDNN_MAJOR 7\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 5\n' },
      { name: 'cuda/bin/cudnn64_7.dll', data: dll },
    ], { store: true });
    const bytes = await readFile(file);
    const at = bytes.indexOf(dll.subarray(0, 64));
    bytes[at + 100] ^= 0xff;
    await writeFile(file, bytes);
    await expect(importCudnn({ archive: file, toolkitDir: toolkit, os: 'windows' })).rejects.toMatchObject({ code: 'cudnn-archive-refused', message: expect.stringMatching(/CRC mismatch/) });
    expect(await treeDigest(toolkit)).toEqual(before);
  });
});

describe('importing again after a rollback that kept a changed file', () => {
  it('backs up the user’s edited cudnn.h afresh and keeps the older backup under a dated name', async () => {
    const toolkit = await linuxToolkit();
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* first original */\n');
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* edited by the user */\n');
    expect((await rollbackImport(toolkit)).kept).toHaveLength(1);

    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    expect(await readFile(path.join(toolkit, '.cudawiz/backup/include/cudnn.h'), 'utf8')).toBe('/* edited by the user */\n');
    const digest = await treeDigest(path.join(toolkit, '.cudawiz'));
    const older = Object.keys(digest).find((k) => /^backup-.*\/include\/cudnn\.h$/.test(k));
    expect(older).toBeDefined();
    expect(await readFile(path.join(toolkit, '.cudawiz', older!), 'utf8')).toBe('/* first original */\n');
    await rollbackImport(toolkit);
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toBe('/* edited by the user */\n');
  });
});
