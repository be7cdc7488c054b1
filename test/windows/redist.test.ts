// Story: the redist route on Windows 10 without admin rights (`net session` fails): TF 2.10 gets CUDA
// 11.8's components from NVIDIA's per-component zips (fixtures in the real layout on the loopback
// mirror, their sha256 in the overlay) and the public cuDNN 8.1.0 zip, unpacked into
// %LOCALAPPDATA%\cudawiz\CUDA\v11.8 and put on the User PATH — the Machine PATH untouched. A new
// process's doctor finds every DLL there; rollback removes the folder and the User PATH change.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, inject } from 'vitest';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { runCli } from '../helpers/cli.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { doctorJson, shown } from './doctor.js';
import { PROFILE, windowsLaptop, type WindowsLaptop } from './seed.js';
import { MACHINE_ENV, USER_ENV, zPath } from './wine.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const NOT_ADMIN = { FIXTURE_NOT_ADMIN: '1' };
const CUDNN = { version: '8.1.0.77', file: 'cudnn-11.2-windows-x64-v8.1.0.77.zip', urlPath: 'compute/redist/cudnn/v8.1.0/cudnn-11.2-windows-x64-v8.1.0.77.zip' };
const V118 = `${PROFILE}\\AppData\\Local\\cudawiz\\CUDA\\v11.8`;

/** The laptop's mirror serving CUDA 11.8's Windows redist archives and the cuDNN 8.1 zip, with the overlay that names them. */
async function servedTf210Redist(prefix: string) {
  const scratch = await tempDir(prefix);
  const cudnn = await buildCudnnArchive(scratch, { era: 'windows-cuda-folder', version: CUDNN.version, cuda: '11.2', fileName: CUDNN.file });
  const cudnnServed = await laptop!.mirror.addFile(CUDNN.urlPath, await readFile(cudnn.file));
  const fixture = await serveRedistFixtures(laptop!.mirror, scratch, {
    platform: 'windows-x86_64',
    nvccExe: await readFile(inject('wineLane').fixtureExe),
    overlayExtra: { cudnn: [{ version: CUDNN.version, cuda: '11.2', archives: { windows: { sha256: cudnnServed.sha256 } } }] },
  });
  const overlay = path.join(scratch, 'redist-overlay.json');
  await writeFile(overlay, await readFile(fixture.overlay));
  return { scratch, fixture, overlay };
}

describe('the redist route under Wine, not elevated', () => {
  it('sets up TF 2.10 in the user\'s own folder and User PATH, the doctor finds every DLL, rollback leaves nothing', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const { fixture, overlay } = await servedTf210Redist('cw-win-redist-');
    const globals = ['--catalog', zPath(overlay), '--mirror', laptop.mirror.url];
    const machinePath = await m.reg(MACHINE_ENV, 'Path');

    const r = await m.cli(['install', '--tf', '2.10', '--route', 'redist', '--yes', ...globals], { env: NOT_ADMIN });
    expect(r.code, shown(r)).toBe(0);
    expect(r.stdout).toContain("TensorFlow 2.10 was built with CUDA 11.2; CUDA 11.8's libraries carry the same names (cudart64_110.dll, cublas64_11.dll, …)");
    for (const dll of ['cudart64_110.dll', 'cublas64_11.dll', 'cublasLt64_11.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_11.dll', 'cusparse64_11.dll', 'cudnn64_8.dll']) expect(m.exists(`${V118}\\bin\\${dll}`), dll).toBe(true);
    expect(m.exists(`${V118}\\extras\\CUPTI\\lib64\\cupti64_2022.3.0.dll`)).toBe(true);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(machinePath);
    expect((await m.reg(USER_ENV, 'Path'))?.value).toContain(`${V118}\\bin`);
    expect(fixture.totalBytes).toBeGreaterThan(0);

    const after = await doctorJson(m, '--tf', '2.10', ...globals);
    expect(after.findings.find((f) => f.id === 'library:cudart')).toMatchObject({ status: 'pass', title: `cudart64_110.dll → ${V118}\\bin` });
    expect(after.findings.find((f) => f.id === 'toolkit')).toMatchObject({ status: 'pass' });
    expect(after.findings.filter((f) => f.status === 'fail').map((f) => f.id)).toEqual(['python']);

    const rollback = await m.cli(['rollback', ...globals], { env: NOT_ADMIN });
    expect(rollback.code, shown(rollback)).toBe(0);
    expect(m.exists(V118)).toBe(false);
    // There was no User Path before: rollback deletes the value, it does not leave an empty one.
    expect(await m.reg(USER_ENV, 'Path')).toBeUndefined();
  });

  it('installs TF 2.10 from a Windows redist bundle made on Linux, with the network closed', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const { scratch, overlay } = await servedTf210Redist('cw-win-bundle-');
    // Made here (Linux) for Windows, as a user with one connected machine would.
    const bundle = path.join(scratch, 'tf-2.10-windows');
    const made = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'windows', '--dest', bundle, '--catalog', overlay, '--mirror', laptop.mirror.url, '--cache-dir', path.join(scratch, 'cache')]);
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const before = laptop.mirror.requests.length;
    const r = await m.cli(['install', '--from', zPath(bundle), '--yes', '--catalog', zPath(overlay), '--mirror', 'http://127.0.0.1:9'], { env: NOT_ADMIN });
    expect(r.code, shown(r)).toBe(0);
    expect(laptop.mirror.requests.length).toBe(before);
    for (const dll of ['cudart64_110.dll', 'cublas64_11.dll', 'cusparse64_11.dll', 'cudnn64_8.dll']) expect(m.exists(`${V118}\\bin\\${dll}`), dll).toBe(true);
    const after = await doctorJson(m, '--tf', '2.10', '--catalog', zPath(overlay));
    expect(after.findings.find((f) => f.id === 'library:cudart')).toMatchObject({ status: 'pass', title: `cudart64_110.dll → ${V118}\\bin` });
  });
});
