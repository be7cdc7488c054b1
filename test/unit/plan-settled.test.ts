// The plan's target is settled when the plan is chosen: the redist release that depends on the driver
// is chosen then (with the machine's driver), and the context's folders cannot change afterwards, so
// the lock, the "already done" checks and the writes name one folder.
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import redistData from '../../assets/redist/cuda.json' with { type: 'json' };
import { builtinCatalog } from '../../src/catalog/load.js';
import { chosenPlan } from '../../src/plan/chosen.js';
import { choosePlan, resolveTarget, runChosenPlan, type PlanMachine } from '../../src/plan/choose.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { createRedistPlanContext, redistPreflightStep, redistRouteSteps, type RedistPlanContext } from '../../src/plan/routes/redist.js';
import { probeMachine } from '../../src/probe/index.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { redistRouteFor } from '../../src/redist/choose.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();

describe('TF 2.11 on the redist route, with a driver below CUDA 11.8\'s own (R470)', () => {
  it('chooses the release with that driver when the plan is chosen; the lock, the checks and the folder the steps write to are the same', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/local/bin:/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'r470-old-driver');
    const machine: PlanMachine = { catalog, host: m.host, redist: () => loadRedistCatalog() };
    const root = await tempDir('cw-settled-');
    const facts = await probeMachine(m.host, { cudaRoot: root, catalog });
    expect(facts.gpu.driver.version).toBe('470.82.01');
    const target = resolveTarget(machine, '2.11', facts);
    expect(target.driver).toBe('470.82.01');
    const plan = choosePlan(machine, { mode: 'install', route: 'redist', tf: '2.11', facts, target, options: { yes: true, configureEnv: 'no', command: 'cudawiz', cudaRoot: root, cacheDir: await tempDir() } });
    const ctx = plan.ctx as RedistPlanContext;
    // Chosen with the driver: CUDA 11.8 (the same names as 11.2's, minor-version compatible), the PTX caveat said.
    expect(ctx.choice.release.version).toBe('11.8.0');
    expect(ctx.choice.driver).toBe('470.82.01');
    expect(ctx.choice.caveat).toContain('470.82.01');
    expect(ctx.cuda).toBe('11.8');
    expect(plan.lockTarget).toBe(ctx.toolkitDir);
    expect(ctx.toolkitDir.startsWith(root)).toBe(true);
    // Settled: nothing changes the folders, the release or the target after the plan is chosen.
    expect(() => Object.assign(ctx, { toolkitDir: '/elsewhere' })).toThrow(TypeError);
    expect(() => Object.assign(ctx, { cuda: '11.2' })).toThrow(TypeError);
    expect(() => Object.assign(ctx.choice, { majorMinor: '11.2' })).toThrow(TypeError);
    expect(Object.isFrozen(ctx.target)).toBe(true);
    // The checks (the dry run's plan) name that folder for the unpack, and the preflight agrees with the plan.
    const events: RunnerEvent[] = [];
    const r = await plan.run({ signal: new AbortController().signal, dryRun: true, onEvent: (e) => events.push(e) });
    const planned = events.find((e): e is Extract<RunnerEvent, { type: 'plan' }> => e.type === 'plan')!;
    expect(planned.steps.find((s) => s.id === 'unpack-cuda-redist')?.reason).toContain(plan.lockTarget);
    expect(planned.stop?.code).not.toBe('redist-release-changed');
    // Each step says whether it changes the machine (what install asks consent for): the looks do not, the writes do.
    expect(planned.steps.map((s) => [s.id, s.changesMachine])).toEqual([
      ['preflight', false],
      ['download-cuda-redist', true],
      ['unpack-cuda-redist', true],
      ['obtain-cudnn', true],
      ['import-cudnn', true],
      ['configure-env', true],
      ['verify', false],
    ]);
    expect(r.exitCode).toBeLessThan(2);
    // The preflight's run (what it settles before the writes) keeps the plan's folder: it no longer moves the context.
    await redistPreflightStep.run(ctx, { signal: new AbortController().signal, log: () => undefined, ask: async () => undefined } as never).catch(() => undefined);
    expect(ctx.toolkitDir).toBe(plan.lockTarget);
    expect(ctx.choice.release.version).toBe('11.8.0');
  });
});

