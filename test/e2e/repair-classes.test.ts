// Repair on machines broken the way users break them (#25): each class gets its remedy — the smallest
// change that fixes its cause — or stops with the action, having changed nothing; afterwards the
// doctor, run in a new bash that reads the user's ~/.bashrc, has no failure left for that TensorFlow.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import type { Finding } from '../../src/doctor/finding.js';
import { createPlanContext } from '../../src/plan/context.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { remedySteps } from '../../src/plan/remedies/index.js';
import { runPlan } from '../../src/plan/runner.js';
import { probeMachine } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { brokenMachine, CUDA118_LIBS, fakeTf, hostOf, newShellEnv, type BrokenMachine } from '../helpers/broken-machine.js';
import { treeDigest } from '../helpers/cudnn-archive.js';

interface Repaired {
  findings: Finding[];
  events: RunnerEvent[];
  exitCode: number;
}

/** The doctor's scan in the user's current shell, then the remedies, run as `repair --yes` runs them. */
async function repair(m: BrokenMachine, env: Record<string, string>, tf: string, extra: { overlay?: string; mirror?: string } = {}): Promise<Repaired> {
  const host = hostOf(m, env);
  const catalog = loadCatalog({ overlayFile: extra.overlay });
  const facts = await probeMachine(host, { cudaRoot: m.cudaRoot, catalog });
  const findings = diagnose(catalog, facts, { tf });
  const ctx = createPlanContext(catalog, host, { tf, cudaRoot: m.cudaRoot, cacheDir: m.cache, mirror: extra.mirror, yes: true, configureEnv: 'yes', command: `cudawiz repair --tf ${tf}`, downloadsDir: path.join(m.home, 'Downloads') });
  ctx.facts = facts;
  const { steps } = remedySteps(findings, facts, ctx);
  const events: RunnerEvent[] = [];
  const r = await runPlan(steps, ctx, { signal: new AbortController().signal, onEvent: (e) => events.push(e) });
  return { findings, events, exitCode: r.exitCode };
}

async function doctorInNewShell(m: BrokenMachine, tf: string, lang = 'en') {
  const env = await newShellEnv(m);
  const r = await runCli(['doctor', '--tf', tf, '--json', ...m.globals, ...(lang === 'zh' ? ['--lang', 'zh'] : [])], { host: hostOf(m, env) });
  return { code: r.code, findings: JSON.parse(r.stdout).findings as Finding[] };
}

const fails = (fs: Finding[]) => fs.filter((f) => f.status === 'fail').map((f) => f.id);
const plan = (ev: RunnerEvent[]) => ev.find((e) => e.type === 'plan') as Extract<RunnerEvent, { type: 'plan' }>;

describe('repair, class by class', () => {
  it('the right cuDNN and runtime behind a stale toolkit earlier on LD_LIBRARY_PATH: load order only, nothing downloaded', async () => {
    const m = await brokenMachine();
    const right = path.join(m.cudaRoot, 'cuda-11.8');
    const stale = path.join(m.cudaRoot, 'cuda-11.2');
    await m.fx.toolkit(right, { version: '11.8.89', versionFile: 'version.json', libraries: CUDA118_LIBS, cudnn: '8.6.0' });
    await m.fx.toolkit(stale, { version: '11.2.152', versionFile: 'version.json', libraries: CUDA118_LIBS, cudnn: '8.1.1' });
    await m.ldCache([...CUDA118_LIBS, 'libcudnn.so.8'].map((f) => ({ name: f, path: path.join(right, 'lib64', f) })));
    const site = path.join(m.home, 'site');
    await fakeTf(m, site, '2.12.0');
    await m.rcLines([`export LD_LIBRARY_PATH=${stale}/lib64:$LD_LIBRARY_PATH`, `export PYTHONPATH=${site}`]);
    const before = await Promise.all([treeDigest(right), treeDigest(stale)]);
    const r = await repair(m, await newShellEnv(m), '2.12');

    // The doctor's one finding for eight libraries, and the plan that fixes exactly it.
    expect(fails(r.findings)).toEqual([`load-order:${right}/lib64`]);
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['load-order', 'verify']);
    expect(steps[0].title).toBe(`Put ${right}/lib64 first for new shells — fixes: 8 of TensorFlow's libraries load from ${stale}/lib64 (CUDA 11.2.152, cuDNN 8.1.1), ahead of the right copies in ${right}/lib64 (CUDA 11.8.89, cuDNN 8.6.0)`);
    expect(r.exitCode, JSON.stringify(r.events.filter((e) => e.type === 'step-failed'))).toBe(0);
    const verified = r.events.find((e) => e.type === 'step-done' && e.id === 'verify') as Extract<RunnerEvent, { type: 'step-done' }>;
    expect(verified.evidence).toContain(`libcudart.so.11.0 → ${right}/lib64`);
    expect(verified.evidence).toContain(`libcudnn.so.8 → ${right}/lib64`);

    // The user's own line is still there, byte for byte; cudawiz's line comes after it.
    const rc = await readFile(m.rc, 'utf8');
    expect(rc.split('\n').slice(0, 5).join('\n')).toContain(`export LD_LIBRARY_PATH=${stale}/lib64:$LD_LIBRARY_PATH`);
    expect(rc.trim().split('\n').at(-1)).toMatch(/env-cuda-11\.8\.sh' \] && \. .*# cudawiz$/);
    expect(await Promise.all([treeDigest(right), treeDigest(stale)])).toEqual(before);
    const after = await doctorInNewShell(m, '2.12');
    expect(fails(after.findings)).toEqual([]);
    expect(after.code).toBe(0);
  });
});
