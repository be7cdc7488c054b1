// The redist route end to end, as a normal user: the built CLI in real child processes run as
// `nobody` (setpriv, as the elevation tests do) against the local NVIDIA mirror serving fixture
// redist archives in NVIDIA's layout (real tar.xz, a fixture redistrib_11.8.0.json, their sha256 in
// a --catalog overlay) and a public cuDNN tgz. No --cuda-root: the toolkit goes to the user's own
// data folder; the loader path goes into the user's own env script. Nothing outside temp dirs.
import { chmod, chown, copyFile, lstat, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { asOtherUser, canSwitchToNobody, otherUserCli, otherUserLabel, readableCopy } from '../helpers/other-user.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';

const CUDNN12 = 'cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz';
const CUDNN12_URL_PATH = `compute/cudnn/redist/cudnn/linux-x86_64/${CUDNN12}`;

/**
 * A user's Linux laptop: RTX 2060 on driver 525 (fixture nvidia-smi), bash, Python 3.10 (fixture), no
 * CUDA, nothing in the system changed. `cuda12`: the mirror serves CUDA 12.9.1's archives and cuDNN
 * 8.9.7 for CUDA 12 (TF 2.15–2.17) instead of 11.8's and cuDNN 8.1.
 */
async function userLaptop(options: { cuda12?: boolean } = {}) {
  const base = await tempDir('cw-redist-e2e-');
  await chmod(base, 0o755);
  const home = path.join(base, 'home');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(base, 'driver-lib');
  await mkdir(bin, { recursive: true });
  await mkdir(driverLib);
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  await writeFile(path.join(home, '.bashrc'), '# the user\'s own bashrc\n');
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = options.cuda12
    ? await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-archive', version: '8.9.7.29', cuda: '12', fileName: CUDNN12 })
    : await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(options.cuda12 ? CUDNN12_URL_PATH : CUDNN_URL_PATH, await readFile(cudnn.file));
  const cudnnEntry = options.cuda12
    ? { version: '8.9.7.29', cuda: '12', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN12_URL_PATH}`, sha256: served.sha256, size: served.size } } }
    : { version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } };
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { release: options.cuda12 ? '12.9.1' : '11.8.0', overlayExtra: { cudnn: [cudnnEntry] } });
  const overlay = path.join(home, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  if (canSwitchToNobody) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);
  // The user runs a copy of the built CLI and reads a copy of the Python fixture: the checkout may be where only its owner can go.
  const builtCli = await otherUserCli();
  const pythonPath = path.join(await readableCopy('test/fixtures/python/py310'), 'test/fixtures/python/py310');
  const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: driverLib, PYTHONPATH: pythonPath };
  const globals = ['--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(home, 'cache')];
  /** The built CLI as that user (nobody when the tests run as root), optionally after sourcing a file as a new shell would. */
  const run = async (argv: string[], options: { source?: string; env?: Record<string, string> } = {}) => {
    const command = options.source ? ['bash', '-c', `. "$0" && exec "$@"`, options.source, process.execPath, builtCli, ...argv] : [process.execPath, builtCli, ...argv];
    const [file, ...args] = asOtherUser(command);
    const r = await execa(file, args, { env: { ...env, ...options.env }, extendEnv: false, cwd: home, reject: false });
    return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
  const toolkit = path.join(home, `.local/share/cudawiz/cuda/cuda-${options.cuda12 ? '12.9' : '11.8'}`);
  // What a user who added the printed lines has (--configure-env no).
  const ownLoaderPath = { LD_LIBRARY_PATH: `${path.join(toolkit, 'lib64')}:${driverLib}` };
  return { home, fixture, run, globals, toolkit, ownLoaderPath };
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

  it('#30: with --cuda-root outside the home folder, the loader path is really made for this user (not "already done"), and the doctor agrees in a new shell', async () => {
    const m = await userLaptop();
    const data = path.join(path.dirname(m.home), 'data', 'cuda');
    await mkdir(data, { recursive: true });
    if (canSwitchToNobody) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, path.dirname(data)]);
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--cuda-root', data, '--yes', '--json', ...m.globals]);
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    const plan = ev.find((e) => e.type === 'plan')!;
    expect(plan.steps!.find((s) => s.id === 'configure-env')).toMatchObject({ done: false });
    const env = ev.find((e) => e.type === 'step-done' && e.id === 'configure-env')!;
    expect(env.evidence?.join('\n')).toContain(`${path.join(data, 'cuda-11.8')} is outside your home folder: it is made findable for you only`);
    const script = path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh');
    expect(await readFile(script, 'utf8')).toContain(path.join(data, 'cuda-11.8', 'lib64'));
    expect(await readFile(path.join(m.home, '.bashrc'), 'utf8')).toContain(script);
    const doctor = await m.run(['doctor', '--tf', '2.10', '--cuda-root', data, '--json', ...m.globals], { source: script });
    expect((JSON.parse(doctor.stdout) as { findings: { status: string }[] }).findings.filter((f) => f.status === 'fail'), doctor.stdout).toEqual([]);
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
