// GPU name → compute capability, for drivers whose nvidia-smi has no compute_cap field. Every product in
// assets/gpus.json comes from NVIDIA's CUDA GPUs list (its source says how); here each maps to its own row,
// the names nvidia-smi really prints map like the catalog's, and lookalikes never borrow a neighbour's.
import { describe, expect, it } from 'vitest';
import { computeCapabilityFromName, normalizeGpuName } from '../../src/catalog/gpu-support.js';
import { builtinCatalog } from '../../src/catalog/load.js';

const catalog = builtinCatalog();
const rows = catalog.gpus.computeCapabilityByName;
const cc = (name: string) => computeCapabilityFromName(catalog, name)?.computeCapability;

describe('the name table', () => {
  it('holds at least 150 products from NVIDIA\'s list, every one sourced, and each name maps to its own row', () => {
    const all = rows.flatMap((r) => r.names.map((n) => ({ n, r })));
    expect(all.length).toBeGreaterThanOrEqual(150);
    for (const { n, r } of all) {
      expect(catalog.gpus.sources[r.source], r.source).toBeDefined();
      expect(cc(n), n).toBe(r.computeCapability);
    }
  });

  it('never gives two products the same key with different capabilities', () => {
    const seen = new Map<string, string>();
    for (const r of rows) {
      for (const n of r.names) {
        const k = normalizeGpuName(n);
        if (seen.has(k)) expect(seen.get(k), `${n} (${k})`).toBe(r.computeCapability);
        seen.set(k, r.computeCapability);
      }
    }
  });

  it('covers every family: GeForce desktop and laptop, TITAN, Quadro/RTX workstation, NVS, Tesla/data-center', () => {
    const ccs = new Set(rows.map((r) => r.computeCapability));
    for (const c of ['2.0', '2.1', '3.0', '3.5', '3.7', '5.0', '5.2', '6.0', '6.1', '7.0', '7.5', '8.0', '8.6', '8.9', '9.0', '10.0', '10.3', '12.0', '12.1']) expect(ccs.has(c), c).toBe(true);
  });
});

describe('names as nvidia-smi prints them', () => {
  it.each([
    // desktop and laptop GeForce
    ['NVIDIA GeForce RTX 3060 Laptop GPU', '8.6'],
    ['NVIDIA GeForce RTX 4060 Laptop GPU', '8.9'],
    ['NVIDIA GeForce RTX 5070 Laptop GPU', '12.0'],
    ['NVIDIA GeForce RTX 2060 with Max-Q Design', '7.5'],
    ['NVIDIA GeForce GTX 1650 with Max-Q Design', '7.5'],
    ['NVIDIA GeForce GTX 1060 6GB', '6.1'],
    ['GeForce GTX 1050 Ti', '6.1'],
    ['NVIDIA GeForce RTX 3080 Ti Laptop GPU', '8.6'],
    ['NVIDIA GeForce RTX 4090', '8.9'],
    ['NVIDIA TITAN RTX', '7.5'],
    ['TITAN X (Pascal)', '6.1'],
    ['GeForce GTX TITAN X', '5.2'],
    ['NVIDIA TITAN V', '7.0'],
    // workstation, with their suffixes
    ['Quadro RTX 5000 with Max-Q Design', '7.5'],
    ['NVIDIA RTX A2000 12GB', '8.6'],
    ['NVIDIA RTX A5000 Laptop GPU', '8.6'],
    ['NVIDIA RTX 4000 SFF Ada Generation', '8.9'],
    ['NVIDIA RTX 5000 Ada Generation Laptop GPU', '8.9'],
    ['NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition', '12.0'],
    ['Quadro P1000', '6.1'],
    ['Quadro T2000', '7.5'],
    ['NVIDIA T1000 8GB', '7.5'],
    ['NVIDIA T1000', '7.5'],
    ['Quadro K2200', '5.0'],
    // data center, with memory and form factor in the name
    ['Tesla V100-SXM2-16GB', '7.0'],
    ['Tesla V100S-PCIE-32GB', '7.0'],
    ['Tesla P100-PCIE-16GB', '6.0'],
    ['NVIDIA A100-SXM4-80GB', '8.0'],
    ['NVIDIA A100 80GB PCIe', '8.0'],
    ['NVIDIA H100 80GB HBM3', '9.0'],
    ['NVIDIA H100 NVL', '9.0'],
    ['NVIDIA GH200 480GB', '9.0'],
    ['NVIDIA B300 SXM6 AC', '10.3'],
    ['Tesla K40c', '3.5'],
    ['Tesla K20Xm', '3.5'],
    ['Tesla M40 24GB', '5.2'],
  ])('%s → %s', (name, want) => {
    expect(cc(name)).toBe(want);
  });
});

describe('no mislabels', () => {
  it('gives laptop parts whose names look like an older family their own capability', () => {
    expect(cc('NVIDIA GeForce RTX 2050')).toBe('8.6'); // GA107, not Turing
    expect(cc('NVIDIA GeForce MX570')).toBe('8.6');
    expect(cc('NVIDIA GeForce MX550')).toBe('7.5');
    expect(cc('NVIDIA GeForce MX450')).toBe('7.5');
    expect(cc('NVIDIA GeForce MX350')).toBe('6.1');
    expect(cc('GeForce MX130')).toBe('5.0'); // GM108; NVIDIA's list says 6.1 — the chip decides (sources disagree)
    expect(cc('GeForce 940MX')).toBe('5.0');
    expect(cc('GeForce GTX 960M')).toBe('5.0');
    expect(cc('GeForce GTX 965M')).toBe('5.2');
    expect(cc('GeForce GTX 980M')).toBe('5.2');
    expect(cc('GeForce GTX 880M')).toBe('3.0');
  });

  it('keeps workstation generations apart: Quadro RTX 5000 (Turing), RTX 5000 Ada, RTX PRO 5000 Blackwell', () => {
    expect(cc('Quadro RTX 5000')).toBe('7.5');
    expect(cc('NVIDIA RTX 5000 Ada Generation')).toBe('8.9');
    expect(cc('NVIDIA RTX PRO 5000 Blackwell')).toBe('12.0');
    expect(cc('NVIDIA RTX A5000')).toBe('8.6');
  });

  it('says nothing for a name it does not hold, rather than the nearest family (the family is gpuFromName\'s, said as such: gpu-families.test.ts)', () => {
    for (const n of ['NVIDIA GeForce RTX 3090 Super', 'NVIDIA RTX PRO 1000 Blackwell Generation Laptop GPU', 'Matrox G200eR2', 'AMD Radeon RX 7900 XTX', 'GeForce GT 640']) {
      expect(cc(n), n).toBeUndefined();
    }
  });
});
