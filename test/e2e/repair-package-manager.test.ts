// Repair running a package manager's own command on the stale copy it owns (#25 item 3): only with
// --package-manager yes (never --yes alone); the conda env changed as conda changes it (a fixture
// conda on PATH honouring install/--revision/list --revisions against a local channel); the doctor in
// a new shell passes; `cudawiz rollback` runs `conda install --revision N`. Without consent conda's
// env is untouched and the command is listed. The built CLI, in the user's shell on that machine.
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/finding.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { loadCatalog } from '../../src/catalog/load.js';
import { choosePlan, runChosenPlan } from '../../src/plan/choose.js';
import { probeMachine } from '../../src/probe/index.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { hostOf, newShellEnv } from '../helpers/broken-machine.js';
import { runBuilt } from '../helpers/cli.js';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { englishRuns } from '../helpers/english-runs.js';
import { condaCudnnFirst, systemCudnnTooOld, type RepairClass } from '../fixtures/repair-classes.js';

let open: RepairClass | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerEvent);
const plan = (ev: RunnerEvent[]) => (ev.find((e) => e.type === 'plan') as Extract<RunnerEvent, { type: 'plan' }>).steps;
const done = (ev: RunnerEvent[], id: string) => ev.find((e) => e.type === 'step-done' && e.id === id) as Extract<RunnerEvent, { type: 'step-done' }>;
const failed = (ev: RunnerEvent[]) => ev.find((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>;
const fails = (fs: Finding[]) => fs.filter((f) => f.status === 'fail').map((f) => f.id);
/**
 * The env as conda knows it: every file under lib/ byte for byte, and which packages conda-meta
 * records (name, version, build, files) — not the records' bytes, which conda rewrites on a relink,
 * nor its history, to which a revert appends.
 */
async function envFiles(prefix: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(await treeDigest(prefix))) {
    if (k.endsWith('conda-meta/history')) continue;
    if (k.startsWith('conda-meta/') && k.endsWith('.json')) {
      const r = JSON.parse(await readFile(path.join(prefix, k), 'utf8')) as { name: string; version: string; build: string; files: string[] };
      out[k] = JSON.stringify([r.name, r.version, r.build, r.files]);
    } else out[k] = v;
  }
  return out;
}

async function doctorInNewShell(c: RepairClass) {
  const r = await runBuilt(['doctor', '--tf', c.tf, '--json', ...c.m.globals], { env: await newShellEnv(c.m) });
  return { code: r.code, findings: JSON.parse(r.stdout).findings as Finding[] };
}

async function revisions(c: RepairClass): Promise<string> {
  return (await execa(path.join(c.m.bin, 'conda'), ['list', '--revisions', '-p', c.at.prefix], { env: c.env, extendEnv: false })).stdout;
}

describe("repair --package-manager: conda's own command on conda's stale copy", () => {
  it('yes: conda install runs (not the load-order workaround), the doctor passes in a new shell, rollback goes back to the revision before', async () => {
    const c = (open = await condaCudnnFirst());
    const { prefix, right } = c.at;
    const envBefore = await envFiles(prefix);
    const rcBefore = await readFile(c.m.rc, 'utf8');
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'yes', '--json', ...c.m.globals], { env: c.env });
    const ev = events(r.stdout);
    expect(r.code, JSON.stringify(failed(ev))).toBe(0);

    // One or the other: conda's command, and no load-order step for the same copy.
    const steps = plan(ev);
    expect(steps.map((s) => s.id)).toEqual(['package-manager', 'verify']);
    expect(steps[0].title).toBe(`Run conda install --yes -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8 — fixes: 8 of TensorFlow's libraries load from ${prefix}/lib/ (CUDA 11.2.2, cuDNN 8.1.0), ahead of the right copies in ${right}/lib64 (CUDA 11.8.89, cuDNN 8.6.0)`);
    expect(steps[0].reason).toContain('so it is not worked around');
    const ran = done(ev, 'package-manager');
    expect(ran.evidence).toEqual(expect.arrayContaining([expect.stringMatching(/cudnn +8\.1\.0\.77-h90431f1_0 --> 8\.9\.2\.26-cuda11_0/)]));
    expect(ran.evidence![0]).toBe('exit code 0');
    expect(ran.evidence).toContain('Executing transaction: done');
    // The conda cudawiz located and checked, by absolute path: what the journal keeps for rollback (#37).
    expect(ran.evidence!.at(-1)).toBe(`cudawiz rollback runs: ${c.env.CONDA_EXE ?? path.join(c.m.bin, 'conda')} install --yes -p ${prefix} --revision 0`);

    // The env as conda leaves it: the new records and files, the old ones gone, a revision 1 in its history.
    const meta = await readFile(path.join(prefix, 'conda-meta', 'cudnn-8.9.2.26-cuda11_0.json'), 'utf8');
    expect(JSON.parse(meta).files).toEqual(['lib/libcudnn.so.8', 'lib/libcudnn.so.8.9.2']);
    expect(existsSync(path.join(prefix, 'conda-meta', 'cudnn-8.1.0.77-h90431f1_0.json'))).toBe(false);
    expect(existsSync(path.join(prefix, 'lib', 'libcudnn.so.8.1.0'))).toBe(false);
    expect(await revisions(c)).toMatch(/\(rev 1\)\n(?: {5}.*\n)* {5}cudatoolkit {2}\{11\.2\.2 \(defaults\/linux-64\) -> 11\.8\.0/);
    // Nothing of the workaround: the user's rc file is as it was.
    expect(await readFile(c.m.rc, 'utf8')).toBe(rcBefore);

    const after = await doctorInNewShell(c);
    expect(fails(after.findings)).toEqual([]);
    expect(after.code).toBe(0);

    // Undone by conda itself: the env's packages and files as they were; conda's history records the revert.
    const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`${prefix}: back to rev 0 (${path.join(c.m.bin, 'conda')} install --yes -p ${prefix} --revision 0).`);
    expect(await envFiles(prefix)).toEqual(envBefore);
    expect(await revisions(c)).toContain('(rev 2)');
    expect(fails((await doctorInNewShell(c)).findings)).toEqual([`load-order:${right}/lib64`]);
  });

  it("no, and --yes alone: conda's env untouched, the load order works around it, conda's command listed", async () => {
    const c = (open = await condaCudnnFirst());
    const { prefix } = c.at;
    const envBefore = await treeDigest(prefix);
    for (const flags of [['--package-manager', 'no'], []]) {
      const r = await runBuilt(['repair', '--tf', '2.12', '--yes', ...flags, '--json', ...c.m.globals], { env: c.env });
      const ev = events(r.stdout);
      expect(r.code, JSON.stringify(failed(ev))).toBe(0);
      expect(plan(ev).map((s) => s.id)).toEqual(['load-order', 'package-manager-left', 'verify']);
      expect(done(ev, 'package-manager-left').evidence).toEqual([`conda install -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8`]);
      expect(plan(ev)[1].title).toMatch(/^Left to you: conda install -p .* would replace the stale copy the steps above work around — fixes: 8 of TensorFlow's libraries/);
      expect(await treeDigest(prefix)).toEqual(envBefore);
    }
    expect(await revisions(c)).not.toContain('(rev 1)');
    expect(fails((await doctorInNewShell(c)).findings)).toEqual([]);
  });

  it('conda fails: a clear error naming the command and its last lines, exit 1, nothing else done, nothing journalled', async () => {
    const c = (open = await condaCudnnFirst());
    const { prefix } = c.at;
    const envBefore = await treeDigest(prefix);
    const rcBefore = await readFile(c.m.rc, 'utf8');
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'yes', '--json', ...c.m.globals], { env: { ...c.env, FAKE_CONDA_FAIL: '1' } });
    const ev = events(r.stdout);
    expect(r.code).toBe(1);
    const f = failed(ev);
    expect(f.id).toBe('package-manager');
    expect(f.message).toBe(`conda install --yes -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8 failed (exit code 1)`);
    expect(f.fix).toContain('conda left the packages as they were and nothing else was changed');
    expect(f.fix).toContain('CondaHTTPError: HTTP 000 CONNECTION FAILED');
    expect(ev.some((e) => e.type === 'step-start' && e.id === 'verify')).toBe(false);
    expect(await treeDigest(prefix)).toEqual(envBefore);
    expect(await readFile(c.m.rc, 'utf8')).toBe(rcBefore);
    // The entry written before conda ran is gone again: conda held what it held before.
    const undo = await runBuilt(['rollback', '--json', ...c.m.globals], { env: c.env });
    expect(JSON.parse(undo.stdout).environment?.undone ?? []).toEqual([]);
  });

  it('a value other than yes or no: a usage error (exit 2), nothing changed', async () => {
    const c = (open = await condaCudnnFirst());
    const envBefore = await treeDigest(c.at.prefix);
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'maybe', ...c.m.globals], { env: c.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--package-manager takes yes or no, not "maybe".');
    expect(await treeDigest(c.at.prefix)).toEqual(envBefore);
  });

  it('in Chinese: conda runs, the doctor passes, rollback goes back — without an English sentence of ours', async () => {
    const c = (open = await condaCudnnFirst());
    const { prefix } = c.at;
    const envBefore = await envFiles(prefix);
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'yes', '--lang', 'zh', ...c.m.globals], { env: c.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`运行 conda install --yes -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8`);
    expect(r.stdout).toContain('conda 换掉了旧的那份');
    expect(r.stdout).toMatch(new RegExp(`cudawiz rollback 会运行：/\\S+/conda install --yes -p ${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --revision 0`));
    // conda's own lines are quoted as conda wrote them; every line of ours is Chinese.
    const ours = r.stdout.split('\n').filter((l) => !/transaction: done|-->/.test(l));
    for (const l of ours) expect(englishRuns(l), l).toEqual([]);
    expect(fails((await doctorInNewShell(c)).findings)).toEqual([]);
    const undo = await runBuilt(['rollback', '--lang', 'zh', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`${prefix}：已退回到 rev 0（${path.join(c.m.bin, 'conda')} install --yes -p ${prefix} --revision 0）。`);
    expect(await envFiles(prefix)).toEqual(envBefore);
  });
});

