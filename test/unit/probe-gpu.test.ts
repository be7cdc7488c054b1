import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { probeGpu, parseKernelModuleVersion, redactUuids } from '../../src/probe/gpu.js';
import { machineFs } from '../../src/probe/machine-fs.js';
import { fixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();

async function linuxWith(fixture: string | undefined, at = '/usr/bin/nvidia-smi') {
  const m = await fixtureMachine('linux', { PATH: '/usr/local/bin:/usr/bin:/bin' });
  if (fixture) await m.nvidiaSmi(at, fixture);
  return m;
}

describe('GPU and driver probe', () => {
  it('lists two different GPUs with their compute capability, as nvidia-smi reports them', async () => {
    const m = await linuxWith('two-gpus');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.state).toBe('ok');
    expect(facts.driver).toEqual({ version: '570.86.15', source: 'nvidia-smi' });
    expect(facts.gpus).toEqual([
      { index: 0, name: 'NVIDIA TITAN V', computeCapability: '7.0', computeCapabilitySource: 'nvidia-smi', memory: '12288 MiB' },
      { index: 1, name: 'NVIDIA RTX 5880 Ada Generation', computeCapability: '8.9', computeCapabilitySource: 'nvidia-smi', memory: '49140 MiB' },
    ]);
  });

  it('asks again without compute_cap when an R470 nvidia-smi rejects it, and takes the capability from the name table', async () => {
    const m = await linuxWith('r470-old-driver');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.state).toBe('ok');
    expect(facts.computeCapFieldMissing).toBe(true);
    expect(facts.driver.version).toBe('470.82.01');
    expect(facts.gpus[0]).toMatchObject({ name: 'NVIDIA GeForce RTX 2070', computeCapability: '7.5', computeCapabilitySource: 'name-table', memory: '8192 MiB' });
  });

  it('leaves the capability unknown when the name table does not know the GPU (three GTX 680 on driver 331)', async () => {
    const m = await linuxWith('gtx680-driver-331');
    const noTable = { ...catalog, gpus: { ...catalog.gpus, computeCapabilityByName: [] } };
    const facts = await probeGpu(m.host, machineFs('linux', m.root), noTable);
    expect(facts.gpus.map((g) => g.index)).toEqual([0, 1, 2]);
    expect(facts.gpus.every((g) => g.computeCapability === undefined)).toBe(true);
  });

  it("finds WSL2's nvidia-smi in /usr/lib/wsl/lib even when it is not on PATH", async () => {
    const m = await linuxWith('wsl2', '/usr/lib/wsl/lib/nvidia-smi');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.nvidiaSmi).toBe('/usr/lib/wsl/lib/nvidia-smi');
    expect(facts.gpus[0]).toMatchObject({ name: 'NVIDIA GeForce RTX 3060 Ti', computeCapability: '8.6' });
    expect(facts.driver.version).toBe('516.94');
  });

  it('says the driver cannot be reached, quoting nvidia-smi, when the driver is not loaded', async () => {
    const m = await linuxWith('no-driver');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.state).toBe('no-driver');
    expect(facts.evidence).toBe(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
    );
    expect(facts.gpus).toEqual([]);
  });

  it('reports garbage as "could not collect" with the first raw line as evidence, UUID removed', async () => {
    const m = await linuxWith('garbage');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.state).toBe('could-not-collect');
    expect(facts.evidence).toBe('GPU 0: NVIDIA GeForce RTX 2060 (UUID: GPU-<uuid>) ### output truncated');
    expect(JSON.stringify(facts)).not.toMatch(/d0b2b12b/);
  });

  it('without nvidia-smi, still reads the kernel module version from /proc/driver/nvidia/version', async () => {
    const m = await linuxWith(undefined);
    await m.file('/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Wed Oct 27 03:53:31 UTC 2021\nGCC version:  gcc version 9.3.0\n');
    const facts = await probeGpu(m.host, machineFs('linux', m.root), catalog);
    expect(facts.state).toBe('no-nvidia-smi');
    expect(facts.driver).toEqual({ version: '470.82.01', source: 'kernel module' });
  });

  it('on Windows, falls back to the old NVSMI folder when nvidia-smi.exe is neither on PATH nor in System32', async () => {
    const m = await fixtureMachine('windows', { PATH: 'C:\\Windows', SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files' });
    await m.nvidiaSmi('C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe', 'rtx2060-laptop');
    const facts = await probeGpu(m.host, machineFs('windows', m.root), catalog);
    expect(facts.nvidiaSmi).toBe('C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe');
    expect(facts.gpus[0]).toMatchObject({ name: 'NVIDIA GeForce RTX 2060', computeCapability: '7.5', memory: '6144 MiB' });
  });

  it('parses the kernel module line and redacts UUIDs anywhere in a text', () => {
    expect(parseKernelModuleVersion('NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build')).toBe('580.95.05');
    expect(redactUuids('a GPU-631d8576-d68e-40c9-f6a5-64074d5903e3 b')).toBe('a GPU-<uuid> b');
  });
});
