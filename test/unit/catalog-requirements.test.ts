// `requirements` for every row of both TensorFlow tables, checked against rules written out here
// independently of the catalog's own tables (domain.md §1, §2b, §4), plus the facts users ask about.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { cudnnPartFiles, requirementsFor, type Requirements } from '../../src/catalog/queries.js';
import type { TfRow } from '../../src/catalog/schema.js';
import { CudawizError } from '../../src/errors.js';
import { OS_NAMES, type OsName } from '../../src/platform.js';
import { compareDotted, major, majorMinor } from '../../src/version.js';
import { runCli } from '../helpers/cli.js';

const catalog = builtinCatalog();
const files = (r: Requirements) => r.libraries.map((l) => l.file);
const lib = (os: OsName, name: string, v: string) => (os === 'windows' ? `${name}64_${v.replace('.', '')}.dll` : `lib${name}.so.${v}`);

/** domain.md §2b: cudart is major.minor to 10.2, "11.0" for all of 11.x, the major from 12. */
function expectedCudart(cuda: string): string {
  const m = major(cuda);
  return m <= 10 ? majorMinor(cuda) : m === 11 ? '11.0' : String(m);
}
/** domain.md §2b: cuBLAS is major.minor to 10.0, then the library's own major (10 for 10.1/10.2, then the CUDA major). */
function expectedCublas(cuda: string): string {
  return compareDotted(cuda, '10.0') <= 0 ? majorMinor(cuda) : String(major(cuda));
}
/** The tables' Python lists: min/max of the 3.x range ("2.7, 3.3-3.7" → 3.3 … 3.7). */
function expectedPython(row: TfRow): { min: string; max: string } {
  const py3 = row.python.flatMap((p) => p.split('-')).filter((v) => major(v) === 3).sort(compareDotted);
  return { min: py3[0], max: py3[py3.length - 1] };
}
/** Lowest driver per CUDA line: Table 3 for ≤ 11.0, the minor-version-compatibility minimum after (domain.md §4). */
const DRIVER_MIN: Record<string, { linux: string; windows?: string }> = {
  '9.0': { linux: '384.81', windows: '385.54' },
  '10.0': { linux: '410.48', windows: '411.31' },
  '10.1': { linux: '418.39', windows: '418.96' },
  '11.0': { linux: '450.51.06', windows: '451.82' },
  '11.2': { linux: '450.80.02', windows: '452.39' },
  '11.8': { linux: '450.80.02' },
  '12.2': { linux: '525.60.13' },
  '12.3': { linux: '525.60.13' },
  '12.5': { linux: '525.60.13' },
};
const CC_MIN: Record<number, string> = { 8: '2.0', 9: '3.0', 10: '3.0', 11: '3.5', 12: '5.0' };

