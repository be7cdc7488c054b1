// The pip route's `tensorflow[and-cuda]` spec per TF line, as it really installs: 2.14's tensorrt pin has
// no Python 3.11 wheel (tensorflow#61986), 2.15.0 cannot be installed with the extra at all and
// 2.15.0.post1 exists for that (tensorflow#62520). A Python that cannot take it is told so before a
// virtual environment is made — here with a fixture python3 on PATH that is 3.11, run for real.
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { andCudaPythonProblem, andCudaPythons, andCudaRequirement } from '../../src/catalog/queries.js';
import { realHost, type Host } from '../../src/host.js';
import { setLang } from '../../src/i18n/localized.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { createPipPlanContext, pipRouteSteps } from '../../src/plan/routes/pip.js';
import { runPlan } from '../../src/plan/runner.js';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
afterEach(() => setLang('en'));

describe('tensorflow[and-cuda] specs, 2.14 … 2.21', () => {
  it('pins the release that installs: 2.15 → 2.15.0.post1, the others their table row or the asked patch', () => {
    expect(andCudaRequirement(catalog, '2.14')).toBe('tensorflow[and-cuda]==2.14.0');
    expect(andCudaRequirement(catalog, '2.15')).toBe('tensorflow[and-cuda]==2.15.0.post1');
    expect(andCudaRequirement(catalog, '2.15.0')).toBe('tensorflow[and-cuda]==2.15.0.post1');
    expect(andCudaRequirement(catalog, '2.15.1')).toBe('tensorflow[and-cuda]==2.15.1');
    expect(andCudaRequirement(catalog, '2.16')).toBe('tensorflow[and-cuda]==2.16.1');
    for (const tf of ['2.17', '2.18', '2.19', '2.20', '2.21']) expect(andCudaRequirement(catalog, tf)).toBe(`tensorflow[and-cuda]==${tf}.0`);
    expect(andCudaRequirement(catalog, '2.13')).toBeUndefined();
  });

  it('knows which Pythons each resolves on: 2.14 stops at 3.10 although its table row says 3.11', () => {
    expect(andCudaPythons(catalog, '2.14')).toEqual(['3.9-3.10']);
    expect(andCudaPythons(catalog, '2.15')).toEqual(['3.9-3.11']);
    expect(andCudaPythons(catalog, '2.16')).toEqual(['3.9-3.12']);
    expect(andCudaPythons(catalog, '2.21')).toEqual(['3.10-3.13']);
    expect(andCudaPythonProblem(catalog, '2.14', '3.10.12')).toBeUndefined();
    const p = andCudaPythonProblem(catalog, '2.14', '3.11.4')!;
    expect(p.message).toBe('pip cannot install tensorflow[and-cuda]==2.14.0 on Python 3.11: it resolves on Python 3.9-3.10 only.');
    expect(p.source).toContain('tf-61986');
    expect(p.fix).toContain('python3.10 -m venv .venv');
    expect(andCudaPythonProblem(catalog, '2.21', '3.9.18')?.pythons).toEqual(['3.10-3.13']);
    expect(andCudaPythonProblem(catalog, '2.20', '3.13.1')).toBeUndefined();
    setLang('zh');
    expect(andCudaPythonProblem(catalog, '2.14', '3.11.4')!.message).toContain('pip 无法在 Python 3.11 上安装 tensorflow[and-cuda]==2.14.0');
  });
});

describe('the pip route with a Python that cannot take the TF', () => {
  it('stops before making the virtual environment (exit 2) and names the Pythons that can', async () => {
    const home = await tempDir('cw-pip-py-');
    const bin = path.join(home, 'bin');
    const driver = path.join(home, 'driver-lib');
    await mkdir(bin);
    await mkdir(driver);
    await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
    await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
    await writeFile(path.join(driver, 'libcuda.so.1'), 'fixture driver library');
    // python3 as Ubuntu 23.04 ships it: prints its version, refuses anything else.
    await writeFile(path.join(bin, 'python3'), '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Python 3.11.4"; exit 0; fi\necho "unexpected: $*" >&2\nexit 9\n');
    await chmod(path.join(bin, 'python3'), 0o755);
    const host: Host = { ...realHost({ PATH: `${bin}:/usr/bin:/bin`, HOME: home, LD_LIBRARY_PATH: driver }), home };
    const venvDir = path.join(home, 'tf');
    const ctx = createPipPlanContext(catalog, host, { tf: '2.14', venvDir, configureEnv: 'no', command: 'cudawiz install --tf 2.14 --route pip', cudaRoot: path.join(home, 'cuda-root'), cacheDir: path.join(home, 'cache') });
    const events: RunnerEvent[] = [];
    const result = await runPlan(pipRouteSteps(), ctx, { signal: new AbortController().signal, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ ok: false, exitCode: 2 });
    const failed = events.find((e): e is Extract<RunnerEvent, { type: 'step-failed' }> => e.type === 'step-failed')!;
    expect(failed).toMatchObject({ id: 'venv' });
    expect(failed.message).toContain('pip cannot install tensorflow[and-cuda]==2.14.0 on Python 3.11');
    expect(failed.fix).toContain('3.9-3.10');
    expect(existsSync(venvDir)).toBe(false);
  });
});
