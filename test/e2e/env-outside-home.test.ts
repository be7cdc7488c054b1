// The loader-path step with a toolkit folder outside the home folder (issue #30): the exit code, the
// step's words, verify's verdict and the doctor's afterwards agree. Verify judges what a new shell
// gets (the rc file's cudawiz script), never this process's environment or a change that was not made.
// The built CLI in real child processes, as `nobody` (setpriv) and as the tester (root where tests run
// as root), against the loopback mirror; HOME and the toolkit folder are temp dirs.
import { chmod, lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { englishIn } from '../helpers/english-runs.js';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { builtCli, runBuilt } from '../helpers/cli.js';
import { laptop } from '../helpers/laptop.js';
import { asOtherUser, canSwitchToNobody, otherUserCli, otherUserLabel } from '../helpers/other-user.js';
import { redistUser } from '../helpers/redist-user.js';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

async function dataDiskUser() {
  const m = await redistUser({ outsideHome: true });
  mirror = m.mirror;
  return m;
}

type Event = { type: string; id?: string; ok?: boolean; exitCode?: number; summary?: string; evidence?: string[]; message?: string; fix?: string; line?: string };
const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);
const stepDone = (ev: Event[], id: string) => ev.find((e) => e.type === 'step-done' && e.id === id);
type Report = { findings: { id: string; status: string; title: string; evidence?: string[] }[] };
/** libcudart's verdict: its own finding, or the doctor's one load-order finding for the folder that decides it (src/doctor/group.ts). */
const cudart = (r: Report) => r.findings.find((f) => f.id === 'library:cudart' || (f.id.startsWith('load-order:') && (f.evidence ?? []).some((e) => e.startsWith('libcudart.so'))));
const failedLibraries = (r: Report) => r.findings.filter((f) => f.status === 'fail' && (f.id.startsWith('librar') || f.id.startsWith('load-order:'))).map((f) => f.id);

const tester = runningAsRoot ? 'as root' : 'as this user';

