import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCudnn } from '../../src/cudnn/index.js';
import { runBuilt, runCli } from '../helpers/cli.js';
import { buildCudnnArchive, makeToolkit, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

describe('cudawiz rollback', () => {
  it('without --cuda-dir, undoes every toolkit under --cuda-root that has a manifest, once each, and says what it restored', async () => {
    const root = await tempDir();
    const t101 = await makeToolkit(path.join(root, 'cuda-10.1'), 'linux');
    const t110 = await makeToolkit(path.join(root, 'cuda-11.0'), 'linux', '11.0');
    await symlink('cuda-10.1', path.join(root, 'cuda'));
    await writeFile(path.join(t101, 'include/cudnn.h'), '/* old header */\n');
    const before101 = await treeDigest(t101);
    const untouched = await treeDigest(t110);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: t101, os: 'linux' });

    const r = await runCli(['rollback', '--cuda-root', root], { host: { os: 'linux' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${t101}: cuDNN copy rolled back (removed 5 files, restored 1 original).`);
    expect(r.stdout).toContain('restored include/cudnn.h');
    // Only cuDNN was cudawiz's: the toolkit stays, and the user is told what removes it (#40: rollback says CUDA itself stays).
    expect(r.stdout).toContain(`The CUDA toolkit in ${t101} itself stays: NVIDIA's installer put it there, and only its uninstaller removes it (sudo ${t101}/bin/cuda-uninstaller).`);
    expect(r.stdout).not.toContain(path.join(root, 'cuda:'));
    expect(await readFile(path.join(t101, 'include/cudnn.h'), 'utf8')).toBe('/* old header */\n');
    expect(await treeDigest(t101)).toEqual(before101);
    expect(await treeDigest(t110)).toEqual(untouched);

    const again = await runCli(['rollback', '--cuda-root', root]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`No cuDNN copy by cudawiz in any toolkit under ${root}: nothing to roll back.`);
  });

  it('warns about a file the user changed, keeps it, and keeps its original in the backup', async () => {
    const toolkit = await makeToolkit(path.join(await tempDir(), 'cuda-10.1'), 'linux');
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* before */\n');
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: toolkit, os: 'linux' });
    await writeFile(path.join(toolkit, 'include/cudnn.h'), '/* edited after */\n');
    const r = await runCli(['rollback', '--cuda-dir', toolkit]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kept include/cudnn.h: changed since cudawiz wrote it');
    expect(await readFile(path.join(toolkit, '.cudawiz/backup/include/cudnn.h'), 'utf8')).toBe('/* before */\n');
    expect(await readFile(path.join(toolkit, 'include/cudnn.h'), 'utf8')).toBe('/* edited after */\n');
  });

  it('the built CLI: a --cuda-dir that is not a folder is a usage error (exit 2)', async () => {
    const missing = path.join(await tempDir(), 'nope');
    const r = await runBuilt(['rollback', '--cuda-dir', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--cuda-dir ${missing} is not a folder.`);
    await mkdir(missing);
    const ok = await runBuilt(['rollback', '--cuda-dir', missing, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ toolkits: [{ toolkitDir: missing, from: 'none', removed: [], restored: [], kept: [], preexisting: [] }], environment: null });
  });
});
