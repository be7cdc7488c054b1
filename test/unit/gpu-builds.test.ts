// Every tensorflowBuilds row of assets/gpus.json against one GPU per architecture: native (N), only after
// a first-start PTX JIT (J), or not at all (X) — at both ends of each row's TF range, on Linux. The
// expected strings restate the sourced lists (google/tsl .bazelrc history dates each change; TF issues
// show Blackwell failing on 2.16+), so a row edited without its source breaks here.
import { describe, expect, it } from 'vitest';
import { computeCapabilityFromName, gpuSupport, tensorflowBuildFor } from '../../src/catalog/gpu-support.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';

const catalog = builtinCatalog();

/** One product per architecture (and per minor where TF's lists differ), named as NVIDIA's list names it. */
const GPUS = ['GeForce GTX 680', 'Tesla K40', 'Tesla K80', 'GeForce GTX 750 Ti', 'GeForce GTX 970', 'Tesla P100', 'GeForce GTX 1080', 'Tesla V100', 'GeForce RTX 2060', 'NVIDIA A100', 'GeForce RTX 3090', 'GeForce RTX 4090', 'NVIDIA H100', 'NVIDIA B200', 'GeForce RTX 5090'];
const CCS = ['3.0', '3.5', '3.7', '5.0', '5.2', '6.0', '6.1', '7.0', '7.5', '8.0', '8.6', '8.9', '9.0', '10.0', '12.0'];

const EXPECTED: Record<string, string> = {
  '1.13–2.2': 'XNNJNNNNNJJJJJJ',
  '2.3–2.3': 'XNNXNNNNNJJJJJJ',
  '2.4–2.4': 'XNNNNNNNNNNNJJJ',
  '2.5–2.14': 'XNNNNNNNNNNNJJJ',
  '2.15–2.15': 'XXXNNNNNNNNNJJJ',
  '2.16–2.16': 'XXXNNNNNNNNNNJX',
  '2.17–2.21': 'XXXXXNNNNNNNNJX',
};
const LETTER = { native: 'N', 'ptx-jit': 'J', unsupported: 'X', unknown: '?' } as const;

describe('tensorflowBuilds, row by row', () => {
  it('the GPUs are who the name table says they are', () => {
    expect(GPUS.map((n) => computeCapabilityFromName(catalog, n)?.computeCapability)).toEqual(CCS);
  });

  it('every row is expected here, and only TF ≤ 2.2 is still unverified', () => {
    const rows = catalog.gpus.tensorflowBuilds ?? [];
    expect(rows.map((r) => `${r.from}–${r.to}`)).toEqual(Object.keys(EXPECTED));
    expect(rows.filter((r) => !r.verified).map((r) => r.from)).toEqual(['1.13']);
  });

  for (const [range, want] of Object.entries(EXPECTED)) {
    const [from, to] = range.split('–');
    for (const tf of [...new Set([from, to])]) {
      it(`TF ${tf} (row ${range}): ${want}`, () => {
        expect(tensorflowBuildFor(catalog, tf), tf).toBeDefined();
        const got = CCS.map((cc) => LETTER[gpuSupport(catalog, { computeCapability: cc }, { tf, os: 'linux' }).verdict]).join('');
        expect(got).toBe(want);
      });
    }
  }

  it('TF 2.3 on CUDA 10.1 does not run on compute capability 3.0, although CUDA 10.1 itself still supports 3.0', () => {
    const r = gpuSupport(catalog, { computeCapability: '3.0' }, { tf: '2.3', os: 'linux' });
    expect(r.verdict).toBe('unsupported');
    expect(r.reason).toContain('oldest machine code is for 3.5');
  });

  it('requirements gives TF\'s own minimum beside its CUDA\'s: 2.3 → 3.5 (CUDA 10.1: 3.0), 2.15 → 5.0, 2.18 → 6.0', () => {
    expect(requirementsFor(catalog, '2.3', 'linux')).toMatchObject({ computeCapabilityMin: '3.0', tensorflowComputeCapabilityMin: '3.5' });
    expect(requirementsFor(catalog, '2.15', 'linux')).toMatchObject({ computeCapabilityMin: '5.0', tensorflowComputeCapabilityMin: '5.0' });
    expect(requirementsFor(catalog, '2.18', 'linux')).toMatchObject({ computeCapabilityMin: '5.0', tensorflowComputeCapabilityMin: '6.0' });
  });

  it('a Maxwell GPU is told the newest line that still carries its machine code: TF 2.16 (sm_50 left on 2024-02-26)', () => {
    expect(gpuSupport(catalog, { computeCapability: '5.2' }, { tf: '2.17', os: 'linux' }).suggestion).toMatch(/^TensorFlow 2\.16 has machine code/);
  });
});
