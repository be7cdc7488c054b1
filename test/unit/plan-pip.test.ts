// The pip route as a plan, run by the real runner against a real virtual environment: a laptop with
// an RTX 2060 (fixture nvidia-smi on PATH, the driver's libcuda.so.1 on LD_LIBRARY_PATH) and the fixture
// pip, which prints captured pip output and lays out the nvidia wheels and a tensorflow that loads
// them the way the real one does.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import { CudawizError, EXIT } from '../../src/errors.js';
import { realHost, type Host } from '../../src/host.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { createPipPlanContext, pipRouteSteps, type PipPlanContext } from '../../src/plan/routes/pip.js';
import { runPlan } from '../../src/plan/runner.js';
import { pipVerifyStep, wheelLoaderPathStep } from '../../src/plan/steps/pip.js';
import { probeMachine } from '../../src/probe/index.js';
import type { EnvConsent } from '../../src/env/index.js';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { activatedLdLibraryPath, fixtureVenv } from '../fixtures/venv/fixture-venv.js';
import { VENV_LOADER_PTH } from '../../src/wheels/venv-loader.js';

const catalog = builtinCatalog();

async function laptop(smi = 'rtx2060-laptop') {
  const home = await tempDir('cw-pip-');
  const bin = path.join(home, 'bin');
  const driver = path.join(home, 'driver-lib');
  await mkdir(bin);
  await mkdir(driver);
  await copyFile(path.join(repoRoot, `test/fixtures/nvidia-smi/${smi}.sh`), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driver, 'libcuda.so.1'), 'fixture driver library');
  const host: Host = { ...realHost({ PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, LD_LIBRARY_PATH: driver }), home };
  const venvDir = await fixtureVenv(path.join(home, 'tf'));
  const context = (tf: string, configureEnv: EnvConsent = 'yes'): PipPlanContext =>
    createPipPlanContext(catalog, host, { tf, venvDir, configureEnv, command: `cudawiz install --tf ${tf} --route pip`, cudaRoot: path.join(home, 'cuda-root'), cacheDir: path.join(home, 'cache') });
  return { home, host, driver, venvDir, context, activate: path.join(venvDir, 'bin', 'activate') };
}

async function run(ctx: PipPlanContext, ask?: (question: string) => string | undefined) {
  const events: RunnerEvent[] = [];
  const result = await runPlan(pipRouteSteps(), ctx, {
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ask: ask ? async (need) => ask(need.kind === 'confirm' ? need.question : '') : undefined,
  });
  const plan = events.find((e): e is Extract<RunnerEvent, { type: 'plan' }> => e.type === 'plan')!;
  return { result, events, plan, done: events.filter((e) => e.type === 'step-done').map((e) => (e as { id: string }).id) };
}

describe('the pip route for TF 2.18 (its wheels found through their RUNPATH)', () => {
  it('installs with pip\'s output as progress, needs no loader-path change, verifies the GPU; a second run only checks', async () => {
    const l = await laptop();
    const first = await run(l.context('2.18'));
    expect(first.result, JSON.stringify(first.events.filter((e) => e.type === 'step-failed'))).toMatchObject({ ok: true, exitCode: 0 });
    expect(first.plan.steps.find((s) => s.id === 'wheel-loader-path')).toMatchObject({ done: true, reason: 'TensorFlow 2.18 finds its wheels by itself (RUNPATH)' });
    expect(first.done).toEqual(['preflight', 'pip-install', 'verify']);
    const progress = first.events.filter((e): e is Extract<RunnerEvent, { type: 'progress' }> => e.type === 'progress' && e.id === 'pip-install');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)!.progress.bytes).toBeGreaterThan(progress[0].progress.bytes);
    expect(first.events).toContainEqual(expect.objectContaining({ type: 'log', id: 'pip-install', line: 'Collecting tensorflow[and-cuda]==2.18.0' }));
    expect(first.events).toContainEqual(expect.objectContaining({ type: 'step-done', id: 'verify', summary: 'TensorFlow 2.18.0: 1 GPU(s) (/physical_device:GPU:0)' }));
    // The wheels' size in the same units as every other byte count (formatBytes), not pip's decimal MB.
    const installed = first.events.find((e) => e.type === 'step-done' && e.id === 'pip-install') as Extract<RunnerEvent, { type: 'step-done' }>;
    expect(installed.summary).toMatch(/nvidia-\* wheels, \d+\.\d (KiB|MiB|GiB)\)$/);
    const activate = await readFile(l.activate, 'utf8');
    expect(activate).not.toContain('# >>> cudawiz');

    const second = await run(l.context('2.18'));
    expect(second.plan.steps.filter((s) => !s.done).map((s) => s.id)).toEqual(['preflight', 'verify']);
    expect(second.plan.steps.find((s) => s.id === 'pip-install')!.reason).toBe('tensorflow 2.18.0 with CUDA 12.5.82 and cuDNN 9.3.0.75 wheels is installed');
    expect(second.result.ok).toBe(true);
  });
});

