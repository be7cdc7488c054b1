import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { factsFromName, inspectCudnnArchive } from '../../src/cudnn/index.js';
import { buildCudnnArchive, cudnnHeader, writeArchive } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

describe('inspecting a cuDNN archive without extracting it', () => {
  it('recognises the ≤ 8.2 Windows zip (cuda/bin, cuda/lib/x64) and reads 7.6.5 from cudnn.h', async () => {
    const a = await buildCudnnArchive(await tempDir(), { era: 'windows-cuda-folder' });
    const r = await inspectCudnnArchive(a.file, { os: 'windows', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, format: 'zip', os: 'windows', layout: 'cuda-folder', root: 'cuda', version: '7.6.5', versionFromName: '7.6.5.32', cuda: '10.1', needsZlibwapi: false });
    expect(r.members.map((m) => `${m.part}:${m.rel}`).sort()).toEqual(['bin:cudnn64_7.dll', 'include:cudnn.h', 'lib:cudnn.lib']);
  });

  it('recognises the ≤ 8.2 Linux tgz with its libcudnn.so → .so.7 → .so.7.6.5 links', async () => {
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const r = await inspectCudnnArchive(a.file, { os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(r).toMatchObject({ ok: true, format: 'tar.gz', os: 'linux', layout: 'cuda-folder', version: '7.6.5' });
    const links = r.members.filter((m) => m.type === 'symlink').map((m) => `${m.rel}->${m.linkTarget}`);
    expect(links.sort()).toEqual(['libcudnn.so->libcudnn.so.7', 'libcudnn.so.7->libcudnn.so.7.6.5']);
  });

  it('reads ≥ 8.3 archives from cudnn_version.h: Windows zip, Linux .tar.xz with lib/, and 9.x bin/x64', async () => {
    const dir = await tempDir();
    const win = await inspectCudnnArchive((await buildCudnnArchive(dir, { era: 'windows-archive' })).file, { os: 'windows', tfCudnn: '8.9', cudaVersion: '12.3' });
    expect(win).toMatchObject({ ok: true, layout: 'archive-folder', version: '8.9.7', cuda: '12', needsZlibwapi: true });
    const linux = await inspectCudnnArchive((await buildCudnnArchive(dir, { era: 'linux-archive' })).file, { os: 'linux', tfCudnn: '8.9', cudaVersion: '12.3' });
    expect(linux).toMatchObject({ ok: true, format: 'tar.xz', layout: 'archive-folder', version: '8.9.7' });
    expect(linux.members.find((m) => m.rel === 'libcudnn.so.8.9.7')?.part).toBe('lib');
    const nine = await inspectCudnnArchive((await buildCudnnArchive(dir, { era: 'windows-bin-x64' })).file, { os: 'windows', tfCudnn: '9.3', cudaVersion: '12.5' });
    expect(nine).toMatchObject({ ok: true, layout: 'archive-bin-x64', version: '9.20.0' });
    expect(nine.members.filter((m) => m.part === 'bin').map((m) => m.rel)).toContain('cudnn64_9.dll');
  });

  it('reads the facts NVIDIA puts in file names of each era', () => {
    expect(factsFromName('cudnn-10.1-windows10-x64-v7.6.5.32.zip')).toEqual({ os: 'windows', cuda: '10.1', version: '7.6.5.32' });
    expect(factsFromName('cudnn-11.2-windows-x64-v8.1.1.33.zip')).toEqual({ os: 'windows', cuda: '11.2', version: '8.1.1.33' });
    expect(factsFromName('cudnn-windows-x86_64-8.3.1.22_cuda11.5-archive.zip')).toEqual({ os: 'windows', cuda: '11.5', version: '8.3.1.22' });
    expect(factsFromName('cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz')).toEqual({ os: 'linux', cuda: '12', version: '9.5.1.17' });
  });
});

describe('refusing an archive, with the reason', () => {
  const codes = (r: { problems: { code: string }[] }) => r.problems.map((p) => p.code);

  it('a truncated download (zip and tgz) is corrupt', async () => {
    const dir = await tempDir();
    for (const era of ['windows-cuda-folder', 'linux-cuda-folder'] as const) {
      const a = await buildCudnnArchive(dir, { era, libraryBytes: 64 * 1024 });
      const size = (await readFile(a.file)).length;
      await truncate(a.file, Math.floor(size / 2));
      const r = await inspectCudnnArchive(a.file, { os: era.startsWith('windows') ? 'windows' : 'linux' });
      expect(codes(r)).toEqual(['corrupt']);
      expect(r.problems[0].message).toMatch(/damaged or incomplete/);
    }
  });

  it('a file that is no archive at all, and an archive of something else', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'cudnn.zip'), '<html>Please log in</html>');
    expect(codes(await inspectCudnnArchive(path.join(dir, 'cudnn.zip'), { os: 'windows' }))).toEqual(['not-an-archive']);
    const other = await writeArchive(path.join(dir, 'photos.zip'), 'zip', [{ name: 'holiday/beach.jpg', data: 'jpeg' }]);
    expect(codes(await inspectCudnnArchive(other, { os: 'windows' }))).toEqual(['not-cudnn']);
    expect(codes(await inspectCudnnArchive(path.join(dir, 'missing.zip'), { os: 'windows' }))).toEqual(['unreadable']);
  });

  it('cuDNN 8.1 when TF 2.3 needs 7.6, an older minor, and a build for another CUDA', async () => {
    const dir = await tempDir();
    const eight = await buildCudnnArchive(dir, { era: 'windows-cuda-folder', version: '8.1.0.77', cuda: '11.2', fileName: 'cudnn-11.2-windows-x64-v8.1.0.77.zip' });
    const r = await inspectCudnnArchive(eight.file, { os: 'windows', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(codes(r)).toEqual(['wrong-version', 'wrong-cuda']);
    expect(r.problems[0].message).toBe('This is cuDNN 8.1.0; TensorFlow needs cuDNN 7.6 (same major 7, minor 6 or newer).');
    const old = await buildCudnnArchive(dir, { era: 'linux-cuda-folder', version: '7.4.2.24' });
    expect(codes(await inspectCudnnArchive(old.file, { os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' }))).toEqual(['wrong-version']);
    const newer = await buildCudnnArchive(dir, { era: 'linux-cuda-folder', version: '7.6.5.32', cuda: '9.0' });
    const rc = await inspectCudnnArchive(newer.file, { os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(codes(rc)).toEqual(['wrong-cuda']);
    expect(rc.problems[0].message).toBe('This cuDNN is built for CUDA 9.0; the toolkit is CUDA 10.1.');
  });

  it('the Windows zip on Linux, and the Linux tgz for Windows', async () => {
    const dir = await tempDir();
    const win = await buildCudnnArchive(dir, { era: 'windows-cuda-folder' });
    const r = await inspectCudnnArchive(win.file, { os: 'linux', tfCudnn: '7.6' });
    expect(codes(r)).toEqual(['wrong-os']);
    expect(r.problems[0].fix).toMatch(/Linux \.tgz/);
    const linux = await buildCudnnArchive(dir, { era: 'linux-cuda-folder' });
    expect(codes(await inspectCudnnArchive(linux.file, { os: 'windows' }))).toEqual(['wrong-os']);
  });

  it('entries escaping the target: ../, absolute paths, links pointing out, writing through a link', async () => {
    const dir = await tempDir();
    const h = cudnnHeader('7.6.5')['cudnn.h'];
    const base = [
      { name: 'cuda/include/cudnn.h', data: h },
      { name: 'cuda/lib64/libcudnn.so.7.6.5', data: 'elf' },
    ];
    const cases: [string, 'zip' | 'tar.gz', { name: string; type?: 'symlink'; target?: string; data?: string }[]][] = [
      ['dotdot.zip', 'zip', [{ name: 'cuda/bin/../../../evil.dll', data: 'x' }]],
      ['abs.zip', 'zip', [{ name: '/etc/evil.dll', data: 'x' }]],
      ['dotdot.tgz', 'tar.gz', [{ name: 'cuda/lib64/../../../../tmp/evil.so', data: 'x' }]],
      ['abs.tgz', 'tar.gz', [{ name: '/etc/ld.so.conf.d/evil.conf', data: 'x' }]],
      ['linkout.tgz', 'tar.gz', [{ name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: '/etc/passwd' }]],
      ['linkup.tgz', 'tar.gz', [{ name: 'cuda/lib64/libcudnn.so', type: 'symlink', target: '../../../../root/.bashrc' }]],
      ['through.tgz', 'tar.gz', [{ name: 'cuda/lib64/x', type: 'symlink', target: '.' }, { name: 'cuda/lib64/x/libcudnn.so', data: 'x' }]],
    ];
    for (const [name, format, extra] of cases) {
      const file = await writeArchive(path.join(dir, name), format, [...base, ...extra]);
      const r = await inspectCudnnArchive(file, { os: 'linux' });
      expect(codes(r), name).toContain('unsafe-path');
      expect(r.ok).toBe(false);
    }
  });

  it('too big unpacked, or too many entries (the bounds are configurable)', async () => {
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-archive', libraryBytes: 100_000 });
    const big = await inspectCudnnArchive(a.file, { os: 'linux', maxTotalBytes: 50_000 });
    expect(codes(big)).toEqual(['too-large']);
    const many = await inspectCudnnArchive(a.file, { os: 'linux', maxEntries: 3 });
    expect(codes(many)).toEqual(['too-many-entries']);
  });

  it('an archive without a version header', async () => {
    const file = await writeArchive(path.join(await tempDir(), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz'), 'tar.gz', [
      { name: 'cuda/include/cudnn.h', data: '/* no defines */' },
      { name: 'cuda/lib64/libcudnn.so.7', data: 'elf' },
    ]);
    expect(codes(await inspectCudnnArchive(file, { os: 'linux' }))).toEqual(['no-version']);
  });
});
