// Issue 18, item 2: a file that was in the toolkit before cudawiz, byte-identical to the archive's
// (a cudnn.h copied by hand per NVIDIA's guide), is never removed by a rollback, and the rollback
// says what it did with it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCudnn, rollbackImport } from '../../src/cudnn/index.js';
import { runCli } from '../helpers/cli.js';
import { buildCudnnArchive, cudnnHeader, makeToolkit, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

describe('a file already in the toolkit, identical to the archive’s', () => {
  it('is recorded as there before, and rollback leaves it in place and says so', async () => {
    const toolkit = await makeToolkit(path.join(await tempDir(), 'cuda-10.1'), 'linux');
    const header = cudnnHeader('7.6.5')['cudnn.h'];
    await writeFile(path.join(toolkit, 'include/cudnn.h'), header);
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    const m = await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    const h = m.files.find((f) => f.path === 'include/cudnn.h')!;
    expect(h.original).toMatchObject({ type: 'file', sha256: h.sha256 });

    const r = await runCli(['rollback', '--cuda-dir', toolkit]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('removed 4 files');
    expect(r.stdout).toContain('left include/cudnn.h: it was there before cudawiz');
    expect(r.stdout).not.toContain('stay in');
    expect(r.stdout).not.toContain('not found in the backup');
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toBe(header);
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('the report lists it as pre-existing, not removed', async () => {
    const toolkit = await makeToolkit(path.join(await tempDir(), 'cuda-10.1'), 'linux');
    const header = cudnnHeader('7.6.5')['cudnn.h'];
    await writeFile(path.join(toolkit, 'include/cudnn.h'), header);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    const r = await rollbackImport(toolkit);
    expect(r.removed).not.toContain('include/cudnn.h');
    expect(r.preexisting).toEqual(['include/cudnn.h']);
    expect(r.kept).toEqual([]);
  });
});
