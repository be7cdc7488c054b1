import { describe, expect, it } from 'vitest';
import { computeCapabilityFromName, cudaMaxComputeCapability, gpuSupport, newestNativeTf, tensorflowBuildFor } from '../../src/catalog/gpu-support.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { compareDotted } from '../../src/version.js';

const catalog = builtinCatalog();
const gpus = catalog.gpus;

describe('the GPU facts in assets/gpus.json', () => {
  it('name a source for every row, and every name in the table maps back to its own row', () => {
    const named = (source: string) => Object.keys(gpus.sources).some((k) => source.includes(k));
    for (const row of [...(gpus.cudaSass ?? []), ...(gpus.tensorflowBuilds ?? []), ...gpus.computeCapabilityByName, ...(gpus.knownFailures ?? [])]) expect(named(row.source), row.source).toBe(true);
    for (const row of gpus.computeCapabilityByName) {
      for (const name of row.names) expect(computeCapabilityFromName(catalog, name), name).toEqual({ computeCapability: row.computeCapability, architecture: row.architecture });
    }
  });

  it('keep CUDA and TF ranges ordered, without gaps or overlaps', () => {
    for (const rows of [gpus.cudaSass ?? [], gpus.tensorflowBuilds ?? []]) {
      for (let i = 0; i < rows.length; i++) {
        expect(compareDotted(rows[i].from, rows[i].to)).toBeLessThanOrEqual(0);
        if (i > 0) expect(compareDotted(rows[i - 1].to, rows[i].from)).toBeLessThan(0);
      }
    }
    // A newer CUDA never compiles for fewer GPUs.
    const max = (gpus.cudaSass ?? []).map((r) => r.maxComputeCapability);
    expect([...max].sort(compareDotted)).toEqual(max);
  });

  it('answer the spot checks: CUDA 10.1 → 7.5, 11.0 → 8.0, 11.2 → 8.6, 11.8 → 9.0, 12.5 → 9.0, 12.8 → 12.0', () => {
    expect(['10.1', '11.0', '11.2', '11.8', '12.5', '12.8'].map((v) => cudaMaxComputeCapability(catalog, v))).toEqual(['7.5', '8.0', '8.6', '9.0', '9.0', '12.0']);
    expect(tensorflowBuildFor(catalog, '2.3.1')).toMatchObject({ sass: ['3.5', '3.7', '5.2', '6.0', '6.1', '7.0'], ptx: ['7.0'], verified: true });
  });
});

describe('computeCapabilityFromName', () => {
  it.each([
    ['NVIDIA GeForce RTX 2060', '7.5'],
    ['NVIDIA GeForce RTX 2060 with Max-Q Design', '7.5'],
    ['GeForce GTX 970', '5.2'],
    ['GeForce GTX 960M', '5.0'],
    ['NVIDIA RTX A4000', '8.6'],
    ['Quadro RTX 5000', '7.5'],
    ['NVIDIA RTX 4000 Ada Generation', '8.9'],
    ['Tesla K80', '3.7'],
    ['Tesla P100-PCIE-16GB', '6.0'],
    ['Tesla T4', '7.5'],
    ['NVIDIA A100-SXM4-80GB', '8.0'],
    ['NVIDIA H100 PCIe', '9.0'],
    ['NVIDIA H200', '9.0'],
    ['NVIDIA L40', '8.9'],
    ['NVIDIA B200', '10.0'],
    ['NVIDIA GeForce RTX 5090', '12.0'],
  ])('%s → %s', (name, cc) => {
    expect(computeCapabilityFromName(catalog, name)?.computeCapability).toBe(cc);
  });

  it('says nothing for a name it does not know', () => {
    expect(computeCapabilityFromName(catalog, 'Matrox G200eR2')).toBeUndefined();
  });
});

