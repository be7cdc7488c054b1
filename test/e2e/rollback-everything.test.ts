// Rollback takes back everything cudawiz did (#39.4), install's and repair's alike, through the built CLI
// (npm run build first): the machine (temp home, toolkit root, venv) is compared file by file with its
// copy from before; `rollback --dry-run` lists every item first and changes nothing. Downloads stay in
// the cache (--cache-dir), by design: they are not part of the machine's setup.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { redistUser } from '../helpers/redist-user.js';
import { otherUserLabel } from '../helpers/other-user.js';
import { venvWheelsOffPath, type RepairClass } from '../fixtures/repair-classes.js';
import { fileDigests as files, installByHand, laptop, laptopWithInstallerToolkit } from '../helpers/laptop.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

type Item = { kind: string; target: string; detail?: string; unverified?: string };

/** The venv's python's X.Y: its site-packages is lib/pythonX.Y. */
const venvPythonVersion = async (venv: string) => (await readdir(path.join(venv, 'lib'))).find((n) => n.startsWith('python'))!.slice('python'.length);

describe(`rollback takes back everything (${otherUserLabel} for the redist install)`, () => {
  it('install --route redist: --dry-run lists the toolkit, its cuDNN copy, the env script and the rc line; rollback leaves every file as before', async () => {
    const m = await redistUser();
    close = () => m.mirror.close();
    const skip = /^home\/cache\//;
    const before = await files(m.base, skip);
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', ...m.globals]);
    expect(r.code, r.stdout + r.stderr).toBe(0);

    const dry = await m.run(['rollback', '--dry-run', '--json', ...m.globals]);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    const items = (JSON.parse(dry.stdout) as { items: Item[] }).items;
    const script = path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh');
    expect(items).toEqual(expect.arrayContaining([
      { kind: 'toolkit', target: m.toolkit },
      { kind: 'cudnn', target: m.toolkit },
      { kind: 'env-script', target: script },
      { kind: 'rc-line', target: path.join(m.home, '.bashrc') },
    ]));
    // Listing changed nothing.
    expect(await lstat(script).then(() => true)).toBe(true);

    const undo = await m.run(['rollback', ...m.globals]);
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await files(m.base, skip)).toEqual(before);
  }, 300_000);

  it('repair with a venv fix: --dry-run lists the activate block; rollback takes it and its record out, leaving every file as before', async () => {
    const c: RepairClass = await venvWheelsOffPath();
    close = () => c.close();
    const flags = [...c.m.globals, ...c.flags];
    // Python's bytecode cache, and the run's log in the cache folder, aside.
    const skip = /__pycache__|^cache\//;
    const before = await files(c.m.home, skip);
    const r = await runBuilt(['repair', '--tf', c.tf, '--yes', ...flags], { env: c.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const activate = path.join(c.at.venv, 'bin', 'activate');

    const dry = await runBuilt(['rollback', '--dry-run', '--json', ...c.m.globals], { env: c.env });
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    const loader = path.join(c.at.venv, 'lib', `python${await venvPythonVersion(c.at.venv)}`, 'site-packages', 'cudawiz_wheel_loader.pth');
    // The loader file for the venv's python run without activation (#39.5), then the activate block: newest first.
    expect((JSON.parse(dry.stdout) as { items: Item[] }).items).toEqual([{ kind: 'venv-loader', target: loader }, { kind: 'venv-activate', target: activate }]);
    const plain = await runBuilt(['rollback', '--dry-run', ...c.m.globals], { env: c.env });
    expect(plain.stdout).toContain(`${activate}: would undo cudawiz's change.`);
    expect(plain.stdout).toContain(`${loader}: would undo cudawiz's change.`);
    expect(plain.stdout).toContain('Nothing was changed (--dry-run).');

    const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`${activate}: cudawiz's change undone.`);
    expect(undo.stdout).toContain(`${loader}: cudawiz's change undone.`);
    // The activate script byte for byte, no record, no empty journal.
    expect(await files(c.m.home, skip)).toEqual(before);
  });

  it("install --route toolkit: the journal names NVIDIA's installer and uninstaller; rollback without a terminal keeps the toolkit and says how, --keep-toolkits keeps it, --yes removes it with NVIDIA's uninstaller, leaving every file as before", async () => {
    const { m, env, calls, skip, before, uninstaller } = await laptopWithInstallerToolkit();
    close = () => m.mirror.close();
    const flags = [...m.globals, '--downloads', m.downloads];
    const journal = JSON.parse(await readFile(path.join(m.home, '.config/cudawiz/env-journal.json'), 'utf8')) as { entries: { state: string; change: { kind: string; target: string; installer?: { file: string; version: string }; uninstaller?: { file: string; args: string[] } } }[] };
    expect(journal.entries.map((e) => ({ state: e.state, ...e.change }))).toEqual([expect.objectContaining({
      state: 'applied',
      kind: 'toolkit-installer',
      target: m.toolkit,
      installer: expect.objectContaining({ file: 'cuda_10.1.243_418.87.00_linux.run', version: '10.1.243' }),
      uninstaller: expect.objectContaining({ file: uninstaller, args: ['--silent'] }),
    })]);

    const dry = await runBuilt(['rollback', '--dry-run', '--json', ...m.globals], { env });
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    // --silent is an unverified catalog fact (assets/cuda.json: linuxRunfile.uninstaller): the plan says so, and what NVIDIA names instead.
    const unverified = `Unverified: no stored public source gives CUDA 10.1.243's uninstaller flag --silent. NVIDIA's Linux installation guide names only ${uninstaller} (no --silent; it asks its own questions); if the toolkit is still there afterwards, run that yourself.`;
    expect((JSON.parse(dry.stdout) as { items: Item[] }).items).toEqual([
      { kind: 'cudnn', target: m.toolkit },
      { kind: 'toolkit-installer', target: m.toolkit, detail: `${uninstaller} --silent`, unverified },
    ]);
    // In words, under the plan's line (the English words are held below, under the removal's line).
    const zhDry = await runBuilt(['rollback', '--dry-run', '--lang', 'zh', ...m.globals], { env });
    expect(zhDry.stdout).toContain(`（会先询问；--yes 直接删除，--keep-toolkits 保留）。\n    未经核实：没有任何已存的公开资料给出 CUDA 10.1.243 的卸载程序参数 --silent。NVIDIA 的 Linux 安装指南只给出 ${uninstaller}（不带 --silent，它会自己提问）；如果之后工具包仍在，请自己运行它。`);
    const keptDry = await runBuilt(['rollback', '--dry-run', '--keep-toolkits', ...m.globals], { env });
    expect(keptDry.stdout).toContain(`${m.toolkit}: CUDA 10.1.243, which cudawiz installed with NVIDIA's installer, would stay (--keep-toolkits).`);

    // No terminal and no --yes: cuDNN's copy goes, the toolkit stays, with how to remove it; the journal keeps its entry.
    const headless = await runBuilt(['rollback', ...m.globals], { env });
    expect(headless.code, headless.stdout + headless.stderr).toBe(0);
    expect(headless.stdout).toContain(`cuDNN copy rolled back`);
    expect(headless.stdout).toContain(`${m.toolkit}: left as it is — CUDA 10.1.243, which cudawiz installed with NVIDIA's installer, stays: its removal is asked first, and there is no terminal to ask in (to remove it: cudawiz rollback --yes, or ${uninstaller} --silent)`);
    expect(await lstat(path.join(m.toolkit, 'bin', 'nvcc')).then(() => true)).toBe(true);
    expect(await readFile(calls, 'utf8').catch(() => '')).not.toContain('cuda-uninstaller');

    const kept = await runBuilt(['rollback', '--keep-toolkits', ...m.globals], { env });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('stays (--keep-toolkits)');
    expect(await lstat(uninstaller).then(() => true)).toBe(true);

    const removed = await runBuilt(['rollback', '--yes', ...m.globals], { env });
    expect(removed.code, removed.stdout + removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`${m.toolkit}: CUDA 10.1.243 removed with NVIDIA's uninstaller.\n    ${unverified}`);
    expect(await readFile(calls, 'utf8')).toContain(`${uninstaller} --silent`);
    // The toolkit folder, the journal and everything else: as before the install.
    expect(await files(m.home, skip)).toEqual(before);
    expect(await lstat(m.toolkit).then(() => true, () => false)).toBe(false);
    const again = await runBuilt(['rollback', '--dry-run', '--json', ...m.globals], { env });
    expect((JSON.parse(again.stdout) as { items: Item[] }).items).toEqual([]);
  }, 300_000);

  it('a toolkit cudawiz did not install is never offered for removal, even with --yes', async () => {
    const m = await laptop();
    close = () => m.mirror.close();
    const toolkit = await installByHand(m, 'cuda_10.1.243_418.87.00_linux.run', '10.1', 'libcublas.so.10');
    const calls = path.join(m.cache, 'calls.txt');
    const env = { ...m.env, CUDA_FIXTURE_CALLS: calls };
    const dry = await runBuilt(['rollback', '--dry-run', '--json', ...m.globals], { env });
    expect((JSON.parse(dry.stdout) as { items: Item[] }).items).toEqual([]);
    const r = await runBuilt(['rollback', '--yes', ...m.globals], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await lstat(path.join(toolkit, 'bin', 'cuda-uninstaller')).then(() => true)).toBe(true);
    expect(await readFile(calls, 'utf8').catch(() => '')).toBe('');
  });
});