describe('requirements for every row of both tables', () => {
  for (const os of OS_NAMES) {
    it(`answers each ${os} row with its CUDA, cuDNN, Python, pip name, libraries, driver and downloads`, () => {
      for (const row of catalog.tensorflow[os]) {
        const at = `${os} ${row.version}`;
        const r = requirementsFor(catalog, row.version, os);
        expect(r, at).toMatchObject({ tensorflow: row.version, row: row.version, os, gpuSupported: true, alternatives: [], cuda: row.cuda, cudnn: row.cudnn });
        expect(r.python, at).toMatchObject(expectedPython(row));
        expect(r.pip, at).toBe(compareDotted(majorMinor(row.version), '1.15') <= 0 ? `tensorflow-gpu==${row.version}` : `tensorflow==${row.version}`);
        expect(r.andCuda, at).toBe(os === 'linux' && compareDotted(majorMinor(row.version), '2.14') >= 0);
        expect(r.computeCapabilityMin, at).toBe(CC_MIN[major(row.cuda)]);
        expect(files(r), at).toEqual(
          expect.arrayContaining([
            lib(os, 'cudart', expectedCudart(row.cuda)),
            lib(os, 'cublas', expectedCublas(row.cuda)),
            lib(os, 'cudnn', String(major(row.cudnn))),
            os === 'windows' ? 'nvcuda.dll' : 'libcuda.so.1',
          ]),
        );
        expect(files(r).some((f) => f.includes('cublasLt')), at).toBe(major(row.cuda) >= 11);
        if (major(row.cuda) === 8) {
          // Known gap: no CUDA 8 installers, no cuDNN 5.1/6 builds in the catalog; it still answers, and says so.
          expect(r.cudaInstaller, at).toBeNull();
          expect(r.cudnnArchive, at).toBeNull();
          expect(r.driverMin, at).toBeNull();
          expect(r.notes.join('\n'), at).toMatch(/no \w+ installer for CUDA 8\.0 \(older than any release it ships, which start at 9\.0\.176\)/);
          expect(r.notes.join('\n'), at).toContain(`no ${os} cuDNN ${row.cudnn} build for CUDA 8.0`);
          continue;
        }
        expect(r.driverMin, at).toBe(DRIVER_MIN[row.cuda][os]);
        expect(r.cudaInstaller && majorMinor(r.cudaInstaller.version), at).toBe(row.cuda);
        expect(r.cudaInstaller!.file, at).toMatch(os === 'windows' ? /\.exe$/ : /\.run$/);
        expect(r.cudnnArchive, at).not.toBeNull();
        expect(major(r.cudnnArchive!.version), at).toBe(major(row.cudnn));
        expect(compareDotted(r.cudnnArchive!.version, row.cudnn), at).toBeGreaterThanOrEqual(0);
        expect(major(r.cudnnArchive!.cuda), at).toBe(major(row.cuda));
      }
    });
  }

  it('says native Windows has no GPU for every Linux row past 2.10, with the three ways out', () => {
    const past = catalog.tensorflow.linux.filter((row) => compareDotted(majorMinor(row.version), '2.10') > 0);
    expect(past.map((row) => row.version)).toContain('2.11.0');
    for (const row of past) {
      const r = requirementsFor(catalog, row.version, 'windows');
      expect(r, row.version).toMatchObject({ gpuSupported: false, cuda: null, cudnn: null, libraries: [], cudaInstaller: null, cudnnArchive: null, andCuda: false });
      expect(r.alternatives.map((a) => a.id)).toEqual(['wsl2', 'tf-2.10', 'directml']);
      expect(r.notes.join('\n')).toContain('2.10 was the last release with GPU support on native Windows');
      expect(r.notes.join('\n')).toContain(`Under WSL2, TensorFlow ${majorMinor(row.version)} needs CUDA ${row.cuda}`);
    }
    // Someone who saw the short-lived Windows 2.11 row is told it was withdrawn.
    expect(requirementsFor(catalog, '2.11', 'windows').notes.join('\n')).toMatch(/once listed 2\.11\.0 .* removed it/);
    expect(requirementsFor(catalog, '2.12', 'windows').notes.join('\n')).not.toContain('once listed');
  });
});

