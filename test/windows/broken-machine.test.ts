// Story 2, the seed's broken machine: CUDA 11.0 with cuDNN 8 already installed by hand, TensorFlow
// 2.3 wanted (CUDA 10.1 + cuDNN 7.6). The doctor names what is wrong; `repair` installs 10.1 beside
// 11.0 and orders the Machine PATH so 10.1's bin wins; 11.0 is left exactly as it was.
import { afterEach, describe, expect, it } from 'vitest';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { doctorJson, shown } from './doctor.js';
import { copyCudnnByHand, installCudaByHand, V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { CUDA_ROOT, MACHINE_ENV } from './wine.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const V110 = `${CUDA_ROOT}\\v11.0`;

describe('the seed machine with CUDA 11.0, under Wine', () => {
  it('diagnoses 11.0 + cuDNN 8 for TF 2.3, repairs by adding 10.1 beside it with 10.1 first on PATH, and leaves 11.0 alone', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    await installCudaByHand(m, 'cuda_11.0.2_451.48_win10.exe', '11.0');
    await copyCudnnByHand(m, V110, '8.0.5');
    const digest110 = await treeDigest(m.host(V110));
    const machinePath = (await m.reg(MACHINE_ENV, 'Path'))!;
    expect(machinePath.value).toContain(`${V110}\\bin`);

    const doctor = await doctorJson(m, '--tf', '2.3');
    expect(doctor.run.code).toBe(1);
    const failing = Object.fromEntries(doctor.findings.filter((f) => f.status !== 'pass').map((f) => [f.id, f]));
    expect(failing.toolkit?.title).toMatch(/^CUDA 10\.1 is not installed \(found 11\.0/);
    // One diagnosis (#39): the libraries that load 11.0's copies are listed under the toolkit that is missing, not as fixes of their own.
    expect(failing.toolkit?.evidence).toEqual([`installed: CUDA 11.0.2 at ${V110}, version from version.txt`, "3 of TensorFlow's libraries load a wrong copy, and no right one is on this machine: cufft64_10.dll, curand64_10.dll, cusolver64_10.dll"]);
    expect(failing['libraries:toolkit']?.title).toBe('3 CUDA 10.1 libraries are not found anywhere: cudart64_101.dll, cublas64_10.dll, cusparse64_10.dll');
    // 11.0 ships cufft64_10.dll, curand64_10.dll and cusolver64_10.dll under 10.1's names: they load, but they are 11.0's.
    // They are named once, under the missing 10.1 toolkit above, not as three findings with the same fix.
    for (const lib of ['cufft', 'curand', 'cusolver']) expect(failing[`library:${lib}`]).toBeUndefined();
    expect(failing['library:cudnn']?.title).toBe('cudnn64_7.dll is not found anywhere');
    expect(Object.keys(failing).sort()).toEqual(['libraries:toolkit', 'library:cudnn', 'python', 'toolkit']);

    const repair = await m.cli(['repair', '--tf', '2.3', '--yes', ...laptop.globals]);
    // This laptop has no Python 3.5–3.8 yet: the CUDA side is repaired, and the run ends waiting on the user (exit 3) for that.
    expect(repair.code, shown(repair)).toBe(3);
    expect(repair.stdout).toContain('what is left to you is listed above');
    expect(m.exists(`${V101}\\bin\\cudart64_101.dll`)).toBe(true);
    expect(m.exists(`${V101}\\bin\\cudnn64_7.dll`)).toBe(true);
    expect(await treeDigest(m.host(V110))).toEqual(digest110);
    const written = (await m.reg(MACHINE_ENV, 'Path'))!;
    expect(written.kind).toBe('REG_EXPAND_SZ');
    const dirs = written.value.split(';').map((d) => d.toLowerCase());
    expect(dirs[0]).toBe(`${V101}\\bin`.toLowerCase());
    expect(dirs.indexOf(`${V101}\\bin`.toLowerCase())).toBeLessThan(dirs.indexOf(`${V110}\\bin`.toLowerCase()));
    expect(dirs).toContain(`${V110}\\bin`.toLowerCase());

    const after = await doctorJson(m, '--tf', '2.3');
    for (const dll of ['cudart64_101.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_10.dll', 'cudnn64_7.dll']) {
      expect(after.findings.find((f) => f.title.startsWith(`${dll} `)), dll).toMatchObject({ status: 'pass', title: `${dll} → ${V101}\\bin` });
    }
    expect(after.findings.filter((f) => f.status === 'fail').map((f) => f.id)).toEqual(['python']);
  });
});
