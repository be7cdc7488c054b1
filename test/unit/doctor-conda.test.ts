// The doctor inside an active conda env: conda's cudatoolkit and cudnn packages carry their own CUDA
// runtime and cuDNN, TensorFlow there loads them first, and the driver must run *that* CUDA. Each story
// is a real temp tree laid out as conda lays out an env (conda-meta records as conda writes them).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine, resolveLibrary } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { CONDA_ENV, condaOnOldDriver, condaRecord, windowsConda } from '../fixtures/conda-env.js';
import { fixtureMachine } from '../fixtures/machine.js';

const byId = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.id, f]));
const catalog = builtinCatalog();

const ENV = CONDA_ENV;

describe('a conda env as a library source', () => {
  it('reads which CUDA and cuDNN the env carries from conda-meta, and puts its lib folder on the search path before the ld cache', async () => {
    const m = await condaOnOldDriver();
    const facts = await probeMachine(m.host, { catalog });
    expect(facts.conda).toMatchObject({
      prefix: ENV,
      name: 'tf',
      libDir: `${ENV}/lib`,
      cuda: { version: '10.1.243', majorMinor: '10.1', package: 'cudatoolkit' },
      cudnn: { version: '7.6.5', package: 'cudnn' },
    });
    expect(facts.conda!.packages.map((p) => p.name).sort()).toEqual(['cudatoolkit', 'cudnn']); // python's record is not CUDA's
    expect(facts.search.dirs.map((d) => d.via).indexOf('conda env')).toBeLessThan(facts.search.dirs.map((d) => d.via).indexOf('ld cache'));
    expect(resolveLibrary(facts.search, 'libcudnn.so.7').winner).toEqual({ dir: `${ENV}/lib`, via: 'conda env' });
    // No cudnn.h in the env: the version comes from its conda-meta record.
    expect(facts.cudnn.find((c) => c.path === `${ENV}/lib`)).toMatchObject({ version: '7.6.5', header: 'conda-meta (cudnn 7.6.5)' });
  });

  it('driver 410.72 runs the system CUDA 10.0 but not the env\'s 10.1: says so, and which cudatoolkit this driver runs', async () => {
    const m = await condaOnOldDriver();
    const r = await runCli(['doctor', '--tf', '2.1', '--json'], { host: m.host });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.conda).toMatchObject({ prefix: ENV, name: 'tf', cuda: '10.1.243', cudnn: '7.6.5', libDir: `${ENV}/lib` });
    const f = byId(doc.findings);
    expect(f.conda).toMatchObject({ status: 'pass', title: `Conda env tf (${ENV}) carries CUDA 10.1.243 (cudatoolkit) and cuDNN 7.6.5 (cudnn); TensorFlow in it loads these first` });
    expect(f.conda.evidence).toContain('system toolkit: CUDA 10.0.130 at /usr/local/cuda-10.0');
    expect(f['conda-driver']).toMatchObject({ status: 'fail', title: "NVIDIA driver 410.72 is too old for the conda env's CUDA 10.1 (needs 418.39 or newer)" });
    expect(f['conda-driver'].evidence).toContain("the system's CUDA 10.0.130 at /usr/local/cuda-10.0 runs on this driver, but the env's copy comes first");
    expect(f['conda-driver'].fix).toMatch(/^Update the NVIDIA driver to 418\.39 or newer .*; or give the env a CUDA this driver runs: conda install cudatoolkit=10\.0$/);
    // TF 2.1 wants CUDA 10.1: the env provides it, so no system toolkit is missing.
    expect(f.toolkit).toMatchObject({ status: 'pass', title: 'CUDA 10.1 comes from the conda env tf (cudatoolkit 10.1.243); no toolkit needed' });
    expect(f.cudnn).toMatchObject({ status: 'pass', title: 'cuDNN 7.6.5 in the conda env tf (needs 7.6)' });
    expect(f['library:cudart']).toMatchObject({ status: 'pass', title: `libcudart.so.10.1 → ${ENV}/lib` });
    // Same file name in both places: the env's libcudnn.so.7 comes before the system's 7.4.2.
    expect(f['conda-shadows']).toMatchObject({ status: 'warn', title: `The conda env's libcudnn.so.7 come first (${ENV}/lib), before the copies in /usr/local/cuda-10.0/lib64` });
    expect(f['conda-shadows'].fix).toContain('conda remove cudatoolkit cudnn');
    expect(r.stdout).not.toContain('nowhere');
  });

  it('TF 1.15 wants the system\'s CUDA 10.0, but the env\'s libraries come first: the library findings name conda\'s copy', async () => {
    const m = await condaOnOldDriver();
    const f = byId(diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '1.15' }));
    // TF 1.15 loads libcudart.so.10.0 (only the system has it) and libcudnn.so.7, which the env's 7.6.5 answers first.
    expect(f['library:cudart']).toMatchObject({ status: 'pass', title: 'libcudart.so.10.0 → /usr/local/cuda-10.0/lib64' });
    expect(f['library:cudnn'].evidence[0]).toBe(`wins: ${ENV}/lib (conda env)`);
    expect(f['conda-driver'].status).toBe('fail');
  });

  it('a newer driver runs the env\'s CUDA: the conda-driver finding passes', async () => {
    const m = await condaOnOldDriver();
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'two-gpus');
    const f = byId(diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.1' }));
    expect(f['conda-driver'].status).toBe('pass');
    expect(f['conda-driver'].title).toMatch(/^NVIDIA driver [\d.]+ runs the conda env's CUDA 10\.1 \(needs 418\.39\)$/);
  });

  it('Windows: %CONDA_PREFIX%\\Library\\bin comes before System32 and PATH, and its cudart64_101.dll wins', async () => {
    const prefix = 'C:\\Users\\me\\miniconda3\\envs\\tf';
    const m = await windowsConda();
    const facts = await probeMachine(m.host, { catalog });
    expect(facts.conda).toMatchObject({ libDir: `${prefix}\\Library\\bin`, cuda: { majorMinor: '10.1' }, cudnn: { version: '7.6.5' } });
    expect(facts.conda!.libraries).toEqual(['cublas64_10.dll', 'cudart64_101.dll', 'cudnn64_7.dll']);
    expect(facts.search.dirs[0]).toMatchObject({ dir: `${prefix}\\Library\\bin`, via: 'conda env' });
    expect(resolveLibrary(facts.search, 'cudart64_101.dll').winner?.via).toBe('conda env');
  });

  it('a CONDA_PREFIX without conda-meta is reported as unreadable, not a crash', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin', CONDA_PREFIX: '/opt/gone' });
    const r = await runCli(['doctor', '--json'], { host: m.host });
    const f = byId(JSON.parse(r.stdout).findings);
    expect(f.conda).toMatchObject({ status: 'warn', title: 'Could not read the conda env /opt/gone: its conda-meta folder', evidence: ['/opt/gone/conda-meta: ENOENT'] });
  });

  it('outside conda nothing changes: no conda key, no conda finding', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const doc = JSON.parse((await runCli(['doctor', '--json'], { host: m.host })).stdout);
    expect(doc.conda).toBeUndefined();
    expect(doc.findings.filter((f: Finding) => f.id.startsWith('conda'))).toEqual([]);
  });
});
