// The seed's Windows laptop under Wine: an RTX 2060 on a DCH driver (fixture nvidia-smi.exe in
// System32), no CUDA, the cuDNN 7.6.5 zip in Downloads, and a loopback NVIDIA mirror serving the
// fixture CUDA installer under NVIDIA's file name, with a catalog overlay naming both checksums.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { buildCudnnArchive, type BuiltArchive } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
import { sha256 } from './sea.js';
import { CUDA_ROOT, USER_ENV, WineMachine, zPath } from './wine.js';

export const CUDA_101_INSTALLER = { version: '10.1.243', file: 'cuda_10.1.243_426.00_win10.exe', urlPath: 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_426.00_win10.exe' };
export const V101 = `${CUDA_ROOT}\\v10.1`;
// Wine names the profile after the Unix user.
export const PROFILE = `C:\\users\\${process.env.USER ?? 'root'}`;
export const DOWNLOADS = `${PROFILE}\\Downloads`;

export interface WindowsLaptop {
  machine: WineMachine;
  mirror: NvidiaMirror;
  /** The cuDNN zip, as the user downloaded it, at its C:\ path. */
  cudnnZip: string;
  archive: BuiltArchive;
  overlay: string;
  /** --catalog and --mirror, as Windows paths. */
  globals: string[];
  close(): Promise<void>;
}

/** A fresh Windows machine for one story; `archive` swaps the cuDNN zip for another. */
export async function windowsLaptop(options: { env?: Record<string, string>; archive?: (dir: string) => Promise<BuiltArchive> } = {}): Promise<WindowsLaptop> {
  const machine = await WineMachine.start(inject('wineLane'), options.env);
  const mirror = await startMirror({ root: await tempDir('cw-win-mirror-') });
  const scratch = await tempDir('cw-win-seed-');
  const installer = await mirror.addFile(CUDA_101_INSTALLER.urlPath, await readFile(inject('wineLane').fixtureExe));
  const archive = await (options.archive ?? ((dir) => buildCudnnArchive(dir, { era: 'windows-cuda-folder' })))(scratch);
  const cudnnZip = `${DOWNLOADS}\\${archive.name}`;
  const bytes = await readFile(archive.file);
  await machine.writeFile(cudnnZip, bytes);
  // The fixture files carry NVIDIA's names, so the overlay gives their checksums in place of NVIDIA's.
  const overlay = path.join(scratch, 'overlay.json');
  await writeFile(
    overlay,
    JSON.stringify({
      cuda: [{ version: CUDA_101_INSTALLER.version, installers: { windows: { sha256: installer.sha256 } } }],
      cudnn: [{ version: '7.6.5.32', cuda: '10.1', archives: { windows: { sha256: sha256(bytes) } } }],
    }),
  );
  return {
    machine,
    mirror,
    cudnnZip,
    archive,
    overlay,
    globals: ['--catalog', zPath(overlay), '--mirror', mirror.url],
    close: async () => {
      await mirror.close();
      await machine.close();
    },
  };
}

/** What a user did before cudawiz: ran NVIDIA's installer for another CUDA by hand (the fixture, under its name). */
export async function installCudaByHand(m: WineMachine, file: string, mm: string): Promise<string> {
  const exe = `${DOWNLOADS}\\${file}`;
  await m.fixtureProgram(exe);
  const r = await m.exe(exe, ['-s', `nvcc_${mm}`, `cudart_${mm}`, '-n', `-log:${PROFILE}\\AppData\\Local\\Temp\\cuda-${mm}`]);
  if (r.code !== 0) throw new Error(`the fixture installer ${file} failed: ${r.stderr}`);
  return `${CUDA_ROOT}\\v${mm}`;
}

// cuDNN 8's Windows zips split the library into these DLLs beside cudnn64_8.dll (NVIDIA's cuDNN 8.x archives).
const CUDNN8_PARTS = ['adv_infer', 'adv_train', 'cnn_infer', 'cnn_train', 'ops_infer', 'ops_train'];

/** cuDNN copied into a toolkit by hand, as the blog posts say: its DLLs (all of 8.x's), import library and version header. */
export async function copyCudnnByHand(m: WineMachine, toolkit: string, version: string): Promise<void> {
  const [maj, min, patch] = version.split('.');
  const dll = await readFile(m.host('C:\\windows\\system32\\version.dll'));
  for (const name of [`cudnn64_${maj}.dll`, ...(Number(maj) >= 8 ? CUDNN8_PARTS.map((p) => `cudnn_${p}64_${maj}.dll`) : [])]) await m.writeFile(`${toolkit}\\bin\\${name}`, dll);
  await m.writeFile(`${toolkit}\\lib\\x64\\cudnn.lib`, 'cuDNN import library');
  const defines = `#define CUDNN_MAJOR ${maj}\n#define CUDNN_MINOR ${min}\n#define CUDNN_PATCHLEVEL ${patch}\n`;
  await m.writeFile(`${toolkit}\\include\\${Number(maj) >= 8 ? 'cudnn_version.h' : 'cudnn.h'}`, defines);
}

export const PYTHON38 = `${PROFILE}\\AppData\\Local\\Programs\\Python\\Python38`;

/**
 * Python 3.8 from python.org with "Add Python 3.8 to PATH" ticked (its folders first on the User PATH)
 * and `pip install tensorflow==<tf>`: the fixture python.exe answers the probe from the wheel's
 * dist-info and its build_info.py (`cuda`/`cudnn` as TF's Windows builds spell them: 64_101, 64_7).
 */
export async function installPythonWithTf(m: WineMachine, tf: string, build: { cuda: string; cudnn: string }): Promise<void> {
  await m.fixtureProgram(`${PYTHON38}\\python.exe`);
  const site = `${PYTHON38}\\Lib\\site-packages`;
  await m.writeFile(`${site}\\tensorflow-${tf}.dist-info\\METADATA`, `Metadata-Version: 2.1\r\nName: tensorflow\r\nVersion: ${tf}\r\n`);
  await m.writeFile(
    `${site}\\tensorflow\\python\\platform\\build_info.py`,
    `build_info = {'cuda_version': '${build.cuda}', 'cudnn_version': '${build.cudnn}', 'is_cuda_build': True, 'is_rocm_build': False, 'msvcp_dll_names': 'msvcp140.dll,msvcp140_1.dll', 'nvcuda_dll_name': 'nvcuda.dll'}\r\n`,
  );
  const user = await m.reg(USER_ENV, 'Path');
  await m.setReg(USER_ENV, 'Path', user?.kind ?? 'REG_EXPAND_SZ', [`${PYTHON38}\\Scripts\\`, `${PYTHON38}\\`, ...(user?.value ? [user.value] : [])].join(';'));
}
