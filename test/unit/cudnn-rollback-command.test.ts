import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCudnn } from '../../src/cudnn/index.js';
import { rcSourceLine } from '../../src/env/linux-plan.js';
import type { EnvChange, EnvJournal } from '../../src/env/types.js';
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

// `rollback --dry-run` lists everything first (#39.4): one journal holding one change of every kind
// cudawiz journals on Linux (loader file and its cache, env script, rc line, a package manager's change,
// a venv's activate block and loader file, a toolkit NVIDIA's installer put in) is listed item by item,
// newest first, each with its own words, and nothing changes — the journal's bytes included. cuDNN
// copies and redist toolkits (manifests, not the journal) are listed in test/e2e/rollback-everything.test.ts.
// Here, beside the other in-process rollback runs, so it pays no import of the CLI of its own.
describe('rollback --dry-run names every kind of journalled change', () => {
  it('lists each with its own words and changes nothing', async () => {
    const home = await tempDir('cw-dry-kinds-');
    await chmod(home, 0o700);
    const root = path.join(home, 'root');
    const config = path.join(root, 'config', 'cudawiz');
    await mkdir(config, { recursive: true, mode: 0o700 });
    await chmod(path.join(root, 'config'), 0o700);
    const journalFile = path.join(config, 'env-journal.json');
    const script = path.join(config, 'env-cuda-11.8.sh');
    const conf = path.join(root, 'etc', 'ld.so.conf.d', 'cudawiz-cuda-11.8.conf');
    const venv = path.join(home, 'venvs', 'ml');
    const python = path.join(venv, 'bin', 'python');
    const pth = path.join(venv, 'lib', 'python3.10', 'site-packages', 'cudawiz_wheel_loader.pth');
    const toolkit = path.join(home, 'cuda-root', 'cuda-11.8');
    const uninstaller = path.join(toolkit, 'bin', 'cuda-uninstaller');
    const c = (change: Omit<EnvChange, 'before' | 'after' | 'why'> & Partial<EnvChange>): EnvChange => ({ before: null, after: null, why: 'test', ...change });
    const changes: EnvChange[] = [
      c({ kind: 'toolkit-installer', target: toolkit, installer: { file: 'cuda_11.8.0_520.61.05_linux.run', version: '11.8.0' }, uninstaller: { file: uninstaller, args: ['--silent'] } }),
      c({ kind: 'ld-so-conf', target: conf, after: `${toolkit}/lib64\n` }),
      c({ kind: 'ldconfig', target: 'ld.so.cache', command: { file: 'ldconfig', args: [] } }),
      c({ kind: 'env-script', target: script, after: '# cudawiz\n' }),
      c({ kind: 'rc-line', target: path.join(home, '.bashrc'), line: rcSourceLine(script, 'posix') }),
      c({ kind: 'package', target: python, before: 'nvidia-cudnn-cu11 8.5.0.96', undo: { file: python, args: ['-m', 'pip', 'install', 'nvidia-cudnn-cu11==8.5.0.96'] } }),
      c({ kind: 'venv-activate', target: venv }),
      c({ kind: 'venv-loader', target: pth, after: 'import x\n' }),
    ];
    const journal: EnvJournal = { format: 1, entries: changes.map((change) => ({ at: '2026-12-06T00:00:00.000Z', state: 'applied', change })) };
    await writeFile(journalFile, JSON.stringify(journal), { mode: 0o600 });
    const bytes = await readFile(journalFile);
    const host = { home, env: { HOME: home, PATH: process.env.PATH ?? '' }, fsRoot: root };
    const cudaRoot = await tempDir('cw-dry-root-');
    const flags = ['rollback', '--dry-run', '--cuda-root', cudaRoot];

    const json = await runCli([...flags, '--json'], { host });
    expect(json.code, json.stdout + json.stderr).toBe(0);
    const items = (JSON.parse(json.stdout) as { items: { kind: string; target: string }[] }).items;
    expect(items.map((i) => [i.kind, i.target])).toEqual([
      ['venv-loader', pth],
      ['venv-activate', path.join(venv, 'bin', 'activate')],
      ['package', python],
      ['rc-line', path.join(home, '.bashrc')],
      ['env-script', script],
      ['ldconfig', 'ld.so.cache'],
      ['ld-so-conf', conf],
      ['toolkit-installer', toolkit],
    ]);

    const plain = await runCli(flags, { host });
    expect(plain.code).toBe(0);
    for (const target of [pth, path.join(venv, 'bin', 'activate'), path.join(home, '.bashrc'), script, conf]) expect(plain.stdout).toContain(`${target}: would undo cudawiz's change.`);
    expect(plain.stdout).toContain(`${python}: would run ${python} -m pip install nvidia-cudnn-cu11==8.5.0.96.`);
    expect(plain.stdout).toContain('ldconfig');
    expect(plain.stdout).toContain(`${toolkit}: would remove CUDA 11.8.0, which cudawiz installed with NVIDIA's installer, with ${uninstaller} --silent`);
    expect(plain.stdout).toContain("Unverified: no stored public source gives CUDA 11.8.0's uninstaller flag --silent.");
    expect(plain.stdout).toContain('Nothing was changed (--dry-run).');
    // Listing changed nothing, the journal's bytes included.
    expect((await readFile(journalFile)).equals(bytes)).toBe(true);
  });
});
