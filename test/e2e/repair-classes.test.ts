// Repair on machines broken the way users break them (#25): each class gets its remedy — the smallest
// change that fixes its cause — or stops with the action, having changed nothing; afterwards the
// doctor, run in a new bash that reads the user's ~/.bashrc, has no failure left for that TensorFlow.
// Each `repair --yes` is the built CLI (npm run build first), in the user's shell on that machine.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/finding.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { hostOf, newShellEnv, type BrokenMachine } from '../helpers/broken-machine.js';
import { runBuilt, runCli } from '../helpers/cli.js';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { englishRuns } from '../helpers/english-runs.js';
import { cloudCudaCudnnTooOld, condaCudnnAheadOfPip, condaCudnnFirst, condaNeedsNewerDriver, distroCudaNoCudnn, oldCudnnNotInCatalog, REPAIR_CLASSES, staleToolkitFirst, systemCudnnTooOld, venvCudaPinnedByTorch, venvPinnedByTorch, venvWheelsOffPath, type RepairClass } from '../fixtures/repair-classes.js';

interface Repaired {
  findings: Finding[];
  events: RunnerEvent[];
  exitCode: number;
}

let open: RepairClass | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** `cudawiz doctor --json` then `cudawiz repair --tf V --yes --json` (the built CLI) in the user's current shell. */
async function repair(c: RepairClass): Promise<Repaired> {
  open = c;
  const flags = [...c.m.globals, ...c.flags];
  const doctor = await runBuilt(['doctor', '--tf', c.tf, '--json', ...flags], { env: c.env });
  const r = await runBuilt(['repair', '--tf', c.tf, '--yes', '--json', ...flags], { env: c.env });
  const events = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerEvent);
  return { findings: JSON.parse(doctor.stdout).findings as Finding[], events, exitCode: r.code };
}

async function doctorInNewShell(m: BrokenMachine, tf: string) {
  const r = await runCli(['doctor', '--tf', tf, '--json', ...m.globals], { host: hostOf(m, await newShellEnv(m)) });
  return { code: r.code, findings: JSON.parse(r.stdout).findings as Finding[] };
}

