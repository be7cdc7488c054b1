// A toolkit cudawiz installed with NVIDIA's installer (#39.4): the journal may only name NVIDIA's own
// uninstaller of that folder, and rollback runs it only as src/trust/run.ts allows. Each fixture
// uninstaller records being run, so "not run" is a fact on disk.
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEnvJournal, rollbackEnvChanges } from '../../src/env/index.js';
import { journalInstallerToolkit, uninstallInstallerToolkit, unverifiedUninstallerNote } from '../../src/env/installer-toolkit.js';
import type { EnvChange, EnvJournal } from '../../src/env/types.js';
import { runCommand, type Host } from '../../src/host.js';
import { tempDir } from '../helpers/tmp.js';

const asRoot = process.getuid?.() === 0;
const hostWith = (home: string): Host => ({ os: 'linux', env: { PATH: process.env.PATH ?? '' }, home, run: (f, a, o = {}) => runCommand(f, a, o) });

async function toolkitWithUninstaller(home: string, mm = '11.8'): Promise<{ dir: string; ran: string; uninstaller: string }> {
  const dir = path.join(home, 'cuda-root', `cuda-${mm}`);
  await mkdir(path.join(dir, 'bin'), { recursive: true, mode: 0o755 });
  const ran = path.join(home, 'ran.txt');
  const uninstaller = path.join(dir, 'bin', 'cuda-uninstaller');
  await writeFile(uninstaller, `#!/bin/sh\necho "$0 $*" >> "${ran}"\nexit 0\n`);
  await chmod(uninstaller, 0o755);
  return { dir, ran, uninstaller };
}

async function journalWith(home: string, change: EnvChange): Promise<string> {
  const file = path.join(home, '.config', 'cudawiz', 'env-journal.json');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const journal: EnvJournal = { format: 1, entries: [{ at: '2026-01-01T00:00:00.000Z', state: 'applied', change }] };
  await writeFile(file, JSON.stringify(journal), { mode: 0o600 });
  return file;
}

