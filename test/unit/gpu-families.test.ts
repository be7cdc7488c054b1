// A GPU the name table does not hold gets its architecture from its family, and the verdict says it rests
// on the family (issue 26, part 7); the names the table lacked are filled in, each with its source.
import { describe, expect, it } from 'vitest';
import { computeCapabilityFromName, gpuFromName, gpuSupport, normalizeGpuName } from '../../src/catalog/gpu-support.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { setLang } from '../../src/i18n/localized.js';
import { runCli } from '../helpers/cli.js';

const catalog = builtinCatalog();

describe('the names the table lacked', () => {
  it.each([
    ['NVIDIA A10G', '8.6', 'nvidia-smi-compute-cap'],
    ['NVIDIA GeForce GTX 1650 Ti', '7.5', 'cuda-gpus-table'],
    ['NVIDIA GeForce GTX 1650 Ti with Max-Q Design', '7.5', 'cuda-gpus-table'],
    ['Quadro RTX 3000', '7.5', 'cuda-gpus-table'],
    ['Quadro RTX 3000 with Max-Q Design', '7.5', 'cuda-gpus-table'],
    ['NVIDIA RTX A500 Laptop GPU', '8.6', 'cuda-gpus-table'],
    ['NVIDIA RTX A1000 6GB Laptop GPU', '8.6', 'cuda-gpus-table'],
    ['NVIDIA RTX 500 Ada Generation Laptop GPU', '8.9', 'cuda-gpus-table'],
    ['NVIDIA RTX 1000 Ada Generation', '8.9', 'cuda-gpus-table'],
    ['NVIDIA RTX 2000 Ada Generation Laptop GPU', '8.9', 'cuda-gpus-table'],
    ['NVIDIA H800', '9.0', 'nvidia-smi-compute-cap'],
    ['NVIDIA H800 PCIe', '9.0', 'nvidia-smi-compute-cap'],
    ['NVIDIA A800 80GB PCIe', '8.0', 'nvidia-smi-compute-cap'],
    ['NVIDIA A800-SXM4-80GB', '8.0', 'nvidia-smi-compute-cap'],
    ['NVIDIA GeForce RTX 4090 D', '8.9', 'nvidia-smi-compute-cap'],
  ])('%s → %s, by name (%s)', (name, cc, source) => {
    expect(gpuFromName(catalog, name)).toMatchObject({ computeCapability: cc, basis: 'name' });
    const row = catalog.gpus.computeCapabilityByName.find((r) => r.names.some((n) => normalizeGpuName(n) === normalizeGpuName(name)))!;
    expect(row.source).toBe(source);
    expect(catalog.gpus.sources[source]).toBeTruthy();
  });
});

describe('a name in no row: its family, said as such', () => {
  it.each([
    ['NVIDIA GeForce RTX 5090 D', '12.0', 'GeForce RTX 50 series'],
    ['NVIDIA GeForce RTX 3050 OEM', '8.6', 'GeForce RTX 30 series'],
    ['NVIDIA GeForce GTX 1630', '7.5', 'GeForce GTX 16 series'],
    ['NVIDIA RTX PRO 1000 Blackwell Generation Laptop GPU', '12.0', 'NVIDIA RTX PRO Blackwell GPUs'],
    ['NVIDIA RTX A4500 Embedded GPU', '8.6', 'NVIDIA RTX A workstation and laptop GPUs'],
    ['NVIDIA T550 Laptop GPU', '7.5', 'NVIDIA T-series and Quadro T workstation and laptop GPUs'],
    ['Quadro P620', '6.1', 'Quadro P-series (Pascal; the GP100 is its own)'],
    ['NVIDIA H20', '9.0', 'data-centre H (Hopper)'],
  ])('%s → %s (%s)', (name, cc, family) => {
    expect(computeCapabilityFromName(catalog, name)).toBeUndefined();
    expect(gpuFromName(catalog, name)).toMatchObject({ computeCapability: cc, basis: 'family', family });
  });

  it('no family where its members differ, and nothing for other vendors', () => {
    for (const n of ['NVIDIA GeForce MX999', 'GeForce GT 640', 'NVIDIA GeForce GTX 990M', 'Tesla K99', 'AMD Radeon RX 7900 XTX', 'Matrox G200eR2', 'NVIDIA GeForce RTX 2040']) {
      expect(gpuFromName(catalog, n), n).toBeUndefined();
    }
  });

  it('every product the table names agrees with its family: the RTX 2050 (Ampere) and the GP100 are outside theirs', () => {
    const families = catalog.gpus.gpuFamilies!;
    expect(families.length).toBeGreaterThanOrEqual(15);
    let covered = 0;
    for (const row of catalog.gpus.computeCapabilityByName) {
      for (const n of row.names) {
        const key = normalizeGpuName(n);
        for (const f of families.filter((x) => new RegExp(x.pattern).test(key))) {
          covered++;
          expect(f.computeCapability, `${n} in ${f.family}`).toBe(row.computeCapability);
        }
      }
    }
    expect(covered).toBeGreaterThan(80);
    for (const f of families) expect(catalog.gpus.sources[f.source], f.family).toBeTruthy();
  });
});