const fails = (fs: Finding[]) => fs.filter((f) => f.status === 'fail').map((f) => f.id);
const plan = (ev: RunnerEvent[]) => ev.find((e) => e.type === 'plan') as Extract<RunnerEvent, { type: 'plan' }>;
const failedStep = (ev: RunnerEvent[]) => ev.find((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>;
const why = (r: Repaired) => JSON.stringify(r.events.filter((e) => e.type === 'step-failed'));

describe('repair, class by class', () => {
  it('the right cuDNN and runtime behind a stale toolkit earlier on LD_LIBRARY_PATH: load order only, nothing downloaded', async () => {
    const c = await staleToolkitFirst();
    const { right, stale } = c.at;
    const before = await Promise.all([treeDigest(right), treeDigest(stale)]);
    const r = await repair(c);

    // The doctor's one finding for eight libraries, and the plan that fixes exactly it.
    expect(fails(r.findings)).toEqual([`load-order:${right}/lib64`]);
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['load-order', 'verify']);
    expect(steps[0].title).toBe(`Put ${right}/lib64 first for new shells — fixes: 8 of TensorFlow's libraries load from ${stale}/lib64 (CUDA 11.2.152, cuDNN 8.1.1), ahead of the right copies in ${right}/lib64 (CUDA 11.8.89, cuDNN 8.6.0)`);
    expect(r.exitCode, why(r)).toBe(0);
    const verified = r.events.find((e) => e.type === 'step-done' && e.id === 'verify') as Extract<RunnerEvent, { type: 'step-done' }>;
    expect(verified.evidence).toContain(`libcudart.so.11.0 → ${right}/lib64`);
    expect(verified.evidence).toContain(`libcudnn.so.8 → ${right}/lib64`);

    // The user's own line is still there, byte for byte; cudawiz's line comes after it.
    const rc = await readFile(c.m.rc, 'utf8');
    expect(rc).toContain(`export LD_LIBRARY_PATH=${stale}/lib64:$LD_LIBRARY_PATH\n`);
    expect(rc.trim().split('\n').at(-1)).toMatch(/env-cuda-11\.8\.sh' \] && \. .*# cudawiz$/);
    expect(await Promise.all([treeDigest(right), treeDigest(stale)])).toEqual(before);
    const after = await doctorInNewShell(c.m, '2.12');
    expect(fails(after.findings)).toEqual([]);
    expect(after.code).toBe(0);

    // Undone exactly: the rc file as the user had it, the script gone.
    const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await readFile(c.m.rc, 'utf8')).not.toContain('cudawiz');
  });

  it("a conda env whose own older cuDNN (and CUDA 11.2) come first on LD_LIBRARY_PATH: the system's 11.8 + cuDNN 8.6 made to win, conda's command named", async () => {
    const c = await condaCudnnFirst();
    const { right, prefix } = c.at;
    const envBefore = await treeDigest(prefix);
    const r = await repair(c);
    const lo = r.findings.find((f) => f.id.startsWith('load-order:'))!;
    expect(fails(r.findings)).toEqual([`load-order:${right}/lib64`]);
    expect(lo.cause).toMatchObject({ kind: 'load-order', staleDirs: [{ dir: `${prefix}/lib/`, via: 'LD_LIBRARY_PATH' }], owner: { manager: 'conda', prefix } });
    expect(lo.fix).toContain(`conda install -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8`);
    // --yes is no consent for conda: the load order works around its copy and conda's command is listed (repair-package-manager.test.ts runs it).
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['load-order', 'package-manager-left', 'verify']);
    expect(r.exitCode, why(r)).toBe(0);
    // The env is conda's: not a file of it changed.
    expect(await treeDigest(prefix)).toEqual(envBefore);
    expect(fails((await doctorInNewShell(c.m, '2.12')).findings)).toEqual([]);
  });

  it('a conda env whose CUDA 12.2 runtime needs a newer driver than 470: stops with the driver it needs and the conda pin that fits, changing nothing', async () => {
    const c = await condaNeedsNewerDriver();
    const rcBefore = await readFile(c.m.rc, 'utf8');
    const r = await repair(c);
    expect(fails(r.findings)).toEqual(expect.arrayContaining(['conda-driver']));
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['stop']);
    const failed = failedStep(r.events);
    expect(failed.message).toContain('470.82.01');
    expect(failed.fix).toMatch(/525\.60\.13/);
    expect(failed.fix).toMatch(/conda install cuda-cudart=11\.\d/);
    expect(failed.fix).toContain('cudawiz will not: a display driver is installed the way it came');
    expect(failed.fix).toContain('Nothing was changed.');
    expect(r.exitCode).toBe(1);
    // The dry run says the same stop on its plan (plan.stop, exit 1), and without --yes it is not offered ("pass --yes" would be a lie).
    const flags = ['--tf', c.tf, ...c.m.globals, ...c.flags];
    const dry = await runBuilt(['repair', ...flags, '--dry-run', '--json'], { env: c.env });
    expect(dry.code).toBe(1);
    const dryPlan = plan(dry.stdout.trim().split('\n').map((l) => JSON.parse(l) as RunnerEvent));
    expect(dryPlan.stop).toMatchObject({ step: 'stop', code: 'repair-stop', message: failed.message, fix: failed.fix });
    const asked = await runBuilt(['repair', ...flags], { env: c.env });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(`Will stop at "${dryPlan.stop!.title}"`);
    expect(asked.stderr).not.toContain('pass --yes');
    expect(await readFile(c.m.rc, 'utf8')).toBe(rcBefore);
    expect(existsSync(path.join(c.m.home, '.config', 'cudawiz'))).toBe(false);
  });

  it("a system cuDNN 8.5 in /usr/lib/x86_64-linux-gnu, one minor too old: imports only cuDNN 8.6 (no toolkit download), puts the toolkit first, names apt's command", async () => {
    const c = await systemCudnnTooOld();
    const { right, sys, archive } = c.at;
    const sysBefore = await treeDigest(c.m.sysroot);
    const r = await repair(c);
    const stale = r.findings.find((f) => f.id === 'library:cudnn')!;
    expect(stale.title).toBe(`libcudnn.so.8 resolves to ${sys}, but it is cuDNN 8.5.0, older than 8.6`);
    expect(stale.fix).toContain('or replace the stale copy with its package manager: sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8');
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'package-manager-left', 'verify']);
    expect(steps[0].title).toBe(`Keep CUDA 11.8.89 at ${right}: it serves TensorFlow 2.12 exactly (TensorFlow was built with it), so only cuDNN 8.6 is brought`);
    expect(steps.find((s) => s.id === 'package-manager-left')!.title).toContain('Left to you: sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8 would replace the stale copy');
    expect(steps.find((s) => s.id === 'load-order')!.title).toContain(`Put ${right}/lib64 first for new shells`);
    expect(r.exitCode, why(r)).toBe(0);
    // Only the cuDNN archive came down (after one look at the host's root: is it reachable at all?); the
    // system's copy is apt's and stays as it was.
    expect(c.mirror!.requests.map((q) => q.path).filter((p) => p !== '/')).toEqual([expect.stringContaining(archive)]);
    expect(await treeDigest(c.m.sysroot)).toEqual(sysBefore);
    expect(fails((await doctorInNewShell(c.m, '2.12')).findings)).toEqual([]);
  });

  it("a cloud image's CUDA 11.3 with cuDNN 8.0.5 for TF 2.11 (CUDA 11.2, cuDNN 8.1): keeps that CUDA, saying why it serves, imports cuDNN 8.1 only; the full toolkit is the named alternative with its size", async () => {
    const c = await cloudCudaCudnnTooOld();
    const r = await repair(c);
    expect(fails(r.findings)).toEqual(expect.arrayContaining(['cudnn', 'library:cudnn']));
    expect(fails(r.findings)).not.toContain('toolkit');
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id).filter((id) => id !== 'left-to-you')).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'verify']);
    expect(steps[0].title).toBe(`Keep CUDA 11.3.109 at ${c.at.cloud}: it serves TensorFlow 2.11 by CUDA 11 minor-version compatibility (TensorFlow was built with 11.2; driver 450.80.02 or newer), so only cuDNN 8.1 is brought`);
    expect(steps[0].reason).toMatch(/^the alternative, a full CUDA toolkit of its own: cudawiz install --tf 2\.11 --route redist — \d+ files, [\d.]+ GiB in all$/);
    expect(r.events.find((e) => e.type === 'step-failed'), why(r)).toBeUndefined();
    // Only the cuDNN archive came down; the cloud CUDA's own files are as they were, cuDNN 8.1.1 beside them.
    expect(c.mirror!.requests.map((q) => q.path).filter((p) => p !== '/')).toEqual([expect.stringContaining(c.at.archive)]);
    expect(await readFile(path.join(c.at.cloud, 'include', 'cudnn_version.h'), 'utf8')).toContain('#define CUDNN_MINOR 1');
    expect(fails((await doctorInNewShell(c.m, '2.11')).findings).filter((id) => id !== 'python')).toEqual([]);
  });

  it("Debian's apt CUDA 11.8 (nvidia-cuda-toolkit, libcudart11.0 …) with no cuDNN, TF 2.12: keeps it, imports cuDNN 8.6 only into a folder of its own (nothing under /usr written), the doctor passes in a new shell, rollback takes it all back", async () => {
    const c = await distroCudaNoCudnn();
    const usr = path.join(c.m.sysroot, 'usr');
    const own = path.join(c.m.cudaRoot, 'cudnn-8.6-cuda11');
    const files = async () => Object.fromEntries(Object.entries(await treeDigest(c.m.home)).filter(([k, v]) => !v.startsWith('dir:') && !/__pycache__|^cache\//.test(k)));
    const [sysBefore, before] = [await treeDigest(c.m.sysroot), await files()];
    const r = await repair(c);
    // apt's 11.8 is TF's CUDA (the dpkg record says 11.8.89); only cuDNN fails, and both its findings send the copy beside it, never into /usr.
    expect(r.findings.find((f) => f.id === 'toolkit')).toMatchObject({ status: 'pass', title: `CUDA 11.8 installed: ${usr}` });
    expect(fails(r.findings)).toEqual(['cudnn', 'library:cudnn']);
    for (const f of r.findings.filter((x) => x.status === 'fail')) expect(f.fix).toContain("a folder of its own beside the distribution's CUDA");
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'verify']);
    expect(steps[0].title).toBe(`Keep CUDA 11.8.89 at ${usr}: it serves TensorFlow 2.12 exactly (TensorFlow was built with it), so only cuDNN 8.6 is brought`);
    expect(steps.find((s) => s.id === 'import-cudnn')!.reason).toContain(`into ${own} (nothing of the distribution's packages is written)`);
    expect(r.exitCode, why(r)).toBe(0);
    // Only the cuDNN archive came down; apt's files are as they were; the copy is in its own folder.
    expect(c.mirror!.requests.map((q) => q.path).filter((p) => p !== '/')).toEqual([expect.stringContaining(c.at.archive)]);
    expect(await treeDigest(c.m.sysroot)).toEqual(sysBefore);
    expect(await readFile(path.join(own, 'include', 'cudnn_version.h'), 'utf8')).toContain('#define CUDNN_MINOR 6');
    const after = await doctorInNewShell(c.m, '2.12');
    expect(fails(after.findings)).toEqual([]);
    expect(after.findings.find((f) => f.id === 'library:cudnn')!.title).toBe(`libcudnn.so.8 → ${own}/lib64`);
    expect(after.code).toBe(0);
    // Rollback: every file as it was (cudawiz's download cache aside).
    const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(await files()).toEqual(before);
    // cuDNN's own folder was cudawiz's: it goes with its files.
    expect(existsSync(own)).toBe(false);
  });

  it("a conda env's cuDNN 8.5 ahead of the venv's nvidia-cudnn-cu12 8.9.7 (TF 2.16.1): the wheels' folders first, conda's command named — no toolkit, no cuDNN download", async () => {
    const c = await condaCudnnAheadOfPip();
    const envBefore = await treeDigest(c.at.prefix);
    const r = await repair(c);
    // The cuDNN verdict is the load order's: one finding, whose right copy is the wheel's (its version from its dist-info).
    const lo = r.findings.find((f) => f.id.startsWith('load-order:'))!;
    expect(lo.title).toContain('(cuDNN 8.9.7.29)');
    expect(fails(r.findings)).not.toContain('cudnn');
    const ids = plan(r.events).steps.map((s) => s.id);
    expect(ids).toEqual(['load-order', 'wheel-loader-path', 'package-manager-left', 'verify']);
    expect(r.exitCode, why(r)).toBe(0);
    expect(existsSync(path.join(c.m.cudaRoot, 'cuda-12.3'))).toBe(false);
    expect(await treeDigest(c.at.prefix)).toEqual(envBefore);
    expect(fails((await doctorInNewShell(c.m, '2.16')).findings)).toEqual([]);
  });

  it("a venv whose nvidia/*/lib wheels are not on the loader path (TF 2.16.1): the venv's activate script gets the marked block, nothing downloaded", async () => {
    const c = await venvWheelsOffPath();
    const r = await repair(c);
    expect(fails(r.findings)).toEqual(['wheel-loader-path']);
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['wheel-loader-path', 'verify']);
    expect(steps[0].title).toMatch(/ — fixes: TensorFlow 2\.16\.1/);
    expect(r.exitCode, why(r)).toBe(0);
    expect(await readFile(path.join(c.at.venv, 'bin', 'activate'), 'utf8')).toContain('# >>> cudawiz:');
    expect(fails((await doctorInNewShell(c.m, '2.16')).findings)).toEqual([]);
  });

  it('a venv where another framework pinned an older nvidia-cudnn-cu12: stops with the conflict in one sentence and offers a venv of its own, changing nothing', async () => {
    const c = await venvPinnedByTorch();
    // Python's own bytecode cache aside (importing TF writes it), the venv is as it was.
    const digest = async () => Object.fromEntries(Object.entries(await treeDigest(c.at.venv)).filter(([k]) => !k.includes('__pycache__')));
    const before = await digest();
    const r = await repair(c);
    const pin = r.findings.find((f) => f.id === 'pip-pin')!;
    expect(pin.title).toBe('torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26, and TensorFlow 2.18.0 needs cuDNN 9.3: one environment cannot hold both');
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['stop']);
    const failed = failedStep(r.events);
    expect(failed.fix).toContain(`Give TensorFlow an environment of its own: cudawiz install --tf 2.18.0 --route pip --venv ${path.join(c.m.home, 'venvs', 'tf-2.18')}`);
    expect(failed.fix).toContain("removing another framework's pinned package would break that framework");
    expect(r.exitCode).toBe(1);
    expect(await digest()).toEqual(before);
  });

  it("a venv where torch's CUDA 12.1 wheels are pinned only in torch's installed dist-info, under a plain TF 2.15: stops up front with the conflict in one sentence and the ways out, changing nothing (no CUDA 12.2 toolkit, no cuDNN, no failing verify)", async () => {
    const c = await venvCudaPinnedByTorch();
    const digest = async () => Object.fromEntries(Object.entries(await treeDigest(c.m.home)).filter(([k]) => !k.includes('__pycache__') && !/^cache(\/|$)/.test(k)));
    const before = await digest();
    const r = await repair(c);
    const pin = r.findings.find((f) => f.id === 'pip-pin')!;
    // TF's own metadata shows nothing (a plain tensorflow==2.15.0, cuDNN 8.9.2 new enough): the runtime's pin in torch's METADATA is the conflict.
    expect(pin.title).toBe('torch 2.3.0 requires nvidia-cuda-runtime-cu12==12.1.105, and TensorFlow 2.15.0 needs CUDA 12.2: one environment cannot hold both');
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['stop']);
    const failed = failedStep(r.events);
    expect(failed.fix).toContain(`Give TensorFlow an environment of its own: cudawiz install --tf 2.15.0 --route pip --venv ${path.join(c.m.home, 'venvs', 'tf-2.15')}`);
    // The versions that agree, from the catalog: none is built for CUDA 12.1, and it says so.
    expect(failed.fix).toContain("no TensorFlow in the catalog is built for torch's CUDA 12.1");
    expect(r.exitCode).toBe(1);
    expect(r.events.some((e) => e.type === 'step-done')).toBe(false);
    expect(await digest()).toEqual(before);
    expect(existsSync(path.join(c.m.cudaRoot, 'cuda-12.2'))).toBe(false);
  });

  it("the cuDNN pin's ways out name the TF the catalog has for what torch pins (cuDNN 8.9): TF 2.17 in that same venv", async () => {
    const c = await venvPinnedByTorch();
    const r = await repair(c);
    expect(r.findings.find((f) => f.id === 'pip-pin')!.fix).toMatch(/or keep torch's cuDNN 8\.9 in this one: TensorFlow 2\.17\.0 is the newest in the catalog built for them — .*python3? -m pip install "tensorflow==2\.17\.0"/);
    expect(r.exitCode).toBe(1);
  });

  it("TF 1.0 beside CUDA 8.0 with no cuDNN 5.1 in the catalog: the dry run stops where the run stops, naming NVIDIA's file, its page and --cudnn-archive", async () => {
    const c = await oldCudnnNotInCatalog();
    const r = await repair(c);
    expect(fails(r.findings)).toEqual(expect.arrayContaining(['cudnn', 'library:cudnn']));
    const p = plan(r.events);
    expect(p.stop).toMatchObject({ step: 'obtain-cudnn', code: 'cudnn-not-in-catalog', message: 'The catalog has no cuDNN 5.1 build for CUDA 8.0 on linux.' });
    expect(p.stop!.fix).toContain("NVIDIA's file cudnn-8.0-linux-x64-v5.1*.tgz");
    expect(p.stop!.fix).toContain('https://developer.nvidia.com/rdp/cudnn-archive');
    expect(p.stop!.fix).toContain('cudawiz repair --tf 1.0 --cudnn-archive PATH');
    expect(r.exitCode).toBe(1);
    expect(existsSync(path.join(c.at.right, 'include'))).toBe(true);
    expect(existsSync(path.join(c.at.right, 'lib64', 'libcudnn.so.5'))).toBe(false);
  });

  it('in Chinese: the stale toolkit class, plan → run → doctor, without an English sentence', async () => {
    const c = await staleToolkitFirst();
    open = c;
    const doctor = await runBuilt(['doctor', '--tf', '2.12', '--lang', 'zh', ...c.m.globals], { env: c.env });
    expect(doctor.stdout).toContain(`TensorFlow 的 8 个库从 ${c.at.stale}/lib64（CUDA 11.2.152、cuDNN 8.1.1）加载，排在 ${c.at.right}/lib64（CUDA 11.8.89、cuDNN 8.6.0）里正确的那份前面`);
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--lang', 'zh', ...c.m.globals], { env: c.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`让新开的终端先找 ${c.at.right}/lib64`);
    expect(r.stdout).toContain('新开的终端从正确的那份加载 TensorFlow 2.12 需要的每个库');
    for (const out of [doctor.stdout, r.stdout]) expect(englishRuns(out.split('```')[0])).toEqual([]);
    expect(fails((await doctorInNewShell(c.m, '2.12')).findings)).toEqual([]);
  });
});

