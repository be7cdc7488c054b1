// Issue #25's Windows classes of a broken install, run for real: the built CLI on Windows node.exe
// under Wine, each laptop broken the way users break theirs (NVIDIA's installer, cuDNN copied by
// hand, an Anaconda Prompt) beside Python 3.8 with pip's TensorFlow, then `repair --yes` against the
// loopback mirror and `doctor` in a new process. A remedy must leave the doctor passing (exit 0); a
// stop must change nothing: the toolkits, the saved PATHs and the mirror's log are compared before
// and after. The data tests (test/unit/repair-windows.test.ts)
// assert the same plans on path.win32 machines.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { peBytes, treeDigest } from '../helpers/cudnn-archive.js';
import { englishIn } from '../helpers/english-runs.js';
import { condaRecord } from '../fixtures/conda-env.js';
import { doctorJson, shown, type DoctorFinding } from './doctor.js';
import { copyCudnnByHand, installCudaByHand, installPythonWithTf, PROFILE, V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { CUDA_ROOT, MACHINE_ENV, USER_ENV, type WineMachine } from './wine.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const V110 = `${CUDA_ROOT}\\v11.0`;
const V112 = `${CUDA_ROOT}\\v11.2`;
const CJK = /[\u4e00-\u9fff]/;
const INSTALLER_101 = 'cuda_10.1.243_426.00_win10.exe';
const INSTALLER_110 = 'cuda_11.0.2_451.48_win10.exe';
// tf.sysconfig.get_build_info() of the Windows wheels: CUDA and cuDNN as TF's build spells them.
const TF23 = { cuda: '64_101', cudnn: '64_7' };
const TF210 = { cuda: '64_112', cudnn: '64_8' };

const failing = (findings: DoctorFinding[]) => findings.filter((f) => f.status === 'fail');
const ids = (findings: DoctorFinding[]) => findings.map((f) => f.id).sort();
const lower = (dirs: string[]) => dirs.map((d) => d.toLowerCase());

/** What a repair may not touch when it stops or only lists: both saved PATHs and every given tree. */
async function snapshot(m: WineMachine, trees: string[]) {
  const digests: Record<string, Record<string, string>> = {};
  for (const t of trees) digests[t] = await treeDigest(m.host(t));
  return { machinePath: await m.reg(MACHINE_ENV, 'Path'), userPath: await m.reg(USER_ENV, 'Path'), digests, journal: m.exists(`${PROFILE}\\AppData\\Roaming\\cudawiz\\Config\\env-journal.json`) };
}

/** The saved Machine PATH edited as a later installer or the user leaves it (its value kind kept). */
async function machinePathWith(m: WineMachine, edit: (dirs: string[]) => string[]): Promise<void> {
  const now = (await m.reg(MACHINE_ENV, 'Path'))!;
  await m.setReg(MACHINE_ENV, 'Path', now.kind, edit(now.value.split(';').filter(Boolean)).join(';'));
}

describe('repair on Windows, class by class, under Wine', () => {
  it("another CUDA's bin first on the saved Machine PATH: not elevated, repair changes nothing and says to rerun it as an administrator; elevated (on a Chinese Windows), it puts v10.1\\bin first through the registry, downloads nothing, leaves 11.0 as it was, and rolls back exactly", async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    await installCudaByHand(m, INSTALLER_101, '10.1');
    await copyCudnnByHand(m, V101, '7.6.5');
    await installCudaByHand(m, INSTALLER_110, '11.0');
    await installPythonWithTf(m, '2.3.0', TF23);
    // 11.0's folders ahead of 10.1's on the Machine PATH (its installer ran last).
    const v110dirs = lower([`${V110}\\bin`, `${V110}\\libnvvp`]);
    await machinePathWith(m, (dirs) => [...dirs.filter((d) => v110dirs.includes(d.toLowerCase())), ...dirs.filter((d) => !v110dirs.includes(d.toLowerCase()))]);

    const before = await doctorJson(m, '--tf', '2.3');
    expect(before.run.code, shown(before.run)).toBe(1);
    const order = before.findings.find((f) => f.id === `load-order:${V101}\\bin`);
    expect(order?.status, JSON.stringify(before.findings, null, 1)).toBe('fail');
    expect(order?.title).toContain(`${V110}\\bin`);
    // Everything TF 2.3 needs is on the machine: the order is the only fault.
    expect(ids(failing(before.findings))).toEqual([`load-order:${V101}\\bin`]);

    // First from a normal terminal: only an administrator may reorder the Machine PATH, so nothing is written.
    const was = await snapshot(m, [V101, V110]);
    const notAdmin = await m.cli(['repair', '--tf', '2.3', '--yes', ...laptop.globals], { env: { FIXTURE_NOT_ADMIN: '1' } });
    expect(notAdmin.code, shown(notAdmin)).toBe(1);
    expect(notAdmin.stdout + notAdmin.stderr).toContain("only an administrator can reorder it");
    expect(notAdmin.stdout + notAdmin.stderr).toContain('(or an elevated PowerShell) and run: cudawiz repair --tf 2.3');
    expect(await snapshot(m, [V101, V110])).toEqual(was);

    const repair = await m.cliInUiLanguage('zh-CN', ['repair', '--tf', '2.3', '--yes', ...laptop.globals]);
    expect(repair.code, shown(repair)).toBe(0);
    expect(repair.stdout).toMatch(CJK);
    expect(englishIn(repair.stdout + repair.stderr)).toEqual([]);
    expect(laptop.mirror.requests).toEqual([]);
    expect((await snapshot(m, [V101, V110])).digests).toEqual(was.digests);
    const written = (await m.reg(MACHINE_ENV, 'Path'))!;
    expect(written.kind).toBe('REG_EXPAND_SZ');
    const dirs = lower(written.value.split(';'));
    expect(dirs[0]).toBe(`${V101}\\bin`.toLowerCase());
    expect(dirs).toContain(`${V110}\\bin`.toLowerCase());
    expect(dirs.indexOf(`${V101}\\bin`.toLowerCase())).toBeLessThan(dirs.indexOf(`${V110}\\bin`.toLowerCase()));

    // A new process (its PATH built from the registry, as Windows builds it) finds 10.1's copies.
    const after = await doctorJson(m, '--tf', '2.3');
    expect(after.run.code, JSON.stringify(failing(after.findings), null, 1)).toBe(0);
    for (const dll of ['cudart64_101.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_10.dll', 'cudnn64_7.dll']) {
      expect(after.findings.find((f) => f.title.startsWith(`${dll} `)), dll).toMatchObject({ status: 'pass', title: `${dll} → ${V101}\\bin` });
    }

    // The change was journalled: rollback puts the saved Machine PATH back exactly, kind included.
    const rollback = await m.cli(['rollback']);
    expect(rollback.code, shown(rollback)).toBe(0);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(was.machinePath);
  });

  it('cuDNN 7.6 copied into v11.0 while TF 2.3 loads from v10.1: repair lists the copy to make, downloads nothing, changes nothing; once copied, the doctor passes', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    await installCudaByHand(m, INSTALLER_101, '10.1');
    await installCudaByHand(m, INSTALLER_110, '11.0');
    await copyCudnnByHand(m, V110, '7.6.5');
    await installPythonWithTf(m, '2.3.0', TF23);
    // 11.0's folders taken off the Machine PATH, so they no longer shadow 10.1's — and its cuDNN goes with them.
    const v110dirs = lower([`${V110}\\bin`, `${V110}\\libnvvp`]);
    await machinePathWith(m, (dirs) => dirs.filter((d) => !v110dirs.includes(d.toLowerCase())));
    const was = await snapshot(m, [V101, V110]);

    const before = await doctorJson(m, '--tf', '2.3');
    const cudnn = before.findings.find((f) => f.id === 'cudnn');
    expect(cudnn?.status, JSON.stringify(before.findings, null, 1)).toBe('fail');
    const copy = `cuDNN 7.6.5 is already at ${V110}: nothing to download — copy its cudnn files (bin or lib, include) into ${V101}, the CUDA folder TensorFlow uses`;
    expect(cudnn?.fix).toBe(copy);
    expect(before.findings.some((f) => f.id.startsWith('load-order:'))).toBe(false);

    const repair = await m.cli(['repair', '--tf', '2.3', '--yes', ...laptop.globals]);
    expect(repair.code, shown(repair)).toBe(1);
    expect(repair.stdout).toContain(copy);
    // Never "add v11.0\\bin to PATH": that would put 11.0's cufft64_10.dll … ahead of 10.1's.
    expect(repair.stdout).not.toMatch(/Add .*v11\.0\\bin to PATH/);
    expect(laptop.mirror.requests).toEqual([]);
    expect(await snapshot(m, [V101, V110])).toEqual(was);

    // The copy the run named, made by hand: bin, include and lib\x64 into v10.1.
    for (const rel of ['bin\\cudnn64_7.dll', 'include\\cudnn.h', 'lib\\x64\\cudnn.lib']) await m.writeFile(`${V101}\\${rel}`, await readFile(m.host(`${V110}\\${rel}`)));
    const after = await doctorJson(m, '--tf', '2.3');
    expect(after.run.code, JSON.stringify(failing(after.findings), null, 1)).toBe(0);
    expect(after.findings.find((f) => f.title.startsWith('cudnn64_7.dll '))).toMatchObject({ status: 'pass', title: `cudnn64_7.dll → ${V101}\\bin` });
  });

  it("an Anaconda Prompt whose Library\\bin has conda's older cudnn64_7.dll: repair stops with conda's command and changes nothing", async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    await installCudaByHand(m, INSTALLER_101, '10.1');
    await copyCudnnByHand(m, V101, '7.6.5');
    const conda = `${PROFILE}\\anaconda3`;
    await m.writeFile(`${conda}\\Library\\bin\\cudnn64_7.dll`, peBytes('x64'));
    await m.writeFile(`${conda}\\conda-meta\\cudnn-7.3.1-cuda10.0_0.json`, condaRecord('cudnn', '7.3.1', 'cuda10.0_0', 'win-64', ['Library/bin/cudnn64_7.dll'], `${conda}\\pkgs`));
    await m.writeFile(`${conda}\\conda-meta\\history`, '==> 2019-11-26 10:15:46 <==\n# cmd: conda install cudnn=7.3.1\n');
    // What "Anaconda Prompt" sets for the base env.
    const prompt = { CONDA_PREFIX: conda, CONDA_DEFAULT_ENV: 'base' };
    const was = await snapshot(m, [V101, conda]);

    const repair = await m.cli(['repair', '--tf', '2.3', '--yes', ...laptop.globals], { env: prompt });
    expect(repair.code, shown(repair)).toBe(1);
    const said = repair.stdout + repair.stderr;
    expect(said).toContain(`Replace the stale copy with its package manager: conda install -p ${conda} "cudnn>=7.6,<8"`);
    // No PATH order beats Library\\bin for conda's Python: neither a repair nor $env:Path is offered as the fix.
    expect(said).not.toContain('$env:Path');
    expect(said).toContain("conda's Python loads the env's Library\\bin before any folder on PATH, so only conda can replace the copy there");
    expect(laptop.mirror.requests).toEqual([]);
    expect(await snapshot(m, [V101, conda])).toEqual(was);

    // The doctor in the same prompt agrees: conda's copy wins, conda's command fixes it.
    const doctor = await doctorJson(m, '--tf', '2.3');
    expect(doctor.findings.some((f) => f.id.startsWith('load-order:')), 'no conda env outside the prompt').toBe(false);
    const inPrompt = await m.cli(['doctor', '--tf', '2.3', '--json'], { env: prompt });
    const order = (JSON.parse(inPrompt.stdout) as { findings: DoctorFinding[] }).findings.find((f) => f.id.startsWith('load-order:'));
    expect(order).toMatchObject({ status: 'fail' });
    expect(order?.fix).toContain(`conda install -p ${conda} "cudnn>=7.6,<8"`);
  });

  it('cuDNN 8.6 in v11.2 for TF 2.10 without zlibwapi.dll: repair lists it with where the 64-bit DLL comes from, changes nothing; once placed, the doctor passes', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    // TF 2.10 was built against cuDNN 8.1, which needs no zlibwapi.dll; users put the newest 8.x in (cudnn64_8.dll loads), and 8.3+ needs it.
    await installCudaByHand(m, 'cuda_11.2.2_461.33_win10.exe', '11.2');
    await copyCudnnByHand(m, V112, '8.6.0');
    await installPythonWithTf(m, '2.10.0', TF210);
    const was = await snapshot(m, [V112]);

    const before = await doctorJson(m, '--tf', '2.10');
    expect(ids(failing(before.findings)), JSON.stringify(failing(before.findings), null, 1)).toEqual(['zlibwapi']);

    const repair = await m.cli(['repair', '--tf', '2.10', '--yes', ...laptop.globals]);
    expect(repair.stdout).toContain('zlib123dllx64.zip');
    // Done with what cudawiz may change, and waiting on the user for the DLL: exit 3, not 0.
    expect(repair.code, shown(repair)).toBe(3);
    expect(repair.stdout).toContain('what is left to you is listed above (exit 3 until it is done)');
    expect(laptop.mirror.requests).toEqual([]);
    expect(await snapshot(m, [V112])).toEqual(was);

    // The 64-bit zlibwapi.dll put beside cuDNN, as the fix says: the doctor passes.
    await m.writeFile(`${V112}\\bin\\zlibwapi.dll`, peBytes('x64'));
    const after = await doctorJson(m, '--tf', '2.10');
    expect(after.run.code, JSON.stringify(failing(after.findings), null, 1)).toBe(0);
    expect(after.findings.find((f) => f.id === 'zlibwapi')?.status).toBe('pass');
  });
});