describe('requirements: facts users ask about', () => {
  it('TF 2.3 on Windows loads cudart64_101.dll and cudnn64_7.dll from CUDA 10.1.243 and cuDNN 7.6.5', () => {
    const r = requirementsFor(catalog, '2.3', 'windows');
    expect(files(r)).toEqual(expect.arrayContaining(['cudart64_101.dll', 'cublas64_10.dll', 'cusolver64_10.dll', 'cudnn64_7.dll', 'nvcuda.dll']));
    expect(r.cudaInstaller).toMatchObject({ version: '10.1.243', file: 'cuda_10.1.243_426.00_win10.exe' });
    expect(r.cudnnArchive).toMatchObject({ version: '7.6.5.32', cuda: '10.1', file: 'cudnn-10.1-windows10-x64-v7.6.5.32.zip', gated: true, access: 'login', pick: 'tested' });
    expect(r.driverMin).toBe('418.96');
    expect(requirementsFor(catalog, '2.3', 'linux').driverMin).toBe('418.39');
  });

  it("TF 2.4 wants CUDA 11.0's cusolver64_10.dll, while an 11.2 toolkit brings cusolver64_11.dll", () => {
    const r24 = requirementsFor(catalog, '2.4', 'windows');
    expect(files(r24)).toEqual(expect.arrayContaining(['cudart64_110.dll', 'cusolver64_10.dll', 'cublasLt64_11.dll', 'cudnn64_8.dll']));
    expect(files(r24)).not.toContain('cusolver64_11.dll');
    expect(r24.cudaInstaller!.version).toBe('11.0.3');
    expect(r24.cudnnArchive).toMatchObject({ version: '8.0.4.30', cuda: '11.0', file: 'cudnn-11.0-windows-x64-v8.0.4.30.zip', access: 'public' });
    expect(files(requirementsFor(catalog, '2.5', 'windows'))).toContain('cusolver64_11.dll');
  });

  it('TF 2.10 on Windows: cudart64_110.dll and cudnn64_8.dll, a cuda_11.2.x installer, the public (checksummed) cuDNN 8.1.0 zip it was tested with', () => {
    const r = requirementsFor(catalog, '2.10', 'windows');
    expect(r.python).toMatchObject({ min: '3.7', max: '3.10' });
    expect(files(r)).toEqual(expect.arrayContaining(['cudart64_110.dll', 'cudnn64_8.dll']));
    expect(r.cudaInstaller!.file).toMatch(/^cuda_11\.2\.\d+_[\d.]+_win10\.exe$/);
    expect(r.cudnnArchive).toMatchObject({ version: '8.1.0.77', gated: false, access: 'public', pick: 'tested', file: 'cudnn-11.2-windows-x64-v8.1.0.77.zip' });
    expect(r.driverMin).toBe('452.39');
    expect(r.driverFull).toBe('461.33');
  });

  it('TF 2.10.1 takes the 2.10.0 row and pins the asked version', () => {
    const r = requirementsFor(catalog, '2.10.1', 'windows');
    expect(r).toMatchObject({ row: '2.10.0', pip: 'tensorflow==2.10.1' });
    expect(r.notes[0]).toContain('takes the 2.10.0 row');
  });

  it('TF 2.18 on Linux: libcudart.so.12 and libcudnn.so.9 with cuDNN 9.3.0.75 from the public redist, tensorflow[and-cuda]', () => {
    const r = requirementsFor(catalog, '2.18', 'linux');
    expect(files(r)).toEqual(expect.arrayContaining(['libcudart.so.12', 'libcublas.so.12', 'libcublasLt.so.12', 'libcufft.so.11', 'libcudnn.so.9']));
    expect(r.andCuda).toBe(true);
    expect(r.cudaInstaller!.version).toBe('12.5.1');
    expect(r.cudnnArchive).toMatchObject({ version: '9.3.0.75', gated: false, sha256: '3d6ef10aa06dc9339a477e2b057e085ff8500bbdee79e42c7e13655c9eff2c26', manifestUrl: 'https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.3.0.json' });
    expect(r.driverMin).toBe('525.60.13');
    expect(r.computeCapabilityMin).toBe('5.0');
    expect(cudnnPartFiles(catalog, 'linux', r.cudnn!)).toContain('libcudnn_graph.so.9');
    expect(cudnnPartFiles(catalog, 'windows', '8.1')).toContain('cudnn_ops_infer64_8.dll');
  });

  it('picks the tested cuDNN minor where the catalog has it: 2.14 → 8.7.0.84 ([and-cuda] pins it), 2.15 → 8.9.7.29', () => {
    expect(requirementsFor(catalog, '2.14', 'linux').cudnnArchive).toMatchObject({ version: '8.7.0.84', cuda: '11', pick: 'tested', access: 'public' });
    expect(requirementsFor(catalog, '2.12', 'linux').cudnnArchive).toMatchObject({ version: '8.6.0.163', cuda: '11' });
    expect(requirementsFor(catalog, '2.15', 'linux').cudnnArchive).toMatchObject({ version: '8.9.7.29', cuda: '12' });
    expect(requirementsFor(catalog, '2.4', 'linux').cudnnArchive).toMatchObject({ version: '8.0.5.39', cuda: '11.0', access: 'public' });
    expect(requirementsFor(catalog, '1.13.1', 'linux').cudnnArchive).toMatchObject({ version: '7.6.5.32', cuda: '10.0' });
    expect(requirementsFor(catalog, '1.12', 'windows').cudnnArchive).toMatchObject({ version: '7.6.5.32', cuda: '9.0' });
  });

  it('TF 1.x keeps the tensorflow-gpu name through 1.15, with Python 3.3–3.7 beside 2.7', () => {
    const r = requirementsFor(catalog, '1.15', 'linux');
    expect(r.pip).toBe('tensorflow-gpu==1.15.0');
    expect(r.python).toEqual({ min: '3.3', max: '3.7', listed: ['2.7', '3.3-3.7'] });
    expect(files(r)).toEqual(expect.arrayContaining(['libcudart.so.10.0', 'libcublas.so.10.0', 'libcudnn.so.7']));
    expect(requirementsFor(catalog, '1.12', 'windows').libraries.map((l) => l.file)).toEqual(expect.arrayContaining(['cudart64_90.dll', 'cudnn64_7.dll']));
    expect(requirementsFor(catalog, '2.0', 'windows').pip).toBe('tensorflow==2.0.0');
  });

  it('refuses a version no table has, naming the nearest ones', () => {
    let err: unknown;
    try {
      requirementsFor(catalog, '2.99', 'linux');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CudawizError);
    expect((err as CudawizError).exitCode).toBe(2);
    expect((err as CudawizError).message).toMatch(/Nearest known: 2\.21\.0/);
  });

  it('prints the Windows answer for TF 2.15 as JSON with exit 0: no GPU, WSL2 first', async () => {
    const res = await runCli(['requirements', '--tf', '2.15', '--os', 'windows', '--json']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(doc).toMatchObject({ tensorflow: '2.15', gpuSupported: false, alternatives: [expect.objectContaining({ id: 'wsl2' }), expect.anything(), expect.anything()] });
  });

  it('prints the Linux answer for TF 1.4 (CUDA 8) in words, saying what the catalog lacks', async () => {
    const res = await runCli(['requirements', '--tf', '1.4', '--os', 'linux']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('libcudart.so.8.0');
    expect(res.stdout).toContain('no linux installer for CUDA 8.0');
  });
});
