// `cudawiz install --route pip` end to end: the built CLI in a real child process on a laptop with an
// RTX 2060 (fixture nvidia-smi on PATH, the driver's libcuda.so.1 on LD_LIBRARY_PATH) and a python3
// whose `-m venv` makes a real venv holding the fixture pip (captured pip output, nvidia wheels, a
// tensorflow that loads them as the real one does). No package index, nothing outside temp dirs.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { pipLaptop } from '../helpers/pip-laptop.js';

async function laptop() {
  const { home, env, globals } = await pipLaptop('cw-pip-e2e-');
  const venv = path.join(home, 'projects', 'tf');
  const cli = (...args: string[]) => runBuilt([...args, ...globals], { env, cwd: home });
  return { home, venv, activate: path.join(venv, 'bin', 'activate'), cli };
}

type Event = { type: string; id?: string; ok?: boolean; exitCode?: number; steps?: { id: string; done: boolean; reason?: string }[]; message?: string; fix?: string; progress?: { bytes: number } };
const events = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as Event);

describe('cudawiz install --route pip, headless', () => {
  it('TF 2.16.1 on a fresh laptop: without consent the loader path is left and verify fails; --yes fixes it; a third run changes nothing', async () => {
    const m = await laptop();
    const first = await m.cli('install', '--tf', '2.16.1', '--route', 'pip', '--venv', m.venv, '--yes', '--configure-env', 'no', '--json');
    const ev = events(first.stdout);
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id), first.stdout + first.stderr).toEqual(['preflight', 'venv', 'pip-install', 'wheel-loader-path']);
    expect(ev.filter((e) => e.type === 'progress' && e.id === 'pip-install').length).toBeGreaterThan(1);
    expect(ev.find((e) => e.type === 'step-failed')).toMatchObject({ id: 'verify', fix: `The wheel folders are off the loader path: cudawiz install --tf 2.16.1 --route pip --venv ${m.venv} --yes (the venv's python then finds them, activated or not)` });
    expect(first.code).toBe(1);
    const untouched = await readFile(m.activate, 'utf8');
    expect(untouched).not.toContain('# >>> cudawiz');

    // The doctor, asked about that venv's Python, fails the loader path with the same command.
    const doctor = await m.cli('doctor', '--python', path.join(m.venv, 'bin', 'python'), '--json');
    expect(doctor.code).toBe(1);
    const report = JSON.parse(doctor.stdout);
    expect(report.pipCuda).toMatchObject({ venv: m.venv, tensorflow: '2.16.1', cuda: '12.3.101', cudnn: '8.9.7.29', loaderPathFix: { needed: true, alreadyApplied: false } });
    expect(report.findings.find((f: { id: string }) => f.id === 'wheel-loader-path')).toMatchObject({ status: 'fail', fix: expect.stringContaining(`--route pip --venv ${m.venv} --yes`) });

    const second = await m.cli('install', '--tf', '2.16.1', '--route', 'pip', '--venv', m.venv, '--yes');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain('already done: tensorflow 2.16.1 with CUDA 12.3.101 and cuDNN 8.9.7.29 wheels is installed');
    expect(second.stdout).toMatch(/Put the CUDA wheels on the loader path: 12 folders added to .*bin\/activate/);
    expect(second.stdout).toContain("Verify: TensorFlow sees the GPU from the venv's python, not activated: TensorFlow 2.16.1: 1 GPU(s)");
    const fixed = await readFile(m.activate);
    expect(fixed.toString()).toContain('# >>> cudawiz');

    const third = await m.cli('install', '--tf', '2.16.1', '--route', 'pip', '--venv', m.venv, '--yes', '--json');
    expect(third.code).toBe(0);
    const plan = events(third.stdout).find((e) => e.type === 'plan')!;
    expect(plan.steps!.filter((s) => !s.done).map((s) => s.id)).toEqual(['preflight', 'verify']);
    expect((await readFile(m.activate)).equals(fixed)).toBe(true);
    expect((await m.cli('doctor', '--python', path.join(m.venv, 'bin', 'python'))).code).toBe(0);
  });

  it('without --yes and without a terminal: shows the plan, names the flag, creates nothing (exit 3)', async () => {
    const m = await laptop();
    const r = await m.cli('install', '--tf', '2.18', '--route', 'pip', '--venv', m.venv);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Create the virtual environment');
    expect(r.stderr).toContain('pass --yes to go ahead');
    expect(existsSync(m.venv)).toBe(false);
  });

  it('TF 2.10 with --route pip is a usage error with the reason (exit 2), and nothing is created', async () => {
    const m = await laptop();
    const r = await m.cli('install', '--tf', '2.10', '--route', 'pip', '--venv', m.venv, '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('TensorFlow 2.10 predates tensorflow[and-cuda] (it starts at 2.14)');
    expect(r.stderr).toContain('cudawiz install --tf 2.10');
    expect(existsSync(m.venv)).toBe(false);
    expect((await m.cli('install', '--tf', '2.16', '--route', 'conda')).code).toBe(2);
  });

  it('the toolkit route for TF 2.16 on Linux names the pip route as the simpler one', async () => {
    const m = await laptop();
    const r = await m.cli('install', '--tf', '2.16', '--route', 'toolkit', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain('Simpler for TensorFlow 2.16: cudawiz install --tf 2.16 --route pip');
    const old = await m.cli('install', '--tf', '2.3', '--dry-run');
    expect(old.stdout).not.toContain('--route pip');
  });
});