describe('a plan made for another redist release than the one preflight finds with the driver (redist-release-changed)', () => {
  it('with the catalogs as they are, the driver alone never moves the release (one minor-compatibility floor per CUDA major): only a plan made for another release meets the stop', () => {
    const redist = loadRedistCatalog();
    let compared = 0;
    for (const os of ['linux', 'windows'] as const) {
      for (const tf of catalog.tensorflow[os].map((r) => r.version)) {
        const req = requirementsFor(catalog, tf, os);
        const chosen = (driver?: string) => {
          const r = redistRouteFor(redist, catalog, req, os, driver);
          return r.ok ? r.choice.release.version : undefined;
        };
        const none = chosen();
        for (const driver of ['390.157', '450.80.02', '470.82.01', '525.60.13', '580.65.06', '999.99']) {
          expect(chosen(driver), `${tf} ${os} driver ${driver}`).toBe(none);
          if (none) compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('stops at the preflight, before anything is downloaded or written, exit 1, and says to run cudawiz again', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/local/bin:/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'r470-old-driver');
    // A redist catalog with two 11.x releases: 11.7.1 (the 11.8.0 manifest under another version, as an overlay adds one) and 11.8.0.
    const dir = await tempDir('cw-release-changed-');
    const overlay = path.join(dir, 'overlay.json');
    const r118 = redistData.releases.find((r) => r.version === '11.8.0')!;
    await writeFile(overlay, JSON.stringify({ redist: [{ ...r118, version: '11.7.1' }] }));
    const redist = loadRedistCatalog(overlay);
    expect(redist.releases.map((r) => r.version)).toContain('11.7.1');
    const machine: PlanMachine = { catalog, host: m.host, redist: () => redist };
    const root = path.join(dir, 'cuda');
    const cacheDir = path.join(dir, 'cache');
    const facts = await probeMachine(m.host, { cudaRoot: root, catalog });
    const target = resolveTarget(machine, '2.11', facts);
    const options = { tf: '2.11', yes: true, configureEnv: 'no' as const, command: 'cudawiz', cudaRoot: root, cacheDir };
    // The plan chosen for 11.7.1 (as a bundle made for it pins it); the machine's driver, looked at again by
    // the preflight with nothing pinned, gets the newest 11.x it runs: 11.8.0. The folders were settled for 11.7.
    const chosenFor117 = createRedistPlanContext(catalog, redist, m.host, { ...options, pinRelease: '11.7.1' }, target);
    expect(chosenFor117.choice.release.version).toBe('11.7.1');
    const ctx: RedistPlanContext = { ...chosenFor117, pinRelease: undefined };
    const plan = chosenPlan('redist', 'install', ctx, redistRouteSteps());
    expect(plan.lockTarget).toBe(path.join(root, 'cuda-11.7'));

    // The dry run's plan already says it will stop there, with the code, the words and what to do.
    const preview: RunnerEvent[] = [];
    const dry = await plan.run({ signal: new AbortController().signal, dryRun: true, onEvent: (e) => preview.push(e) });
    const planned = preview.find((e): e is Extract<RunnerEvent, { type: 'plan' }> => e.type === 'plan')!;
    expect(planned.stop).toMatchObject({ step: 'preflight', code: 'redist-release-changed', fix: 'Run cudawiz again: the new plan is made with this driver.' });
    expect(planned.stop!.message).toBe('The plan was made for CUDA 11.7.1, but driver 470.82.01 now runs CUDA 11.8.0: nothing was changed, so the run does not write to another folder than the one it locked and checked.');
    expect(planned.steps.filter((s) => s.notReached).map((s) => s.id)).toEqual(['download-cuda-redist', 'unpack-cuda-redist', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    expect(dry.exitCode).toBe(1);

    // The run itself, under its lock: the preflight fails with that stop, no later step starts, exit 1.
    const events: RunnerEvent[] = [];
    const r = await runChosenPlan(plan, { signal: new AbortController().signal, onEvent: (e) => events.push(e) });
    expect(r).toMatchObject({ ok: false, exitCode: 1 });
    expect(events.filter((e) => e.type === 'step-start').map((e) => (e as { id: string }).id)).toEqual(['preflight']);
    expect(events.find((e) => e.type === 'step-failed')).toMatchObject({ id: 'preflight', message: planned.stop!.message, fix: 'Run cudawiz again: the new plan is made with this driver.' });
    // Nothing written: no toolkit folder (neither the locked 11.7 nor 11.8), nothing downloaded into the cache.
    expect(existsSync(path.join(root, 'cuda-11.7'))).toBe(false);
    expect(existsSync(path.join(root, 'cuda-11.8'))).toBe(false);
    const cached = existsSync(cacheDir) ? await readdir(cacheDir, { recursive: true }) : [];
    expect(cached.filter((f) => String(f).endsWith('.tar.xz') || String(f).endsWith('.part'))).toEqual([]);
  });
});
