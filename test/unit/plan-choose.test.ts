// One chooser for both doors: the routes it offers, the plan it picks, the lock it holds while a plan
// changes the machine (on every route, the wizard's too), and repair's steps from the doctor's findings.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { probeMachine } from '../../src/probe/index.js';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { finding } from '../../src/doctor/finding.js';
import { lockFileFor } from '../../src/lock/index.js';
import { choosePlan, offeredRoutes, runChosenPlan, type PlanMachine } from '../../src/plan/choose.js';
import { chosenPlan } from '../../src/plan/chosen.js';
import { createPlanContext } from '../../src/plan/context.js';
import { repairSteps } from '../../src/plan/repair.js';
import { toolkitSteps } from '../../src/plan/routes/toolkit.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const machineOn = async (os: 'linux' | 'windows'): Promise<PlanMachine> => ({ catalog, host: (await fixtureMachine(os)).host, redist: () => loadRedistCatalog() });
const options = { yes: true, configureEnv: 'no' as const, command: 'cudawiz' };

describe('the chooser', () => {
  it('offers the installer route last everywhere, and the pip route only where [and-cuda] exists (Linux, TF ≥ 2.14)', async () => {
    const linux = await machineOn('linux');
    const windows = await machineOn('windows');
    expect(offeredRoutes(linux, '2.16').at(-1)).toBe('toolkit');
    expect(offeredRoutes(linux, '2.16')).toContain('pip');
    expect(offeredRoutes(linux, '2.3')).not.toContain('pip');
    expect(offeredRoutes(windows, '2.10')).not.toContain('pip');
  });

  it('install picks the route asked for (the recommended one when none); the pip route locks its venv, the others their toolkit', async () => {
    const m = await machineOn('linux');
    const root = await tempDir();
    // No route asked: the one the wizard recommends (redist, where it exists), by the same rule.
    expect(choosePlan(m, { mode: 'install', tf: '2.16', options: { ...options, cudaRoot: root } }).route).toBe('redist');
    const toolkit = choosePlan(m, { mode: 'install', route: 'toolkit', tf: '2.16', options: { ...options, cudaRoot: root } });
    expect([toolkit.route, toolkit.lockTarget]).toEqual(['toolkit', toolkit.ctx.toolkitDir]);
    expect(toolkit.stepIds).toEqual(['preflight', 'python', 'disk-space', 'download-cuda', 'install-cuda', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    const venvDir = path.join(root, 'venv');
    const pip = choosePlan(m, { mode: 'install', route: 'pip', tf: '2.16', options: { ...options, venvDir } });
    expect([pip.route, pip.lockTarget]).toEqual(['pip', venvDir]);
    expect(() => choosePlan(m, { mode: 'install', route: 'pip', tf: '2.3', options })).toThrow(/2\.14|and-cuda/);
  });

  it('a run that can change the machine holds the lock on what it changes; a dry run takes none', async () => {
    const m = await machineOn('linux');
    const target = path.join(await tempDir(), 'venv');
    const ctx = createPlanContext(catalog, m.host, { ...options, tf: '2.16' });
    const seen: boolean[] = [];
    const step = { id: 'look', title: 'look', check: async () => (seen.push(existsSync(lockFileFor(target))), { done: false }), run: async () => void seen.push(existsSync(lockFileFor(target))) };
    const plan = chosenPlan('pip', 'install', ctx, [step], target);
    const signal = new AbortController().signal;
    expect((await runChosenPlan(plan, { signal, dryRun: true, onEvent: () => {} })).ok).toBe(true);
    expect(seen).toEqual([false]);
    seen.length = 0;
    expect((await runChosenPlan(plan, { signal, onEvent: () => {} })).ok).toBe(true);
    expect(seen).toEqual([true, true]);
    expect(existsSync(lockFileFor(target))).toBe(false);
  });

  it("repair's steps come from the doctor's findings: a half-done copy is settled first, a warning alone adds nothing", async () => {
    const m = await machineOn('linux');
    const ctx = createPlanContext(catalog, m.host, { ...options, tf: '2.3' });
    const facts = await probeMachine(m.host, { catalog });
    const ids = (findings: ReturnType<typeof finding>[]) => repairSteps(findings, ctx, toolkitSteps(), facts).map((s) => s.id);
    // Nothing else failing: the copy is settled, then the proof; no setup step runs again.
    expect(ids([finding('copy-interrupted:/opt/cuda-10.1', 'fail', 'half-done')])).toEqual(['settle-copy:/opt/cuda-10.1', 'verify']);
    expect(ids([finding('copy-interrupted:/opt/cuda-10.1', 'warn', 'rolled back by hand')])).toEqual(['verify']);
    // No toolkit TF can load: the route's own setup steps, without its verify (the proof replaces it).
    expect(ids([finding('toolkit', 'fail', 'CUDA 10.1 is not installed')])).toEqual([...toolkitSteps().map((s) => s.id).filter((id) => id !== 'preflight' && id !== 'verify'), 'verify']);
  });
});