describe('the redist route, toolkit folder outside the home folder', () => {
  for (const who of [otherUserLabel, tester]) {
    const asTester = who === tester;
    it(`${who}, --configure-env yes: writes the user's own env script, verify judges a new shell, exit 0, the doctor in a new shell passes`, async () => {
      const m = await dataDiskUser();
      // As root, the data disk is root's: root never lays a toolkit for its programs into a folder another user owns (#37 R2).
      if (asTester && runningAsRoot) await execa('chown', ['-R', '0:0', path.join(m.base, 'data')]);
      const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'yes', '--json', ...m.globals], { asTester });
      const ev = events(r.stdout);
      expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
      const script = path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh');
      // Never "already done": the step wrote the script and the rc line, and says how this terminal gets them.
      expect(stepDone(ev, 'configure-env')).toMatchObject({ summary: '2 change(s) for your user, recorded for rollback' });
      expect(stepDone(ev, 'configure-env')?.evidence).toEqual(expect.arrayContaining([script, path.join(m.home, '.bashrc'), `new terminals have it; for this one: . '${script}'`]));
      expect(await readFile(script, 'utf8')).toContain(path.join(m.toolkit, 'lib64'));
      expect(await readFile(path.join(m.home, '.bashrc'), 'utf8')).toContain(script);
      // Verify judged the loader path a new terminal gets, and said so.
      const verify = stepDone(ev, 'verify')!;
      expect(verify.evidence?.join('\n')).toContain(`judged as a new terminal sees it (with ${script})`);
      // A new shell (the user's .bashrc read): the doctor agrees.
      const doctor = await m.run(['doctor', '--tf', '2.10', '--json', ...m.globals], { source: path.join(m.home, '.bashrc'), asTester });
      const report = JSON.parse(doctor.stdout) as Report;
      expect(report.findings.filter((f) => f.status === 'fail'), doctor.stdout).toEqual([]);
      expect(report.findings.find((f) => f.id === 'library:cudart')?.title).toContain(path.join(m.toolkit, 'lib64'));
      expect(doctor.code).toBe(0);
      // Run again: now it is already done, because a new shell finds them.
      const again = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--json', ...m.globals], { asTester });
      const plan = events(again.stdout).find((e) => e.type === 'plan') as unknown as { steps: { id: string; done: boolean; reason?: string }[] };
      expect(plan.steps.find((s) => s.id === 'configure-env')).toMatchObject({ done: true, reason: 'the loader already finds them' });
      expect(again.code, again.stdout).toBe(0);
    });
  }

  it(`${otherUserLabel}, --configure-env no: the lines to add are shown, nothing is written, verify fails as the doctor does, exit 1`, async () => {
    const m = await dataDiskUser();
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', '--json', ...m.globals]);
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: false, exitCode: 1 });
    expect(r.code).toBe(1);
    const env = stepDone(ev, 'configure-env')!;
    expect(env.summary).toBe('left as it is (--configure-env no); to do it yourself:');
    expect(env.evidence?.join('\n')).toContain(`export LD_LIBRARY_PATH="${path.join(m.toolkit, 'lib64')}:`);
    await expect(lstat(path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh'))).rejects.toThrow();
    expect(await readFile(path.join(m.home, '.bashrc'), 'utf8')).toBe("# the user's own bashrc\n");
    // Verify did not pass a layer on the change that was not made: the libraries fail, naming the folder off the path.
    const failed = ev.find((e) => e.type === 'step-failed' && e.id === 'verify')!;
    expect(failed.message).toMatch(new RegExp(`of TensorFlow's libraries are in ${path.join(m.toolkit, 'lib64').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([^)]*\\) but not on the library search path`));
    // The doctor in a new shell says the same.
    const doctor = await m.run(['doctor', '--tf', '2.10', '--json', ...m.globals], { source: path.join(m.home, '.bashrc') });
    const report = JSON.parse(doctor.stdout) as Report;
    expect(failedLibraries(report).length).toBeGreaterThan(0);
    expect(cudart(report)).toMatchObject({ status: 'fail' });
    expect(doctor.code).toBe(1);
    // The user who adds the printed lines has what verify asked for.
    const fixed = await m.run(['doctor', '--tf', '2.10', ...m.globals], { env: m.ownLoaderPath });
    expect(fixed.code, fixed.stdout).toBe(0);
  });

  it(`${otherUserLabel}, --lang zh, --configure-env no: the step, verify and exit 1 in Chinese, with no English sentence`, async () => {
    const m = await dataDiskUser();
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', '--lang', 'zh', '--no-color', ...m.globals]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('保持不变（--configure-env no）；如需自行设置：');
    expect(out).toContain(`export LD_LIBRARY_PATH="${path.join(m.toolkit, 'lib64')}:`);
    expect(out).toMatch(/[\u4e00-\u9fff]/);
    expect(englishIn(out)).toEqual([]);
    const yes = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'yes', '--lang', 'zh', '--no-color', ...m.globals]);
    expect(yes.code, yes.stdout + yes.stderr).toBe(0);
    expect(yes.stdout).toContain('新开的终端已生效；当前终端请运行：');
    expect(yes.stdout).toContain('按新开终端的情况判断');
    expect(englishIn(yes.stdout + yes.stderr)).toEqual([]);
  });
});

/** The shared toolkit-route laptop (fixture runfile, cuDNN tgz) with a fresh user: HOME apart from the CUDA root, bash, nothing on the loader path but the driver. */
async function toolkitUser(where: 'outside' | 'under') {
  const l = await laptop();
  mirror = l.mirror;
  const home = where === 'outside' ? path.join(l.home, 'user') : l.home;
  await mkdir(home, { recursive: true });
  await writeFile(path.join(home, '.bashrc'), "# the user's own bashrc\n");
  const env = { ...l.env, HOME: home, SHELL: '/bin/bash', LD_LIBRARY_PATH: path.join(l.home, 'driver-lib') };
  const args = (...extra: string[]) => [...extra, ...l.globals, '--downloads', l.downloads];
  return { ...l, home, env, args };
}

