// The one test that looks at this machine itself, read-only: the build machines carry a partial CUDA
// 13.0 toolkit in /usr/local and no driver; elsewhere there may be no toolkit at all.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import { realHost } from '../../src/host.js';
import { probeMachine } from '../../src/probe/index.js';

describe('this machine, as it is', () => {
  it('describes the partial CUDA 13.0 toolkit, the missing driver and GPU, calmly', async () => {
    const host = realHost();
    const facts = await probeMachine(host, { cudaRoot: '/usr/local' });
    const findings = diagnose(builtinCatalog(), facts);
    const byId = Object.fromEntries(findings.map((f) => [f.id, f]));
    if (existsSync('/usr/local/cuda-13.0')) {
      const t = facts.toolkits.find((k) => k.path === '/usr/local/cuda-13.0');
      expect(t).toMatchObject({ readable: true, majorMinor: '13.0' });
      expect(t?.components.cudart).toContain('libcudart.so.13');
      expect(t?.missing).toEqual(expect.arrayContaining(['cublas', 'cudnn']));
      expect(t?.missing).not.toContain('cudart');
      expect(facts.cudnn).toEqual([]);
      const finding = byId['toolkit:/usr/local/cuda-13.0'];
      expect(finding.status).toBe('warn');
      expect(finding.title).toMatch(/^CUDA 13\.0 at \/usr\/local\/cuda-13\.0 .*is partial: no cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE$/);
    } else {
      expect(facts.toolkits).toEqual([]);
    }
    if (!existsSync('/proc/driver/nvidia/version') && facts.gpu.state === 'no-nvidia-smi') {
      expect(byId.gpu).toMatchObject({ status: 'fail', title: 'No NVIDIA driver, so no usable GPU, on this machine' });
      expect(byId.gpu.fix).toContain('without one TensorFlow runs on the CPU only');
      expect(byId.driver.status).toBe('skip');
    }
    // No TensorFlow here: its checks are skipped with the way to ask for them, not failed.
    if (!facts.python.tensorflow) expect(byId['tf-target']).toMatchObject({ status: 'skip', fix: expect.stringContaining('cudawiz doctor --tf') });
    // Calm: nothing but the missing GPU is a failure.
    expect(findings.filter((f) => f.status === 'fail').map((f) => f.id)).toEqual(facts.gpu.state === 'ok' ? [] : ['gpu']);
  });
});
