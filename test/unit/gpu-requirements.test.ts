// `cudawiz requirements --tf V --gpu NAME|CC`: one GPU of each architecture against TF rows of each era,
// through the real CLI, as a user would ask before buying into a TF version.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { MATRIX, gpu } from '../fixtures/gpu-architectures.js';

async function ask(...argv: string[]) {
  const r = await runCli(['requirements', ...argv]);
  return { ...r, doc: r.code === 0 && argv.includes('--json') ? JSON.parse(r.stdout) : undefined };
}

describe('requirements --gpu: each architecture against each TF era (Linux)', () => {
  it.each(MATRIX.map(([g, tf, verdict]) => [g.short, tf, verdict, g.cc] as const))('%s on TF %s: %s', async (short, tf, verdict, cc) => {
    const { code, doc } = await ask('--tf', tf, '--os', 'linux', '--gpu', short, '--json');
    expect(code).toBe(0);
    expect(doc.gpu).toMatchObject({ name: short, computeCapability: cc, verdict });
    expect(typeof doc.gpu.verified).toBe('boolean');
    // The rest of the answer is unchanged by --gpu.
    expect(doc.tensorflow).toBe(tf);
  });
});

describe('requirements --gpu: what the answer says', () => {
  it('an RTX 4090 on TF 2.3 starts after a slow JIT: says how slow, the cache tip, and TF 2.21 as the native line', async () => {
    const { doc } = await ask('--tf', '2.3', '--os', 'linux', '--gpu', 'RTX 4090', '--json');
    expect(doc.gpu.reason).toContain('can take 30 minutes or more');
    expect(doc.gpu.reason).toContain('CUDA_CACHE_MAXSIZE=2147483648');
    expect(doc.gpu.suggestion).toMatch(/^TensorFlow 2\.21 has machine code for compute capability 8\.9/);
  });

  it('a K80 on TF 2.18 will not run (CUDA 12.5 dropped Kepler); the newest native line is 2.14, the last on CUDA 11.8', async () => {
    const { doc } = await ask('--tf', '2.18', '--os', 'linux', '--gpu', 'Tesla K80', '--json');
    expect(doc.gpu).toMatchObject({ verdict: 'unsupported', reason: 'CUDA 12.5 needs compute capability 5.0 or newer; this GPU is 3.7.' });
    expect(doc.gpu.suggestion).toMatch(/^TensorFlow 2\.14 has machine code for compute capability 3\.7/);
  });

  it('a GTX 970 on TF 2.21 will not run; TF 2.16 is the newest with Maxwell machine code (2.17 dropped sm_50)', async () => {
    const { doc } = await ask('--tf', '2.21', '--os', 'linux', '--gpu', 'GTX 970', '--json');
    expect(doc.gpu.verdict).toBe('unsupported');
    expect(doc.gpu.suggestion).toMatch(/^TensorFlow 2\.16 /);
  });

  it('an RTX 5090 (12.0) cannot run TF 2.21: its wheels fail with CUDA_ERROR_INVALID_PTX, and the answer names what works', async () => {
    const { doc } = await ask('--tf', '2.21', '--os', 'linux', '--gpu', '12.0', '--json');
    expect(doc.gpu).toMatchObject({ computeCapability: '12.0', verdict: 'unsupported', verified: true });
    expect(doc.gpu.name).toBeUndefined();
    expect(doc.gpu.reason).toContain('CUDA_ERROR_INVALID_PTX');
    expect(doc.gpu.suggestion).toContain('NGC TensorFlow container');
    expect(doc.gpu.suggestion).toContain('CUDA 12.8');
    // TF 2.15 (CUDA 12.2, compute_80 PTX) predates the reports: a slow JIT start, not a known failure.
    expect((await ask('--tf', '2.15', '--os', 'linux', '--gpu', '12.0', '--json')).doc.gpu.verdict).toBe('ptx-jit');
  });

  it('on native Windows an RTX 4090 with TF 2.3 is pointed at TF 2.10, the last Windows GPU line', async () => {
    const { doc } = await ask('--tf', '2.3', '--os', 'windows', '--gpu', '8.9', '--json');
    expect(doc.gpu.suggestion).toMatch(/^TensorFlow 2\.10 has machine code for compute capability 8\.9/);
  });

  it('TF 2.15 asked for native Windows is judged for WSL2, i.e. against the Linux build', async () => {
    const { doc } = await ask('--tf', '2.15', '--os', 'windows', '--gpu', 'Tesla K80', '--json');
    expect(doc.gpuSupported).toBe(false);
    expect(doc.gpu).toMatchObject({ verdict: 'unsupported', reason: 'CUDA 12.2 needs compute capability 5.0 or newer; this GPU is 3.7.' });
  });

  it('without --gpu the JSON has no gpu field', async () => {
    const { doc } = await ask('--tf', '2.3', '--os', 'linux', '--json');
    expect(doc).not.toHaveProperty('gpu');
  });

  it('the human answer: one verdict line with its symbol, the reason, the suggestion', async () => {
    const jit = await ask('--tf', '2.3', '--os', 'linux', '--gpu', 'RTX 4090');
    expect(jit.stdout).toContain('⚠ RTX 4090 (compute capability 8.9): runs after a slow first-start JIT');
    expect(jit.stdout).toContain('TensorFlow 2.21 has machine code for compute capability 8.9.');
    const no = await ask('--tf', '2.18', '--os', 'linux', '--gpu', 'GTX 970');
    expect(no.stdout).toContain('✗ GTX 970 (compute capability 5.2): will not run');
    const yes = await ask('--tf', '2.3', '--os', 'linux', '--gpu', '7.5');
    expect(yes.stdout).toContain('✓ compute capability 7.5: runs natively');
  });
});

describe('requirements --gpu: bad input', () => {
  it('an unknown GPU name is a usage error (exit 2) that says how to pass the compute capability instead', async () => {
    const r = await ask('--tf', '2.3', '--gpu', 'Matrox G200eR2');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Unknown GPU "Matrox G200eR2"');
    expect(r.stderr).toContain('--gpu 8.6');
    expect(r.stderr).toContain('nvidia-smi --query-gpu=name,compute_cap --format=csv');
  });

  it('an empty --gpu is a usage error too', async () => {
    expect((await ask('--tf', '2.3', '--gpu', '')).code).toBe(2);
  });

  it('a GPU name is matched as nvidia-smi prints it, too', async () => {
    expect((await ask('--tf', '2.4', '--os', 'linux', '--gpu', gpu('H100').name, '--json')).doc.gpu).toMatchObject({ computeCapability: '9.0', verdict: 'ptx-jit' });
  });
});
