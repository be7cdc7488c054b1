// A Windows user picks a TensorFlow with no native GPU build; the WSL2 route is said step by step.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { andCudaRequirement } from '../../src/catalog/queries.js';
import { wslRouteSteps } from '../../src/doctor/wsl-route.js';

const catalog = builtinCatalog();

describe('the WSL2 route from native Windows', () => {
  it('for TF 2.16: WSL, the Windows driver for CUDA 12, then tensorflow[and-cuda] inside Ubuntu', () => {
    const steps = wslRouteSteps(catalog, '2.16');
    const text = steps.join('\n');
    const at = (needle: string) => steps.findIndex((s) => s.includes(needle));
    expect(at('wsl --install -d Ubuntu')).toBeGreaterThan(-1);
    expect(at('build 19044')).toBe(0);
    expect(steps[at('NVIDIA driver on Windows')]).toContain('528.33 or newer');
    expect(at('pip install "tensorflow[and-cuda]==2.16.1"')).toBeGreaterThan(at('NVIDIA driver on Windows'));
    expect(at('pip install "tensorflow[and-cuda]==2.16.1"')).toBeGreaterThan(at('python3 -m venv'));
    expect(text).toContain('Python 3.9–3.12');
    expect(text).not.toMatch(/apt install[^\n]*nvidia-driver|cuda-drivers/);
    expect(text).toContain('Never install a Linux NVIDIA driver inside WSL');
    expect(steps.every((s) => !s.includes('\u001b'))).toBe(true);
  });

  it('for a patch release it pins that release', () => {
    expect(wslRouteSteps(catalog, '2.18.1').join('\n')).toContain('pip install "tensorflow[and-cuda]==2.18.1"');
  });

  it('for TF 2.12 (before and-cuda): cudawiz installs CUDA 11.8 inside Ubuntu, driver 452.39 on Windows', () => {
    const text = wslRouteSteps(catalog, '2.12').join('\n');
    expect(text).toContain('cudawiz install --tf 2.12.0');
    expect(text).toContain('CUDA 11.8');
    expect(text).toContain('452.39 or newer');
    expect(text).not.toContain('pip install "tensorflow[and-cuda]');
  });

  it('an unknown TensorFlow is a usage error naming the nearest ones', () => {
    expect(() => wslRouteSteps(catalog, '9.9')).toThrow(/Unknown TensorFlow version "9.9"/);
  });

  it('the and-cuda requirement exists from 2.14 on only', () => {
    expect(andCudaRequirement(catalog, '2.13')).toBeUndefined();
    expect(andCudaRequirement(catalog, '2.14')).toBe('tensorflow[and-cuda]==2.14.0');
    expect(andCudaRequirement(catalog, '2.99')).toBeUndefined();
  });
});
