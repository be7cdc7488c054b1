// The doctor's compute-capability finding on fixture machines: nvidia-smi answers for one GPU of each
// architecture, the real probe reads it, and the verdict for each TF era is native → pass,
// PTX JIT → warn (with the cache tip), unsupported → fail (with the newest TF that runs natively).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine } from '../../src/probe/index.js';
import type { MachineFacts } from '../../src/probe/types.js';
import { runCli } from '../helpers/cli.js';
import { GPUS, TF_ERAS, VERDICT, gpu, installNvidiaSmi, type ArchitectureGpu } from '../fixtures/gpu-architectures.js';
import { fixtureMachine, type FixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const STATUS = { native: 'pass', 'ptx-jit': 'warn', unsupported: 'fail' } as const;

async function linuxBox(...gpus: ArchitectureGpu[]): Promise<FixtureMachine> {
  const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
  await installNvidiaSmi(m, '/usr/bin/nvidia-smi', gpus);
  return m;
}

const ccFinding = (facts: MachineFacts, tf: string): Finding | undefined => diagnose(catalog, facts, { tf }).find((f) => f.id === 'compute-capability');

describe('the compute-capability finding for each architecture and each TF era (Linux)', () => {
  it.each(GPUS.map((g) => [g.short, g] as const))('%s', async (_, g) => {
    const facts = await probeMachine((await linuxBox(g)).host, { catalog });
    expect(facts.gpu.gpus[0]).toMatchObject({ name: g.name, computeCapability: g.cc });
    const statuses = TF_ERAS.map((tf) => ccFinding(facts, tf)?.status);
    expect(statuses).toEqual([...g.verdicts].map((v) => STATUS[VERDICT[v as keyof typeof VERDICT]]));
  });
});

describe('what the finding says', () => {
  it('a GTX 970 with TF 2.18 fails, and the fix names TF 2.16 and the command to check it (doctor --json, exit 1)', async () => {
    const m = await linuxBox(gpu('GTX 970'));
    const r = await runCli(['doctor', '--tf', '2.18', '--json'], { host: m.host });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['os', 'gpus', 'driver', 'toolkits', 'cudnn', 'python', 'tensorflow', 'findings']);
    const f = doc.findings.find((x: Finding) => x.id === 'compute-capability');
    expect(f).toMatchObject({ status: 'fail', title: 'TensorFlow 2.18 will not run on NVIDIA GeForce GTX 970 (compute capability 5.2)' });
    expect(f.fix).toBe('Use TensorFlow 2.16, the newest line with machine code for compute capability 5.2 (NVIDIA GeForce GTX 970): cudawiz requirements --tf 2.16 --gpu 5.2');
    expect(f.evidence).toContain('GPU 0: NVIDIA GeForce GTX 970 (4096 MiB), compute capability 5.2');
    expect(f.evidence.some((e: string) => e.includes('its oldest machine code is for 6.0'))).toBe(true);
  });

  it('an R470 Tesla K80 (capability from its name) with TF 2.15 fails: CUDA 12.2 dropped Kepler; TF 2.14 is the fix', async () => {
    const facts = await probeMachine((await linuxBox(gpu('Tesla K80'))).host, { catalog });
    const f = ccFinding(facts, '2.15')!;
    expect(f.status).toBe('fail');
    expect(f.evidence).toContain('GPU 0: CUDA 12.2 needs compute capability 5.0 or newer; this GPU is 3.7.');
    expect(f.fix).toMatch(/^Use TensorFlow 2\.14,/);
  });

  it('an RTX 4090 with TF 2.3 warns: slow first start, the cache tip, and TF 2.21 as the way out', async () => {
    const facts = await probeMachine((await linuxBox(gpu('RTX 4090'))).host, { catalog });
    const f = ccFinding(facts, '2.3')!;
    expect(f).toMatchObject({ status: 'warn', title: 'TensorFlow 2.3 has no machine code for NVIDIA GeForce RTX 4090: its first start JIT-compiles PTX, which can take 30 minutes or more' });
    expect(f.fix).toMatch(/^Set CUDA_CACHE_MAXSIZE=2147483648 .*; or switch: TensorFlow 2\.21 has machine code for compute capability 8\.9/);
  });

  it('an RTX 5090 with TF 2.21 fails: its wheels die with CUDA_ERROR_INVALID_PTX there (TF issues), and the evidence says so', async () => {
    const facts = await probeMachine((await linuxBox(gpu('RTX 5090'))).host, { catalog });
    const f = ccFinding(facts, '2.21')!;
    expect(f.status).toBe('fail');
    expect(f.evidence.some((e) => e.includes('CUDA_ERROR_INVALID_PTX'))).toBe(true);
  });

  it('an A100 with TF 2.18 passes and says so', async () => {
    const facts = await probeMachine((await linuxBox(gpu('A100'))).host, { catalog });
    expect(ccFinding(facts, '2.18')).toMatchObject({ status: 'pass', title: 'Compute capability 8.0: TensorFlow 2.18 runs natively (CUDA 12.5)' });
  });

  it('a K80 beside an RTX 3090 with TF 2.18: a warning that TF skips the K80, and which devices to keep visible', async () => {
    const facts = await probeMachine((await linuxBox(gpu('Tesla K80'), gpu('RTX 3090'))).host, { catalog });
    const f = ccFinding(facts, '2.18')!;
    expect(f).toMatchObject({ status: 'warn', title: 'TensorFlow 2.18 will not run on some GPUs here: Tesla K80' });
    expect(f.fix).toContain('CUDA_VISIBLE_DEVICES to the supported GPUs (1)');
  });

  it('three GTX 680s (Kepler 3.0, real R331 capture) with TF 2.4: too old for CUDA 11.0 and for every TF build, said once', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'gtx680-driver-331');
    const f = ccFinding(await probeMachine(m.host, { catalog }), '2.4')!;
    expect(f.status).toBe('fail');
    expect(f.fix).toBe(
      'This GPU (GeForce GTX 680) is too old for CUDA 11.0, and no TensorFlow release in the catalog has machine code for compute capability 3.0; TensorFlow can only use the CPU here.',
    );
  });

  it('on native Windows an RTX 3090 with TF 2.3 is pointed at TF 2.10, not a WSL2-only line', async () => {
    const m = await fixtureMachine('windows', { Path: 'C:\\Windows\\System32', SystemRoot: 'C:\\Windows' });
    await installNvidiaSmi(m, 'C:\\Windows\\System32\\nvidia-smi.exe', [gpu('RTX 3090')]);
    const r = await runCli(['doctor', '--tf', '2.3', '--json'], { host: m.host });
    const f = JSON.parse(r.stdout).findings.find((x: Finding) => x.id === 'compute-capability');
    expect(f.status).toBe('warn');
    expect(f.fix).toContain('or switch: TensorFlow 2.10 has machine code for compute capability 8.6');
  });
});
