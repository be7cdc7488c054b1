// Story 1, the seed's laptop: Windows 10, an RTX 2060 on a DCH driver, no CUDA. The doctor says what
// is missing; one `install --tf 2.3 --yes` downloads the CUDA installer from the mirror, runs it,
// copies cuDNN from the zip in Downloads, writes the Machine PATH and verifies — exit 0 the first
// time; a re-run changes nothing; the wizard's Done screen names the Python range TF 2.3 needs (there is
// none under Wine) and never says "ready"; rollback restores the registry value and removes cuDNN's files.
import { afterEach, describe, expect, it } from 'vitest';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';
import { doctorJson, shown } from './doctor.js';
import { PROFILE, V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { MACHINE_ENV, USER_ENV } from './wine.js';

let laptop: WindowsLaptop | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  await term?.kill();
  await laptop?.close();
  laptop = undefined;
  term = undefined;
});

const CUDNN_FILES = ['bin/cudnn64_7.dll', 'include/cudnn.h', 'lib/x64/cudnn.lib'];
const JOURNAL = `${PROFILE}\\AppData\\Roaming\\cudawiz\\Config\\env-journal.json`;

describe('the seed laptop under Wine', () => {
  it('sets up TF 2.3 from nothing in one run (exit 0), re-runs as a no-op, and rolls back exactly', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;

    const req = await m.cli(['requirements', '--tf', '2.3', '--json']);
    expect(req.code, shown(req)).toBe(0);
    expect(JSON.parse(req.stdout)).toMatchObject({ os: 'windows', cuda: '10.1', cudaInstaller: { file: 'cuda_10.1.243_426.00_win10.exe' }, cudnnArchive: { file: 'cudnn-10.1-windows10-x64-v7.6.5.32.zip' } });

    const before = await doctorJson(m, '--tf', '2.3');
    expect(before.run.code).toBe(1);
    const toolkit = before.findings.find((f) => f.id === 'toolkit')!;
    expect(toolkit).toMatchObject({ status: 'fail', title: 'CUDA 10.1 is not installed' });
    expect(toolkit.evidence.join('\n')).toContain('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA');
    expect(before.findings.find((f) => f.id === 'gpu')).toMatchObject({ status: 'pass', title: 'NVIDIA GPU: NVIDIA GeForce RTX 2060' });
    expect(before.findings.find((f) => f.id === 'driver')).toMatchObject({ status: 'pass', title: expect.stringContaining('528.49') });
    expect(before.findings.find((f) => f.id === 'library:cuda')).toMatchObject({ status: 'pass', title: 'nvcuda.dll → C:\\windows\\System32' });
    expect((await m.fixtureCalls()).map((c) => c.program)).toContain('nvidia-smi.exe');

    const machinePath = (await m.reg(MACHINE_ENV, 'Path'))!;
    expect(machinePath).toEqual({ kind: 'REG_EXPAND_SZ', value: expect.stringMatching(/^%SystemRoot%\\system32;%SystemRoot%;/) });

    const install = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', ...laptop.globals]);
    expect(install.code, shown(install)).toBe(0);
    expect(install.stdout).toContain('[ok] Verify: 3 layer(s) passed');
    expect(install.stdout).toContain('open a new terminal before starting TensorFlow');
    for (const f of CUDNN_FILES) expect(m.exists(`${V101}\\${f}`), f).toBe(true);
    const manifest = JSON.parse(await m.readFile(`${V101}\\.cudawiz\\manifest.json`));
    expect(manifest).toMatchObject({ state: 'complete', os: 'windows', archive: { version: '7.6.5' } });
    const installer = (await m.fixtureCalls()).find((c) => c.program === 'cuda_10.1.243_426.00_win10.exe')!;
    expect(installer.args).toContain('-s');
    expect(installer.args.some((a) => /display\.driver/i.test(a))).toBe(false);

    // cudawiz's folders first (the installer's bin moved, not doubled), %SystemRoot% kept as written, REG_EXPAND_SZ kept.
    const afterInstaller = `${machinePath.value};${V101}\\bin;${V101}\\libnvvp`;
    const written = (await m.reg(MACHINE_ENV, 'Path'))!;
    expect(written).toEqual({ kind: 'REG_EXPAND_SZ', value: `${V101}\\bin;${V101}\\extras\\CUPTI\\lib64;${machinePath.value};${V101}\\libnvvp` });
    expect(await m.reg(USER_ENV, 'Path')).toBeUndefined();

    // A new process gets the new PATH from the registry: the doctor finds every DLL in v10.1\bin.
    const after = await doctorJson(m, '--tf', '2.3');
    const libraries = after.findings.filter((f) => f.id.startsWith('library:') && f.id !== 'library:cuda');
    expect(libraries.map((f) => [f.status, f.title])).toEqual(['cudart64_101.dll', 'cublas64_10.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_10.dll', 'cusparse64_10.dll', 'cudnn64_7.dll'].map((dll) => ['pass', `${dll} → ${V101}\\bin`]));
    // No Windows Python under Wine: that is the only finding left, and it names the Python TF 2.3 takes (#40.4).
    expect(after.findings.filter((f) => f.status === 'fail').map((f) => f.id)).toEqual(['python']);
    expect(after.findings.find((f) => f.id === 'python')!.title).toMatch(/^No Python interpreter found: TensorFlow 2\.3(\.0)? needs 64-bit Python 3\.5–3\.8$/);

    const digest = await treeDigest(m.host(V101));
    const requests = laptop.mirror.requests.length;
    const again = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', ...laptop.globals]);
    expect(again.code, shown(again)).toBe(0);
    expect(again.stdout).toContain('[--] Make the libraries findable  (already done');
    expect(await treeDigest(m.host(V101))).toEqual(digest);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(written);
    expect(laptop.mirror.requests.length).toBe(requests);

    // The wizard on the same laptop (80×24, Wine's console): New setup for TF 2.3, nothing left to do but
    // the Python, and its Done screen names the Python range and never says the machine is ready.
    term = await openTerminal(m.cliCommand(laptop.globals), { env: m.unixEnv() as Record<string, string>, width: 80, height: 24 });
    let screen = await term.waitFor('New setup for a TensorFlow version', 90_000);
    if (/❯ Repair it/.test(screen)) {
      await term.keys('Down');
      await term.waitFor(/❯ New setup/);
    }
    await term.keys('Enter');
    await term.waitFor('Which TensorFlow version?', 30_000);
    await term.type('2.3');
    await term.waitFor(/❯ TensorFlow 2\.3\.0/);
    await term.keys('Enter');
    await term.waitFor('Go ahead?', 60_000);
    await term.keys('Enter');
    // Wine's console folds lines near column 70, so the words are compared without their spaces.
    screen = await term.waitFor('What now', 120_000);
    const flat = screen.replace(/\s+/g, '');
    expect(flat).toContain('TensorFlowisnotreadyyet:itneedsthePythonbelow.');
    expect(flat).not.toContain('readyforTensorFlow');
    // What now: the Python first, then TF's pip line (TF is not installed here), in that order.
    expect(flat).toContain('TensorFlow2.3needs64-bitPython3.5–3.8,andthismachinehasnoneyet');
    expect(flat.indexOf('64-bitPython3.5–3.8')).toBeLessThan(flat.indexOf('pipinstalltensorflow==2.3.0'));
    await term.keys('q');
    await term.kill();
    term = undefined;
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(written);

    const rollback = await m.cli(['rollback']);
    expect(rollback.code, shown(rollback)).toBe(0);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual({ kind: 'REG_EXPAND_SZ', value: afterInstaller });
    // A journal with nothing in it is not left behind (#39).
    expect(m.exists(JOURNAL)).toBe(false);
    const left = await treeDigest(m.host(V101));
    const cudnn = new Set(CUDNN_FILES);
    // Exactly cuDNN's files went; the toolkit the installer laid out is as it was.
    expect(Object.keys(left).filter((k) => !k.startsWith('.cudawiz'))).toEqual(Object.keys(digest).filter((k) => !cudnn.has(k) && !k.startsWith('.cudawiz')));
    for (const f of CUDNN_FILES) expect(m.exists(`${V101}\\${f}`), f).toBe(false);
  });
});