const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerEvent);

describe('the dry run tells the truth, class by class', () => {
  // Every step the dry run lists either runs, or is the step it says the run will stop at (exit 1 both ways).
  for (const [name, build] of Object.entries(REPAIR_CLASSES)) {
    it(`${name}: the dry run's steps are the run's, and its stop is where the run stops`, async () => {
      const c = await build();
      open = c;
      const flags = ['repair', '--tf', c.tf, '--yes', '--json', ...c.m.globals, ...c.flags];
      const dry = await runBuilt([...flags, '--dry-run'], { env: c.env });
      const real = await runBuilt(flags, { env: c.env });
      const dryPlan = plan(events(dry.stdout));
      const ran = events(real.stdout);
      expect(dryPlan.steps.map((s) => [s.id, s.title])).toEqual(plan(ran).steps.map((s) => [s.id, s.title]));
      const failed = ran.filter((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>[];
      if (dryPlan.stop) {
        expect(dry.code).toBe(1);
        expect(failed.map((f) => [f.id, f.message, f.fix])).toEqual([[dryPlan.stop.step, dryPlan.stop.message, dryPlan.stop.fix]]);
        expect(real.code).toBe(1);
        return;
      }
      expect(dry.code, dry.stdout + dry.stderr).toBe(0);
      expect(failed, JSON.stringify(failed)).toEqual([]);
      const finished = new Set(ran.filter((e) => e.type === 'step-done').map((e) => (e as { id: string }).id));
      expect(dryPlan.steps.filter((s) => !s.done && !finished.has(s.id)).map((s) => s.id)).toEqual([]);
      // Exit 3 only where the plan lists an action left to the user (a Python outside TF's range on this host).
      expect(real.code).toBe(dryPlan.steps.some((s) => s.id === 'left-to-you') && real.code === 3 ? 3 : 0);
    });
  }
});