describe('names with a letter right after the model number (issue 40, item 7)', () => {
  // Real names as nvidia-smi --query-gpu=name prints them (sources: driver-gpu-names, jetson-orin).
  it.each([
    ['NVIDIA GeForce RTX 4090D', '8.9', 'name', undefined],
    ['NVIDIA RTX A4000H', '8.6', 'family', 'NVIDIA RTX A workstation and laptop GPUs'],
    ['NVIDIA RTX 2000E Ada Generation', '8.9', 'family', 'NVIDIA RTX Ada Generation workstation and laptop GPUs'],
    ['Orin (nvgpu)', '8.7', 'family', 'NVIDIA Jetson Orin (integrated Ampere)'],
    ['NVIDIA Tegra Orin (nvgpu)', '8.7', 'family', 'NVIDIA Jetson Orin (integrated Ampere)'],
  ])('%s → %s (%s)', (name, cc, basis, family) => {
    expect(gpuFromName(catalog, name)).toMatchObject({ computeCapability: cc, basis, ...(family ? { family } : {}) });
  });

  it('the glued letter is split the same way in the table, so the names it already held keep their rows', () => {
    expect(normalizeGpuName('NVIDIA GeForce RTX 4090D')).toBe(normalizeGpuName('NVIDIA GeForce RTX 4090 D'));
    expect(normalizeGpuName('NVIDIA RTX A4000H')).toBe('rtx a4000 h');
    for (const [n, cc] of [['Tesla V100S-PCIE-32GB', '7.0'], ['NVIDIA L40S', '8.9'], ['NVIDIA A10G', '8.6'], ['Quadro K2100M', '3.0'], ['NVIDIA GeForce MX450', '7.5'], ['GeForce 940MX', '5.0']] as const) {
      expect(gpuFromName(catalog, n), n).toMatchObject({ computeCapability: cc, basis: 'name' });
    }
    // A mobile part of a family whose members differ stays unknown.
    expect(gpuFromName(catalog, 'NVIDIA GeForce GTX 990M')).toBeUndefined();
    expect(gpuFromName(catalog, 'NVIDIA GeForce MX570 A')).toBeUndefined();
  });

  it('requirements --gpu "NVIDIA GeForce RTX 4090D" names the GPU instead of refusing it', async () => {
    const json = JSON.parse((await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--gpu', 'NVIDIA GeForce RTX 4090D', '--json'])).stdout);
    expect(json.gpu).toMatchObject({ computeCapability: '8.9', basis: 'name', verdict: 'native' });
  });
});

describe('the verdict says it rests on the family', () => {
  it('gpuSupport adds the family to its reason, in both languages; a named GPU has no such words', () => {
    const gpu = gpuFromName(catalog, 'NVIDIA GeForce RTX 5090 D')!;
    const v = gpuSupport(catalog, gpu, { tf: '2.20', os: 'linux' });
    expect(v.reason).toMatch(/\. Compute capability 12\.0 rests on the GPU's family, GeForce RTX 50 series: the catalog does not name this product itself\.$/);
    const named = gpuSupport(catalog, gpuFromName(catalog, 'NVIDIA GeForce RTX 5090')!, { tf: '2.20', os: 'linux' });
    expect(named.reason).not.toContain('family');
    expect(v.reason.startsWith(named.reason.replace(/\.$/, ''))).toBe(true);
    expect({ ...v, reason: named.reason }).toEqual(named); // the verdict itself is the same
    setLang('zh');
    try {
      expect(gpuSupport(catalog, gpu, { tf: '2.20', os: 'linux' }).reason).toContain('是按这块 GPU 所属的系列 GeForce RTX 50 series 推断的');
    } finally {
      setLang('en');
    }
  });

  it('requirements --gpu takes a family name, says so, and --json carries the basis', async () => {
    const text = await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--gpu', 'NVIDIA GeForce RTX 3050 OEM']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("rests on the GPU's family, GeForce RTX 30 series");
    const json = JSON.parse((await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--gpu', 'NVIDIA GeForce RTX 3050 OEM', '--json'])).stdout);
    expect(json.gpu).toMatchObject({ computeCapability: '8.6', basis: 'family', family: 'GeForce RTX 30 series', verdict: 'native' });
    const unknown = await runCli(['requirements', '--tf', '2.16', '--gpu', 'AMD Radeon RX 7900 XTX']);
    expect(unknown.code).toBe(2);
  });
});
