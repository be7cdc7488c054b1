// The redist route end to end, as a normal user: the built CLI in real child processes run as
// `nobody` (setpriv, as the elevation tests do) against the local NVIDIA mirror serving fixture
// redist archives in NVIDIA's layout (real tar.xz, a fixture redistrib_11.8.0.json, their sha256 in
// a --catalog overlay) and a public cuDNN tgz. No --cuda-root: the toolkit goes to the user's own
// data folder; the loader path goes into the user's own env script. Nothing outside temp dirs.
import { lstat, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { redistUser } from '../helpers/redist-user.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { canSwitchToNobody, otherUserLabel } from '../helpers/other-user.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** The user's laptop (test/helpers/redist-user.ts), its mirror closed after each test. */
async function userLaptop(options: { cuda12?: boolean } = {}) {
  const m = await redistUser(options);
  mirror = m.mirror;
  return m;
}

const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id?: string; ok?: boolean; exitCode?: number; summary?: string; evidence?: string[]; steps?: { id: string; done: boolean; reason?: string }[] });

describe(`cudawiz install --route redist, as a normal user (${otherUserLabel})`, () => {
  it('sets up TF 2.10 with no administrator, installer or login, and the doctor passes in a new shell', async () => {
    const m = await userLaptop();
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--json', ...m.globals]);
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(['preflight', 'download-cuda-redist', 'unpack-cuda-redist', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    // The plan says which CUDA and why.
    const preflight = ev.find((e) => e.type === 'step-done' && e.id === 'preflight')!;
    expect(preflight.evidence?.[0]).toContain("TensorFlow 2.10 was built with CUDA 11.2; CUDA 11.8's libraries carry the same names (libcudart.so.11.0, libcublas.so.11, …) and run with your driver 525");
    // One toolkit folder in the user's data dir with the standard layout; every archive came from the mirror once.
    expect(await readdir(m.toolkit)).toEqual(expect.arrayContaining(['bin', 'include', 'lib64', 'nvvm', 'version.json', '.cudawiz']));
    expect(await readdir(path.join(m.toolkit, 'lib64'))).toEqual(expect.arrayContaining(['libcudart.so.11.0', 'libcublasLt.so.11', 'libcudnn.so.8']));
    for (const a of Object.values(m.fixture.archives)) expect(mirror!.fileRequests(path.posix.basename(a.urlPath)).length).toBe(1);
    if (canSwitchToNobody) expect((await lstat(path.join(m.toolkit, 'lib64/libcudart.so.11.8.89'))).uid).toBe(NOBODY);
    // The loader path for this user only: an env script in ~/.config and one line in ~/.bashrc.
    const script = path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh');
    expect(await readFile(script, 'utf8')).toContain(path.join(m.toolkit, 'lib64'));
    expect(await readFile(path.join(m.home, '.bashrc'), 'utf8')).toContain(script);

    const doctor = await m.run(['doctor', '--tf', '2.10', '--json', ...m.globals], { source: script });
    const report = JSON.parse(doctor.stdout) as { findings: { id: string; status: string; title: string }[] };
    expect(report.findings.filter((f) => f.status === 'fail'), doctor.stdout).toEqual([]);
    expect(report.findings.find((f) => f.id === 'toolkit')).toMatchObject({ status: 'pass' });
    expect(report.findings.find((f) => f.id === 'library:cudart')?.title).toContain(path.join(m.toolkit, 'lib64'));
    expect(doctor.code, doctor.stdout).toBe(0);

    // Again: everything is already done and nothing is fetched.
    const before = mirror!.requests.length;
    const again = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--json', ...m.globals]);
    const plan = events(again.stdout).find((e) => e.type === 'plan')!;
    expect(plan.steps!.filter((s) => !s.done).map((s) => s.id)).toEqual(['preflight', 'verify']);
    expect(mirror!.requests.length).toBe(before);

    // Rollback leaves nothing: the toolkit gone whole, the env script and the rc line undone.
    const rollback = await m.run(['rollback', '--json', ...m.globals]);
    expect(rollback.code, rollback.stdout + rollback.stderr).toBe(0);
    expect(JSON.parse(rollback.stdout).redistToolkits).toEqual([expect.objectContaining({ dir: m.toolkit, release: '11.8.0' })]);
    await expect(lstat(m.toolkit)).rejects.toThrow();
    expect(await readFile(path.join(m.home, '.bashrc'), 'utf8')).toBe("# the user's own bashrc\n");
    await expect(lstat(script)).rejects.toThrow();
  });

  it('sets up TF 2.16 from CUDA 12.9.1\'s archives (nvJitLink too) and cuDNN 8.9 for CUDA 12, and rollback leaves nothing', async () => {
    const m = await userLaptop({ cuda12: true });
    const r = await m.run(['install', '--tf', '2.16', '--route', 'redist', '--yes', '--json', ...m.globals]);
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    const preflight = ev.find((e) => e.type === 'step-done' && e.id === 'preflight')!;
    expect(preflight.evidence?.[0]).toContain("TensorFlow 2.16 was built with CUDA 12.3; CUDA 12.9's libraries carry the same names (libcudart.so.12, libcublas.so.12, …) and run with your driver 525");
    expect(await readdir(path.join(m.toolkit, 'lib64'))).toEqual(expect.arrayContaining(['libcudart.so.12', 'libcusparse.so.12', 'libnvJitLink.so.12', 'libcudnn.so.8']));
    expect(Object.keys(m.fixture.archives)).toContain('libnvjitlink');
    for (const a of Object.values(m.fixture.archives)) expect(mirror!.fileRequests(path.posix.basename(a.urlPath)).length).toBe(1);
    const script = path.join(m.home, '.config/cudawiz/env-cuda-12.9.sh');
    const doctor = await m.run(['doctor', '--tf', '2.16', '--json', ...m.globals], { source: script });
    const report = JSON.parse(doctor.stdout) as { findings: { id: string; status: string; title: string }[] };
    expect(report.findings.filter((f) => f.status === 'fail'), doctor.stdout).toEqual([]);
    expect(report.findings.find((f) => f.id === 'library:cusparse')?.title).toContain(path.join(m.toolkit, 'lib64'));
    const rollback = await m.run(['rollback', '--json', ...m.globals]);
    expect(rollback.code, rollback.stdout + rollback.stderr).toBe(0);
    expect(JSON.parse(rollback.stdout).redistToolkits).toEqual([expect.objectContaining({ dir: m.toolkit, release: '12.9.1' })]);
    await expect(lstat(m.toolkit)).rejects.toThrow();
    await expect(lstat(script)).rejects.toThrow();
  });

  it('refuses a corrupted archive from the mirror and writes no toolkit', async () => {
    const m = await userLaptop();
    mirror!.fault({ mode: 'wrong-bytes', path: 'libcublas-linux-x86_64-11.11.3.6-archive.tar.xz', times: Infinity });
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', ...m.globals]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('libcublas-linux-x86_64-11.11.3.6-archive.tar.xz failed verification and was deleted');
    await expect(lstat(m.toolkit)).rejects.toThrow();
  });

  it('repair after a damaged library fetches only that component again, and the doctor passes', async () => {
    const m = await userLaptop();
    const first = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', ...m.globals], { env: m.ownLoaderPath });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await writeFile(path.join(m.toolkit, 'lib64/libcusparse.so.11.7.5.86'), 'overwritten by something else');
    await execa('rm', [path.join(m.home, 'cache', 'libcusparse-linux-x86_64-11.7.5.86-archive.tar.xz')]);
    const before = mirror!.requests.length;
    const r = await m.run(['repair', '--tf', '2.10', '--yes', '--configure-env', 'no', ...m.globals], { env: m.ownLoaderPath });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('fetched and unpacked again: libcusparse');
    expect(mirror!.requests.slice(before).map((q) => path.posix.basename(q.path))).toEqual(['libcusparse-linux-x86_64-11.7.5.86-archive.tar.xz']);
    const doctor = await m.run(['doctor', '--tf', '2.10', ...m.globals], { env: m.ownLoaderPath });
    expect(doctor.code, doctor.stdout).toBe(0);
  });
});

describe(`cudawiz install --route redist with --lang zh (${otherUserLabel})`, () => {
  it('prints its steps, progress, summaries, verify layers, doctor and rollback in Chinese, with no English sentence', async () => {
    const { englishIn } = await import('../helpers/english-runs.js');
    const m = await userLaptop();
    const dry = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--dry-run', '--lang', 'zh', '--no-color', ...m.globals]);
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--lang', 'zh', '--no-color', ...m.globals]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const script = path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh');
    const doctor = await m.run(['doctor', '--tf', '2.10', '--lang', 'zh', '--no-color', ...m.globals], { source: script });
    const again = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--lang', 'zh', '--no-color', ...m.globals]);
    const rollback = await m.run(['rollback', '--lang', 'zh', '--no-color', ...m.globals]);
    expect(rollback.code, rollback.stdout + rollback.stderr).toBe(0);
    const outputs = { dry, install: r, doctor, again, rollback };
    for (const [name, o] of Object.entries(outputs)) {
      expect(o.stdout + o.stderr, name).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(Object.fromEntries(Object.entries(outputs).map(([name, o]) => [name, englishIn(o.stdout + o.stderr)]))).toEqual({ dry: [], install: [], doctor: [], again: [], rollback: [] });
  });
});