describe('gpuSupport', () => {
  it('a GTX 970 (5.2) cannot run TF 2.18: its wheels start at 6.0 and carry PTX only for 9.0', () => {
    const r = gpuSupport(catalog, { computeCapability: '5.2' }, { tf: '2.18' });
    expect(r.verdict).toBe('unsupported');
    expect(r.reason).toContain('oldest machine code is for 6.0');
    expect(r.suggestion).toMatch(/^TensorFlow 2\.1[67] has machine code for compute capability 5\.2/);
  });

  it("the seed's laptop RTX 2060 (7.5) runs TF 2.3 natively: TF 2.3's compute_70 is sm_70 machine code too, which runs on 7.5", () => {
    const r = gpuSupport(catalog, { computeCapability: computeCapabilityFromName(catalog, 'NVIDIA GeForce RTX 2060')!.computeCapability }, { tf: '2.3' });
    expect(r).toMatchObject({ verdict: 'native', verified: true });
    expect(r.suggestion).toBeUndefined();
  });

  it('an RTX 4090 (8.9) on TF 2.3 / CUDA 10.1 starts only after JIT-compiling 7.0 PTX, and CUDA 10.1 predates it', () => {
    const r = gpuSupport(catalog, { computeCapability: '8.9' }, { tf: '2.3' });
    expect(r.verdict).toBe('ptx-jit');
    expect(r.reason).toContain('compute 7.0 PTX');
    expect(r.reason).toContain('CUDA 10.1 predates this GPU (it compiles for up to 7.5)');
    expect(r.suggestion).toMatch(/^TensorFlow 2\.21 has machine code/);
  });

  it('on native Windows the suggestion stops at the last TF with Windows GPU support', () => {
    const r = gpuSupport(catalog, { computeCapability: '7.5' }, { tf: '2.3', os: 'windows' });
    expect(r.verdict).toBe('native');
    const ada = gpuSupport(catalog, { computeCapability: '8.9' }, { tf: '2.3', os: 'windows' });
    // sm_80 machine code runs on every 8.x, so TF 2.10 — the last native-Windows GPU line — suits Ada; 2.21 would need WSL2.
    expect(ada.suggestion).toMatch(/^TensorFlow 2\.10 has machine code for compute capability 8\.9/);
  });

  it('an RTX 5090 (12.0) on TF 2.21 does not run: the JIT of its compute 9.0 PTX fails (CUDA_ERROR_INVALID_PTX in TF issues)', () => {
    const r = gpuSupport(catalog, { computeCapability: '12.0' }, { tf: '2.21', cuda: '12.5' });
    expect(r).toMatchObject({ verdict: 'unsupported', verified: true });
    expect(r.reason).toContain('CUDA_ERROR_INVALID_PTX');
    expect(r.suggestion).toMatch(/NGC TensorFlow container.*CUDA 12\.8/);
    // Before the reports (TF 2.15, CUDA 12.2) the verdict stays the slow JIT start, with its caveat.
    const old = gpuSupport(catalog, { computeCapability: '12.0' }, { tf: '2.15', cuda: '12.2' });
    expect(old.verdict).toBe('ptx-jit');
    expect(old.reason).toContain('CUDA 12.2 predates this GPU');
  });

  it('a GTX 960M (5.0) cannot run TF 2.3: 5.2 machine code does not run on 5.0 (tensorflow#41132 shows the failure)', () => {
    const r = gpuSupport(catalog, { computeCapability: computeCapabilityFromName(catalog, 'GeForce GTX 960M')!.computeCapability }, { tf: '2.3' });
    expect(r.verdict).toBe('unsupported');
    expect(r.reason).toContain('no machine code for the 5.x architectures');
  });

  it('an A100 (8.0) on TF 2.18 is native; an RTX 3090 (8.6) on TF 2.4 runs its sm_80 code natively too', () => {
    expect(gpuSupport(catalog, { computeCapability: '8.0' }, { tf: '2.18' }).verdict).toBe('native');
    expect(gpuSupport(catalog, { computeCapability: '8.6' }, { tf: '2.4' }).verdict).toBe('native');
  });

  it("suggests only a line whose CUDA still supports the GPU: a K80's sm_35 code is in TF 2.15's wheels, but CUDA 12.2 dropped Kepler", () => {
    expect(newestNativeTf(catalog, '3.7', 'linux')?.tf).toBe('2.14');
    expect(newestNativeTf(catalog, '3.0', 'linux')).toBeUndefined();
  });

  it('a GPU older than its CUDA line is unsupported whatever TF ships (a Fermi GTX 480 on CUDA 10.1)', () => {
    const r = gpuSupport(catalog, { computeCapability: '2.0' }, { tf: '2.3' });
    expect(r.verdict).toBe('unsupported');
    expect(r.reason).toBe('CUDA 10.1 needs compute capability 3.0 or newer; this GPU is 2.0.');
  });

  it('says unknown for a TF line the catalog has no build facts for, or a malformed capability', () => {
    expect(gpuSupport(catalog, { computeCapability: '7.5' }, { tf: '1.0' }).verdict).toBe('unknown');
    expect(gpuSupport(catalog, { computeCapability: 'sm_75' }, { tf: '2.3' }).verdict).toBe('unknown');
  });

  it('marks a verdict from an inferred architecture list (only TF ≤ 2.2 is still inferred from the docs)', () => {
    const r = gpuSupport(catalog, { computeCapability: '6.1' }, { tf: '2.1' });
    expect(r).toMatchObject({ verdict: 'native', verified: false });
    expect(r.reason).toContain('inferred');
    expect(gpuSupport(catalog, { computeCapability: '8.6' }, { tf: '2.10' })).toMatchObject({ verdict: 'native', verified: true });
  });
});