describe('the pip route for TF 2.16.1 (its wheels must be on LD_LIBRARY_PATH, tensorflow/tensorflow#63362)', () => {
  it('asks before editing the activate script; a yes adds the wheel folders and TF sees the GPU from the venv\'s python run directly; with the folders only in bin/activate it does not, whatever the shell', async () => {
    const l = await laptop();
    const questions: string[] = [];
    const r = await run(l.context('2.16', 'ask'), (q) => {
      questions.push(q);
      return 'yes';
    });
    expect(r.result).toMatchObject({ ok: true, exitCode: 0 });
    expect(questions).toEqual([`Add the 12 CUDA wheel folders to LD_LIBRARY_PATH in ${l.activate}?`]);
    expect(r.done).toEqual(['preflight', 'pip-install', 'wheel-loader-path', 'verify']);
    expect(await readFile(l.activate, 'utf8')).toContain('# >>> cudawiz');
    const again = await run(l.context('2.16', 'ask'), () => 'no');
    expect(again.plan.steps.find((s) => s.id === 'wheel-loader-path')).toMatchObject({ done: true, reason: `already in ${l.activate}` });
    // Judged as a new shell runs it (#39.5): the venv's python directly, not activated.
    const verified = r.events.find((e) => e.type === 'step-done' && e.id === 'verify') as Extract<RunnerEvent, { type: 'step-done' }>;
    expect(verified.evidence?.[0]).toBe(`judged as a new shell, cron or an IDE runs it: ${path.join(l.venvDir, 'bin', 'python')} directly, without activating the venv (an activated shell only adds to that)`);

    // With the wheel folders only in bin/activate, verify fails even when cudawiz runs in that venv's
    // activated shell, says the fix holds only there, and its fix covers both.
    const site = path.join(l.venvDir, 'lib', (await readdir(path.join(l.venvDir, 'lib'))).find((n) => n.startsWith('python'))!, 'site-packages');
    await rm(path.join(site, VENV_LOADER_PTH));
    // cudawiz started from `source tf/bin/activate`: the venv first on PATH and its wheel folders on LD_LIBRARY_PATH.
    const activated = await activatedLdLibraryPath(l.venvDir, { LD_LIBRARY_PATH: l.driver });
    expect(activated.length).toBeGreaterThan(1);
    const host: Host = { ...realHost({ ...l.host.env, VIRTUAL_ENV: l.venvDir, PATH: `${path.join(l.venvDir, 'bin')}:${l.host.env.PATH}`, LD_LIBRARY_PATH: activated.join(':') }), home: l.home };
    const ctx = createPipPlanContext(catalog, host, { tf: '2.16', venvDir: l.venvDir, configureEnv: 'no', command: 'cudawiz install --tf 2.16 --route pip', cudaRoot: path.join(l.home, 'cuda-root'), cacheDir: path.join(l.home, 'cache') });
    // The verify step alone (the plan around it is the runs above): one import of TF.
    const failed = await Promise.resolve(pipVerifyStep.run(ctx, undefined as never)).then(() => undefined, (e: CudawizError) => e);
    expect(failed).toMatchObject({ code: 'verify-failed', message: `TensorFlow 2.16.1 sees no GPU from the venv's python run directly: the wheel folders are only in ${l.activate}, so only an activated shell finds them` });
    expect(failed!.fix).toBe(`The wheel folders are off the loader path: cudawiz install --tf 2.16 --route pip --venv ${l.venvDir} --yes (the venv's python then finds them, activated or not)`);
    // That fix puts the loader file back (the block is already there): the loader step has it to do.
    expect(await wheelLoaderPathStep.check(ctx)).toMatchObject({ done: false });
  });

  it('without consent it prints the lines and changes nothing; verify then fails and names the fix', async () => {
    const l = await laptop();
    const before = await readFile(l.activate);
    const r = await run(l.context('2.16', 'no'));
    expect(r.result.exitCode).toBe(EXIT.problems);
    expect((await readFile(l.activate)).equals(before)).toBe(true);
    const loaderPath = r.events.find((e) => e.type === 'step-done' && e.id === 'wheel-loader-path') as Extract<RunnerEvent, { type: 'step-done' }>;
    expect(loaderPath.summary).toContain('left as it is (--configure-env no)');
    expect(loaderPath.evidence?.[0]).toMatch(/^# >>> cudawiz/);
    const failed = r.events.find((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>;
    expect(failed).toMatchObject({ id: 'verify', message: expect.stringContaining('sees no GPU') });
    expect(failed.fix).toBe(`The wheel folders are off the loader path: cudawiz install --tf 2.16 --route pip --venv ${l.venvDir} --yes (the venv's python then finds them, activated or not)`);

    // The doctor reads the same venv: the wheels cover CUDA (no toolkit missing), and the loader path fails with the same fix.
    const facts = await probeMachine(l.host, { catalog, python: path.join(l.venvDir, 'bin', 'python'), cudaRoot: path.join(l.home, 'cuda-root') });
    const f = Object.fromEntries(diagnose(catalog, facts).map((x) => [x.id, x]));
    expect(f.toolkit).toMatchObject({ status: 'pass', title: "CUDA 12.3 comes from pip's nvidia-* wheels (tensorflow[and-cuda]); no toolkit needed" });
    expect(f.cudnn).toMatchObject({ status: 'pass', title: "cuDNN 8.9.7.29 in pip's nvidia-cudnn wheel (needs 8.9)" });
    expect(f['wheel-loader-path']).toMatchObject({ status: 'fail', title: 'TensorFlow 2.16.1 will not find its pip-installed CUDA libraries: 12 wheel folder(s) are not on LD_LIBRARY_PATH' });
    expect(f['wheel-loader-path'].fix).toContain(`cudawiz install --tf 2.16.1 --route pip --venv ${l.venvDir} --yes`);
    expect(f['pip-cuda'].evidence).toContain('libcudnn.so.8: the loader finds no copy');
  });
});

describe('which copy TF loads when a system CUDA is on LD_LIBRARY_PATH too', () => {
  it('the system copy wins over the wheels: the doctor warns and says how to put the wheels first', async () => {
    const l = await laptop();
    expect((await run(l.context('2.18'))).result.ok).toBe(true);
    const system = path.join(l.home, 'usr/local/cuda-12.5/lib64');
    await mkdir(system, { recursive: true });
    await writeFile(path.join(system, 'libcudart.so.12'), 'a system toolkit\'s copy');
    const host: Host = { ...realHost({ ...l.host.env, LD_LIBRARY_PATH: `${system}:${l.host.env.LD_LIBRARY_PATH}` }), home: l.home };
    const facts = await probeMachine(host, { catalog, python: path.join(l.venvDir, 'bin', 'python'), cudaRoot: path.join(l.home, 'cuda-root') });
    expect(facts.pip?.loads.find((x) => x.file === 'libcudart.so.12')).toMatchObject({ from: 'system', via: 'LD_LIBRARY_PATH', dir: system });
    expect(facts.pip?.loads.find((x) => x.file === 'libcudnn.so.9')).toMatchObject({ from: 'wheels', via: 'RUNPATH' });
    const f = Object.fromEntries(diagnose(catalog, facts).map((x) => [x.id, x]));
    expect(f['pip-cuda']).toMatchObject({ status: 'warn', title: `TensorFlow loads libcudart.so.12 from the system, not from the pip wheels in ${l.venvDir}` });
    expect(f['pip-cuda'].fix).toBe(`Put the wheel folders first: cudawiz install --tf 2.18.0 --route pip --venv ${l.venvDir} --yes`);
    // The wheels cover CUDA 12.5: not "CUDA 12.5 is not installed".
    expect(f.toolkit.status).toBe('pass');
  });
});

describe('where the pip route does not go', () => {
  it('TF 2.10 predates tensorflow[and-cuda]; native Windows has none: usage errors (exit 2) before anything runs', async () => {
    const l = await laptop();
    expect(() => l.context('2.10')).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('predates tensorflow[and-cuda] (it starts at 2.14)') }));
    const windows: Host = { ...l.host, os: 'windows' };
    expect(() => createPipPlanContext(catalog, windows, { tf: '2.16', venvDir: l.venvDir, configureEnv: 'no', command: 'x' })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('Linux and WSL2 only') }),
    );
  });

  it('a driver too old for CUDA 12 (R470) stops at the preflight, before pip runs', async () => {
    const l = await laptop('r470-old-driver');
    const r = await run(l.context('2.18'));
    expect(r.result.ok).toBe(false);
    expect(r.events.find((e) => e.type === 'step-failed')).toMatchObject({ id: 'preflight', message: expect.stringContaining('NVIDIA driver 470.82.01 is too old for CUDA 12.5') });
    expect(r.events.some((e) => e.type === 'step-start' && e.id === 'pip-install')).toBe(false);
  });
});
