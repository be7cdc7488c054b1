// The plan's target is settled when the plan is chosen: the redist release that depends on the driver
// is chosen then (with the machine's driver), and the context's folders cannot change afterwards, so
// the lock, the "already done" checks and the writes name one folder.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { choosePlan, resolveTarget, type PlanMachine } from '../../src/plan/choose.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { redistPreflightStep, type RedistPlanContext } from '../../src/plan/routes/redist.js';
import { probeMachine } from '../../src/probe/index.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
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