describe('the toolkit route (NVIDIA installer)', () => {
  it(`${tester}, CUDA root outside the home folder, --configure-env no: the ld.so.conf.d lines are shown, verify fails as the doctor does, exit 1`, async () => {
    const m = await toolkitUser('outside');
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--json'), { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: false, exitCode: 1 });
    const env = stepDone(ev, 'configure-env')!;
    expect(env.summary).toBe('left as it is (--configure-env no); to do it yourself:');
    expect(env.evidence).toContain('sudo ldconfig');
    expect(env.evidence?.join('\n')).toContain(path.join(m.toolkit, 'lib64'));
    const failed = ev.find((e) => e.type === 'step-failed' && e.id === 'verify')!;
    expect(failed.message).toMatch(new RegExp(`of TensorFlow's libraries are in ${path.join(m.toolkit, 'lib64').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([^)]*\\) but not on the library search path`));
    const doctor = await runBuilt(['doctor', '--tf', '2.3', '--json', ...m.globals], { env: m.env });
    expect(cudart(JSON.parse(doctor.stdout) as Report)).toMatchObject({ status: 'fail' });
    expect(doctor.code).toBe(1);
  });

  it(`${tester}, CUDA root under the home folder, --configure-env yes: the env script is written, verify judges a new shell and passes, exit 0 (#25 item 6)`, async () => {
    const m = await toolkitUser('under');
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes', '--configure-env', 'yes', '--json'), { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    const script = path.join(m.home, '.config/cudawiz/env-cuda-10.1.sh');
    expect(await readFile(script, 'utf8')).toContain(path.join(m.toolkit, 'lib64'));
    expect(stepDone(ev, 'verify')?.evidence?.join('\n')).toContain(`judged as a new terminal sees it (with ${script})`);
    // This process's loader path never had the toolkit: only a new shell does, and there the doctor passes.
    const doctor = await execa('bash', ['-c', '. "$0" && exec "$@"', path.join(m.home, '.bashrc'), process.execPath, builtCli, 'doctor', '--tf', '2.3', '--json', ...m.globals], { env: m.env, extendEnv: false, reject: false });
    // (This machine's own Python may be outside TF 2.3's range: the libraries are what this test is about.)
    const report = JSON.parse(String(doctor.stdout)) as Report;
    expect(failedLibraries(report), String(doctor.stdout)).toEqual([]);
    expect(report.findings.find((f) => f.id === 'library:cudart')).toMatchObject({ status: 'pass' });
    // The same doctor in this process's environment (no rc file read) fails: verify did not judge that one.
    const old = await runBuilt(['doctor', '--tf', '2.3', '--json', ...m.globals], { env: m.env });
    expect(cudart(JSON.parse(old.stdout) as Report)).toMatchObject({ status: 'fail' });
  });

  it(`${otherUserLabel}, CUDA root outside the home folder, --configure-env yes: waits on the sudo lines (exit 3), never "already done"`, async () => {
    const m = await toolkitUser('outside');
    if (canSwitchToNobody) {
      await chmod(path.dirname(m.home), 0o755);
      await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, path.dirname(m.home)]);
    }
    const cli = await otherUserCli();
    const [file, ...args] = asOtherUser([process.execPath, cli, ...m.args('install', '--tf', '2.3', '--yes', '--configure-env', 'yes', '--json')]);
    const r = await execa(file, args, { env: m.env, extendEnv: false, reject: false, cwd: m.home });
    const ev = events(String(r.stdout));
    expect(ev.at(-1), String(r.stdout) + String(r.stderr)).toMatchObject({ type: 'result', ok: false, exitCode: 3 });
    expect(r.exitCode).toBe(3);
    const need = ev.find((e) => e.type === 'needs-input' && e.id === 'configure-env') as unknown as { need: { kind: string; message: string; fix: string } };
    expect(need.need.kind).toBe('elevation');
    expect(need.need.message).toContain(`the loader does not find ${m.toolkit} yet, and only root can add it: run the lines below with sudo`);
    expect(need.need.fix).toContain("sudo tee '/etc/ld.so.conf.d/cudawiz-cuda-10.1.conf'");
    expect(need.need.fix).toContain('sudo ldconfig');
    expect(ev.some((e) => e.id === 'verify' && e.type === 'step-done')).toBe(false);
  });
});