describe("a toolkit cudawiz installed with NVIDIA's installer", () => {
  it('is journalled before the installer runs and forgotten when the run left nothing', async () => {
    const home = await tempDir('cw-inst-');
    const file = path.join(home, '.config', 'cudawiz', 'env-journal.json');
    const dir = path.join(home, 'cuda-root', 'cuda-11.8');
    const j = await journalInstallerToolkit(file, { toolkitDir: dir, installerFile: '/c/cuda_11.8.0_520.61.05_linux.run', version: '11.8.0', why: 'x' }, 'linux');
    const pending = await readEnvJournal(file);
    expect(pending.entries.map((e) => [e.state, e.change.kind, e.change.uninstaller])).toEqual([['pending', 'toolkit-installer', { file: path.join(dir, 'bin', 'cuda-uninstaller'), args: ['--silent'] }]]);
    await j.failed(true);
    // No journal is left behind with nothing in it, nor cudawiz's own folder it was in.
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readdir(path.dirname(file))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(path.join(home, '.config'))).toEqual([]);
  });

  it('a journal naming any other program as its uninstaller is refused before anything runs', async () => {
    const home = await tempDir('cw-inst-');
    const { dir } = await toolkitWithUninstaller(home);
    const file = await journalWith(home, { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '11.8.0' }, uninstaller: { file: '/bin/rm', args: ['-rf', '/'] } });
    await expect(readEnvJournal(file)).rejects.toMatchObject({ code: 'journal-unsafe' });
  });

  it.runIf(asRoot)('as root, an uninstaller others can change is not run; the command to run is named', async () => {
    const home = await tempDir('cw-inst-');
    const { dir, ran, uninstaller } = await toolkitWithUninstaller(home);
    await chmod(path.join(dir, 'bin'), 0o777);
    const r = await uninstallInstallerToolkit(hostWith(home), { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '11.8.0' }, uninstaller: { file: uninstaller, args: ['--silent'], owner: 0 } });
    expect(r).toMatchObject({ outcome: 'failed', message: expect.stringContaining(`${uninstaller} --silent`), notRun: true });
    await expect(readFile(ran)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an uninstaller that is gone fails as never run, so rollback does not put its outcome down to the unverified flag', async () => {
    const home = await tempDir('cw-inst-');
    const { dir, uninstaller } = await toolkitWithUninstaller(home);
    await writeFile(path.join(dir, 'bin', 'nvcc'), '');
    const change: EnvChange = { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '11.8.0' }, uninstaller: { file: uninstaller, args: ['--silent'], owner: process.getuid?.() } };
    const file = await journalWith(home, change);
    await (await import('node:fs/promises')).rm(uninstaller);
    const r = await rollbackEnvChanges(file, { host: hostWith(home), removeInstallerToolkit: (c) => uninstallInstallerToolkit(hostWith(home), c) });
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]).toMatchObject({ notRun: true, message: expect.stringContaining(uninstaller) });
    // The toolkit stays, and so does its entry, for a later rollback once the uninstaller is back.
    expect((await readEnvJournal(file)).entries.map((e) => e.change.kind)).toEqual(['toolkit-installer']);
  });

  it('runs NVIDIA\'s uninstaller with --silent where it may', async () => {
    const home = await tempDir('cw-inst-');
    const { dir, ran, uninstaller } = await toolkitWithUninstaller(home);
    const r = await uninstallInstallerToolkit(hostWith(home), { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '11.8.0' }, uninstaller: { file: uninstaller, args: ['--silent'], owner: process.getuid?.() } });
    expect(r).toEqual({ outcome: 'undone' });
    expect(await readFile(ran, 'utf8')).toBe(`${uninstaller} --silent\n`);
  });

  it("an uninstaller that exits 0 and leaves the toolkit's nvcc is a failure that names the unverified flag and NVIDIA's own command", async () => {
    const home = await tempDir('cw-inst-');
    const { dir, ran, uninstaller } = await toolkitWithUninstaller(home);
    await writeFile(path.join(dir, 'bin', 'nvcc'), '#!/bin/sh\n');
    const change: EnvChange = { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '11.8.0' }, uninstaller: { file: uninstaller, args: ['--silent'], owner: process.getuid?.() } };
    const r = await uninstallInstallerToolkit(hostWith(home), change);
    expect(r).toEqual({ outcome: 'failed', message: `${uninstaller} --silent exited 0 but ${path.join(dir, 'bin', 'nvcc')} is still there: the toolkit was not removed` });
    expect(await readFile(ran, 'utf8')).toBe(`${uninstaller} --silent\n`);
    // --silent is marked unverified in assets/cuda.json: the note names NVIDIA's command without it.
    expect(unverifiedUninstallerNote(change)).toBe(`Unverified: no stored public source gives CUDA 11.8.0's uninstaller flag --silent. NVIDIA's Linux installation guide names only ${uninstaller} (no --silent; it asks its own questions); if the toolkit is still there afterwards, run that yourself.`);
    // A root-owned toolkit's command, typed by a user who is not root, takes sudo.
    if (!asRoot) expect(unverifiedUninstallerNote({ ...change, uninstaller: { ...change.uninstaller!, owner: 0 } })).toContain(`names only sudo ${uninstaller} (no --silent;`);
    // The perl uninstaller before 10.1 is never run, so nothing rests on a flag.
    expect(unverifiedUninstallerNote({ ...change, installer: { file: 'cuda.run', version: '10.0.130' } })).toBeUndefined();
  });

  it("before 10.1 (a perl uninstaller with no known unattended mode), it stays and cudawiz names the uninstaller to run", async () => {
    const home = await tempDir('cw-inst-');
    const { dir, ran } = await toolkitWithUninstaller(home, '10.0');
    const old = await uninstallInstallerToolkit(hostWith(home), { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '10.0.130' }, uninstaller: { file: path.join(dir, 'bin', 'uninstall_cuda_10.0.pl'), args: [] } });
    expect(old).toMatchObject({ outcome: 'kept', fix: expect.stringContaining(path.join(dir, 'bin', 'uninstall_cuda_10.0.pl')) });
    await expect(readFile(ran)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('where cudawiz cannot take the way out itself (the perl uninstaller), rollback says how once and the entry leaves the journal', async () => {
    const home = await tempDir('cw-inst-');
    const { dir, ran } = await toolkitWithUninstaller(home, '10.0');
    const change: EnvChange = { kind: 'toolkit-installer', target: dir, before: null, after: null, why: 'x', installer: { file: 'cuda.run', version: '10.0.130' }, uninstaller: { file: path.join(dir, 'bin', 'uninstall_cuda_10.0.pl'), args: [] } };
    const file = await journalWith(home, change);
    const r = await rollbackEnvChanges(file, { host: hostWith(home), removeInstallerToolkit: (c) => uninstallInstallerToolkit(hostWith(home), c) });
    expect(r.kept.map((k) => k.fix)).toEqual([expect.stringContaining('uninstall_cuda_10.0.pl')]);
    expect((await readEnvJournal(file)).entries).toEqual([]);
    await expect(readFile(ran)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