describe('asked where a question can be asked (the wizard, a terminal): the plan offers conda first and keeps the workaround for a no', () => {
  /** The wizard's repair (src/wizard/services.ts): the doctor's facts, the one chooser, the runner with an `ask`. */
  async function askedRepair(c: RepairClass, answer: 'yes' | 'no') {
    const host = hostOf(c.m, c.env);
    const catalog = loadCatalog();
    const cudaRoot = c.m.globals[1];
    const facts = await probeMachine(host, { cudaRoot, catalog });
    const chosen = choosePlan({ catalog, host, redist: () => loadRedistCatalog() }, {
      mode: 'repair', tf: '2.12', facts,
      options: { cudaRoot, cacheDir: c.m.cache, yes: true, configureEnv: 'yes', packageManager: 'ask', command: 'cudawiz' },
    });
    const ev: RunnerEvent[] = [];
    const asked: string[] = [];
    const result = await runChosenPlan(chosen, {
      signal: new AbortController().signal,
      onEvent: (e) => ev.push(e),
      ask: async (need) => {
        asked.push(need.kind === 'confirm' ? `${need.question} [${need.flag}]` : need.kind);
        return answer;
      },
    });
    return { result, ev, asked };
  }

  it('yes: conda runs and the load-order step says it is not needed; the rc file untouched', async () => {
    const c = (open = await condaCudnnFirst());
    const { prefix, right } = c.at;
    const rcBefore = await readFile(c.m.rc, 'utf8');
    const { result, ev, asked } = await askedRepair(c, 'yes');
    expect(result.exitCode, JSON.stringify(failed(ev))).toBe(0);
    const steps = plan(ev);
    expect(steps.map((s) => s.id)).toEqual(['package-manager', 'load-order', 'verify']);
    expect(steps[0].reason).toBe('asks first; on a no, the step after it works around the stale copy instead');
    expect(steps[1].title).toMatch(new RegExp(`^Put ${right}/lib64 first for new shells — fixes: .* \\(only on a no to the package manager\\)$`));
    expect(asked).toEqual([`Run conda install --yes -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8? It replaces the stale copy through its package manager. [--package-manager yes]`]);
    expect(done(ev, 'load-order').summary).toBe('not needed: the package manager replaced the stale copy');
    expect(await readFile(c.m.rc, 'utf8')).toBe(rcBefore);
    expect(existsSync(path.join(prefix, 'conda-meta', 'cudnn-8.9.2.26-cuda11_0.json'))).toBe(true);
    expect(fails((await doctorInNewShell(c)).findings)).toEqual([]);
  });

  it("no: conda's env untouched, the load order works around its copy instead", async () => {
    const c = (open = await condaCudnnFirst());
    const envBefore = await treeDigest(c.at.prefix);
    const { result, ev } = await askedRepair(c, 'no');
    expect(result.exitCode, JSON.stringify(failed(ev))).toBe(0);
    expect(done(ev, 'package-manager').summary).toBe(`not run without your consent (--package-manager yes): conda install -p ${c.at.prefix} "cudnn>=8.6,<9" cudatoolkit=11.8`);
    expect(done(ev, 'load-order').summary).toMatch(/changes? recorded for rollback/);
    expect(await treeDigest(c.at.prefix)).toEqual(envBefore);
    expect(await readFile(c.m.rc, 'utf8')).toContain('# cudawiz');
    expect(fails((await doctorInNewShell(c)).findings)).toEqual([]);
  });
});

