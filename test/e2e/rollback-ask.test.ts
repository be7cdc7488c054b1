// Rollback asks before it runs NVIDIA's uninstaller of a toolkit cudawiz installed (#39.4), and the
// question is answered in a real terminal (tmux; npm run build first), both ways. "n": the toolkit
// stays as NVIDIA's installer left it and its journal entry stays (a later rollback can still take it);
// cudawiz's own cuDNN copy is undone all the same. "y": the fixture uninstaller runs with the flag the
// catalog names, and the machine is as before the install: no toolkit folder, no journal.
// Slow lane (vitest.config.ts slowFiles): a whole install through the built CLI, then two terminals.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, runBuilt } from '../helpers/cli.js';
import { fileDigests as files, laptopWithInstallerToolkit } from '../helpers/laptop.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';

let close: (() => Promise<void>) | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  await term?.kill();
  term = undefined;
  await close?.();
  close = undefined;
});

const exists = (p: string) => lstat(p).then(() => true, () => false);

type Journal = { entries: { state: string; change: { kind: string; target: string } }[] };

describe("rollback's question before NVIDIA's uninstaller, answered in a terminal", () => {
  it('"n" keeps the toolkit and its journal entry (cuDNN\'s copy is undone); "y" runs the uninstaller and leaves every file as before the install', async () => {
    const { m, env, calls, skip, before, uninstaller } = await laptopWithInstallerToolkit();
    close = () => m.mirror.close();
    const journalFile = path.join(m.home, '.config/cudawiz/env-journal.json');
    // What NVIDIA's installer laid out (the fixture's own uninstall manifest), cudawiz's cuDNN copy not among it.
    const nvidiaFiles = (await readFile(path.join(m.toolkit, 'bin', '.uninstall_manifest_do_not_delete.txt'), 'utf8')).split('\n').filter(Boolean);
    expect(nvidiaFiles).toContain('bin/nvcc');
    const cudnnFiles = async () => (await readdir(path.join(m.toolkit, 'lib64')).catch(() => [] as string[])).filter((n) => n.startsWith('libcudnn'));
    expect(await cudnnFiles()).not.toEqual([]);

    // "n": asked (with the unverified flag said first), kept, exit 0.
    const wide = { env, width: 400, height: 50 };
    let t = (term = await openTerminal([process.execPath, builtCli, 'rollback', ...m.globals], wide));
    const asked = await t.waitFor('[y/N]', 60_000);
    expect(asked).toContain(`cudawiz installed CUDA 10.1.243 with NVIDIA's installer (${m.toolkit}); remove it with NVIDIA's uninstaller? [y/N]`);
    expect(asked).toContain("Unverified: no stored public source gives CUDA 10.1.243's uninstaller flag --silent.");
    await t.type('n');
    await t.keys('Enter');
    expect(await t.exitCode(60_000)).toBe(0);
    const no = await t.screen();
    expect(no).toContain('CUDA 10.1.243, which cudawiz installed with NVIDIA\'s installer, stays, as you answered');
    expect(no).toContain(`${uninstaller} --silent`);
    await t.kill();
    // The uninstaller never ran; every file NVIDIA's installer laid out is there; cuDNN's copy is gone.
    expect(await readFile(calls, 'utf8').catch(() => '')).not.toContain('cuda-uninstaller');
    for (const f of nvidiaFiles) expect(await exists(path.join(m.toolkit, f)), f).toBe(true);
    expect(await cudnnFiles()).toEqual([]);
    // The journal keeps the toolkit's entry, and only it: a later rollback can still take it.
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as Journal;
    expect(journal.entries.map((e) => [e.state, e.change.kind, e.change.target])).toEqual([['applied', 'toolkit-installer', m.toolkit]]);
    // Outside the toolkit and the journal, every file is as before the install.
    const outside = new RegExp(`${skip.source}|^${path.relative(m.home, m.toolkit)}/|^\\.config/cudawiz/env-journal\\.json$`);
    expect(await files(m.home, outside)).toEqual(Object.fromEntries(Object.entries(before).filter(([k]) => !outside.test(k))));

    // "y": NVIDIA's uninstaller runs; the toolkit folder and the journal go.
    t = term = await openTerminal([process.execPath, builtCli, 'rollback', ...m.globals], wide);
    await t.waitFor('[y/N]', 60_000);
    await t.type('y');
    await t.keys('Enter');
    expect(await t.exitCode(120_000)).toBe(0);
    expect(await t.screen()).toContain(`${m.toolkit}: CUDA 10.1.243 removed with NVIDIA's uninstaller.`);
    expect(await readFile(calls, 'utf8')).toContain(`${uninstaller} --silent`);
    expect(await exists(m.toolkit)).toBe(false);
    expect(await exists(journalFile)).toBe(false);
    expect(await files(m.home, skip)).toEqual(before);
  }, 300_000);
});