describe("apt's copy in a system folder, for a user who is not root", () => {
  it('the sudo line is shown and the run waits on the user (exit 3) before anything is downloaded or changed', async () => {
    const c = (open = await systemCudnnTooOld());
    // `id -u` as a user's shell answers it: not 0.
    await writeFile(path.join(c.m.bin, 'id'), '#!/bin/sh\n[ "$1" = "-u" ] && { echo 1000; exit 0; }\nexec /usr/bin/id "$@"\n');
    await chmod(path.join(c.m.bin, 'id'), 0o755);
    const sysBefore = await treeDigest(c.m.sysroot);
    const rcBefore = await readFile(c.m.rc, 'utf8');
    const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'yes', '--json', ...c.m.globals, ...c.flags], { env: c.env });
    const ev = events(r.stdout);
    expect(r.code, r.stdout).toBe(3);
    expect(plan(ev)[0].id).toBe('package-manager');
    expect(plan(ev)[0].title).toMatch(/^Run apt-get install -y libcudnn8=8\.6\.0\.163-1\+cuda11\.8 — fixes: libcudnn\.so\.8 resolves to /);
    const need = ev.find((e) => e.type === 'needs-input') as Extract<RunnerEvent, { type: 'needs-input' }>;
    expect(need.need).toEqual({ kind: 'elevation', message: "apt changes the system's packages, which only root may do: run sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8, then cudawiz repair again", fix: 'sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8' });
    expect(c.mirror!.requests.filter((q) => q.path !== '/')).toEqual([]);
    expect(await treeDigest(c.m.sysroot)).toEqual(sysBefore);
    expect(await readFile(c.m.rc, 'utf8')).toBe(rcBefore);
  });
});
