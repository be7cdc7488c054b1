// Repair on machines broken the way users break them (#25): each class gets its remedy — the smallest
// change that fixes its cause — or stops with the action, having changed nothing; afterwards the
// doctor, run in a new bash that reads the user's ~/.bashrc, has no failure left for that TensorFlow.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/doctor/finding.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { runBuilt, runCli } from '../helpers/cli.js';
import { brokenMachine, condaEnv, CUDA118_LIBS, fakeTf, venvWithWheels, hostOf, newShellEnv, type BrokenMachine } from '../helpers/broken-machine.js';
import { buildCudnnArchive, treeDigest } from '../helpers/cudnn-archive.js';
import { startMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';

interface Repaired {
  findings: Finding[];
  events: RunnerEvent[];
  exitCode: number;
  stderr: string;
}

/** `cudawiz repair --tf V --yes --json` (the built CLI) in the user's current shell; its findings from `doctor --json` there. */
async function repair(m: BrokenMachine, env: Record<string, string>, tf: string, extra: { overlay?: string; mirror?: string; lang?: string } = {}): Promise<Repaired> {
  const flags = [...m.globals, ...(extra.overlay ? ['--catalog', extra.overlay] : []), ...(extra.mirror ? ['--mirror', extra.mirror] : []), ...(extra.lang ? ['--lang', extra.lang] : [])];
  const doctor = await runBuilt(['doctor', '--tf', tf, '--json', ...flags], { env });
  const findings = JSON.parse(doctor.stdout).findings as Finding[];
  const r = await runBuilt(['repair', '--tf', tf, '--yes', '--json', ...flags], { env });
  const events = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunnerEvent);
  return { findings, events, exitCode: r.code, stderr: r.stderr };
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

  it("a conda env whose own older cuDNN (and CUDA 11.2) come first on LD_LIBRARY_PATH: the system's 11.8 + cuDNN 8.6 made to win, conda's command named", async () => {
    const m = await brokenMachine();
    const right = path.join(m.cudaRoot, 'cuda-11.8');
    await m.fx.toolkit(right, { version: '11.8.89', versionFile: 'version.json', libraries: CUDA118_LIBS, cudnn: '8.6.0' });
    await m.ldCache([...CUDA118_LIBS, 'libcudnn.so.8'].map((f) => ({ name: f, path: path.join(right, 'lib64', f) })));
    // As TF ≤ 2.11's own install guide had users make it: cudatoolkit=11.2 cudnn=8.1.0 from conda-forge.
    const prefix = await condaEnv(m, 'tf', [
      { name: 'cudatoolkit', version: '11.2.2', build: 'hbe64b41_10', libs: [...CUDA118_LIBS, 'libcudart.so.11.2.152'] },
      { name: 'cudnn', version: '8.1.0.77', build: 'h90431f1_0', libs: ['libcudnn.so.8', 'libcudnn.so.8.1.0'] },
    ]);
    const site = path.join(m.home, 'site');
    await fakeTf(m, site, '2.12.0');
    await m.rcLines([`export CONDA_PREFIX=${prefix} CONDA_DEFAULT_ENV=tf`, 'export LD_LIBRARY_PATH=$CONDA_PREFIX/lib/:$LD_LIBRARY_PATH', `export PYTHONPATH=${site}`]);
    const envBefore = await treeDigest(prefix);
    const r = await repair(m, await newShellEnv(m), '2.12');

    const lo = r.findings.find((f) => f.id.startsWith('load-order:'))!;
    expect(fails(r.findings)).toEqual([`load-order:${right}/lib64`]);
    expect(lo.cause).toMatchObject({ kind: 'load-order', staleDirs: [{ dir: `${prefix}/lib/`, via: 'LD_LIBRARY_PATH' }], owner: { manager: 'conda', prefix } });
    expect(lo.fix).toContain(`conda install -p ${prefix} "cudnn>=8.6,<9" cudatoolkit=11.8`);
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['load-order', 'verify']);
    expect(r.exitCode, JSON.stringify(r.events.filter((e) => e.type === 'step-failed'))).toBe(0);
    // The env is conda's: not a file of it changed.
    expect(await treeDigest(prefix)).toEqual(envBefore);
    expect(fails((await doctorInNewShell(m, '2.12')).findings)).toEqual([]);
  });

  it('a conda env whose CUDA 12.2 runtime needs a newer driver than 470: stops with the driver it needs and the conda pin that fits, changing nothing', async () => {
    const m = await brokenMachine({ smi: 'r470-old-driver' });
    const prefix = await condaEnv(m, 'tf215', [
      { name: 'cuda-cudart', version: '12.2.140', build: 'hd3aeb46_0', libs: ['libcudart.so.12', 'libcudart.so.12.2.140'] },
      { name: 'cudnn', version: '8.9.7.29', build: 'hcdd5f01_2', libs: ['libcudnn.so.8'] },
    ]);
    await m.rcLines([`export CONDA_PREFIX=${prefix} CONDA_DEFAULT_ENV=tf215`]);
    const rcBefore = await readFile(m.rc, 'utf8');
    const r = await repair(m, await newShellEnv(m), '2.15');
    expect(fails(r.findings)).toEqual(expect.arrayContaining(['conda-driver']));
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['stop']);
    const failed = r.events.find((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>;
    expect(failed.message).toContain('470.82.01');
    expect(failed.fix).toMatch(/525\.60\.13/);
    expect(failed.fix).toMatch(/conda install cuda-cudart=11\.\d/);
    expect(failed.fix).toContain('cudawiz will not: a display driver is installed the way it came');
    expect(failed.fix).toContain('Nothing was changed.');
    expect(r.exitCode).toBe(1);
    expect(await readFile(m.rc, 'utf8')).toBe(rcBefore);
    expect(existsSync(path.join(m.home, '.config', 'cudawiz'))).toBe(false);
  });

  it("a system cuDNN 8.5 in /usr/lib/x86_64-linux-gnu, one minor too old: imports only cuDNN 8.6 (no toolkit download), puts the toolkit first, names apt's command", async () => {
    const m = await brokenMachine();
    const right = path.join(m.cudaRoot, 'cuda-11.8');
    const sys = path.join(m.sysroot, 'usr/lib/x86_64-linux-gnu');
    await m.fx.toolkit(right, { version: '11.8.89', versionFile: 'version.json', libraries: CUDA118_LIBS });
    // apt's libcudnn8 8.5: the library in the multiarch folder, the header in /usr/include.
    await m.fx.file(path.join(sys, 'libcudnn.so.8'), 'ELF');
    await m.fx.file(path.join(m.sysroot, 'usr/include/cudnn_version.h'), '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 0\n');
    await m.ldCache([...CUDA118_LIBS.map((f) => ({ name: f, path: path.join(right, 'lib64', f) })), { name: 'libcudnn.so.8', path: path.join(sys, 'libcudnn.so.8') }]);
    const site = path.join(m.home, 'site');
    await fakeTf(m, site, '2.12.0');
    await m.rcLines([`export PYTHONPATH=${site}`]);
    const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
    try {
      const archive = await buildCudnnArchive(await tempDir('cw-cudnn86-'), { era: 'linux-archive', version: '8.6.0.163', cuda: '11' });
      const bytes = await readFile(archive.file);
      await mirror.addFile(`compute/cudnn/redist/cudnn/linux-x86_64/${archive.name}`, bytes);
      const overlay = path.join(m.home, 'overlay.json');
      await writeFile(overlay, JSON.stringify({ cudnn: [{ version: '8.6.0.163', cuda: '11', archives: { linux: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length } } }] }));
      const sysBefore = await treeDigest(m.sysroot);
      const doctor = await runCli(['doctor', '--tf', '2.12', '--json', ...m.globals], { host: hostOf(m, await newShellEnv(m)) });
      const stale = (JSON.parse(doctor.stdout).findings as Finding[]).find((f) => f.id === 'library:cudnn')!;
      expect(stale.title).toBe(`libcudnn.so.8 resolves to ${sys}, but it is cuDNN 8.5.0, older than 8.6`);
      expect(stale.fix).toContain('or replace the stale copy with its package manager: sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8');
      const r = await repair(m, await newShellEnv(m), '2.12', { overlay, mirror: mirror.url });
      expect(fails(r.findings)).toEqual(expect.arrayContaining(['cudnn']));
      const steps = plan(r.events).steps;
      expect(steps.map((s) => s.id)).toEqual(['disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'verify']);
      expect(steps.find((s) => s.id === 'load-order')!.title).toContain(`Put ${right}/lib64 first for new shells`);
      expect(r.exitCode, JSON.stringify(r.events.filter((e) => e.type === 'step-failed'))).toBe(0);
      // Only the cuDNN archive came down; the system's copy is apt's and stays as it was.
      expect(mirror.requests.map((q) => q.path)).toEqual([expect.stringContaining(archive.name)]);
      expect(await treeDigest(m.sysroot)).toEqual(sysBefore);
      expect(fails((await doctorInNewShell(m, '2.12')).findings)).toEqual([]);
    } finally {
      await mirror.close();
    }
  });

  const CU12 = (runtime: string, cudnn: string, cudnnLib: string) => [
    { name: 'nvidia-cuda-runtime-cu12', version: runtime, part: 'cuda_runtime', libs: ['libcudart.so.12'] },
    { name: 'nvidia-cublas-cu12', version: '12.3.4.1', part: 'cublas', libs: ['libcublas.so.12', 'libcublasLt.so.12'] },
    { name: 'nvidia-cufft-cu12', version: '11.0.12.1', part: 'cufft', libs: ['libcufft.so.11'] },
    { name: 'nvidia-curand-cu12', version: '10.3.4.107', part: 'curand', libs: ['libcurand.so.10'] },
    { name: 'nvidia-cusolver-cu12', version: '11.5.4.101', part: 'cusolver', libs: ['libcusolver.so.11'] },
    { name: 'nvidia-cusparse-cu12', version: '12.2.0.103', part: 'cusparse', libs: ['libcusparse.so.12'] },
    { name: 'nvidia-cudnn-cu12', version: cudnn, part: 'cudnn', libs: [cudnnLib] },
  ];

  it("a venv whose nvidia/*/lib wheels are not on the loader path (TF 2.16.1): the venv's activate script gets the marked block, nothing downloaded", async () => {
    const m = await brokenMachine();
    const venv = path.join(m.home, 'venvs', 'ml');
    const site = await venvWithWheels(m, venv, CU12('12.3.101', '8.9.7.29', 'libcudnn.so.8'));
    await fakeTf(m, site, '2.16.1');
    await m.rcLines([`source ${venv}/bin/activate`]);
    const r = await repair(m, await newShellEnv(m), '2.16');
    expect(fails(r.findings)).toEqual(['wheel-loader-path']);
    const steps = plan(r.events).steps;
    expect(steps.map((s) => s.id)).toEqual(['wheel-loader-path', 'verify']);
    expect(steps[0].title).toMatch(/ — fixes: TensorFlow 2\.16\.1/);
    expect(r.exitCode, JSON.stringify(r.events.filter((e) => e.type === 'step-failed'))).toBe(0);
    expect(await readFile(path.join(venv, 'bin', 'activate'), 'utf8')).toContain('# >>> cudawiz:');
    expect(fails((await doctorInNewShell(m, '2.16')).findings)).toEqual([]);
  });

  it('a venv where another framework pinned an older nvidia-cudnn-cu12: stops with the conflict in one sentence and offers a venv of its own, changing nothing', async () => {
    const m = await brokenMachine();
    const venv = path.join(m.home, 'venvs', 'ml');
    const site = await venvWithWheels(m, venv, CU12('12.5.82', '8.9.2.26', 'libcudnn.so.8'), [
      { name: 'torch', version: '2.3.0', requires: ['filelock', 'nvidia-cudnn-cu12==8.9.2.26; platform_system == "Linux" and platform_machine == "x86_64"'] },
    ]);
    await fakeTf(m, site, '2.18.0');
    await m.rcLines([`source ${venv}/bin/activate`]);
    // Python's own bytecode cache aside (importing TF writes it), the venv is as it was.
    const digest = async () => Object.fromEntries(Object.entries(await treeDigest(venv)).filter(([k]) => !k.includes('__pycache__')));
    const before = await digest();
    const r = await repair(m, await newShellEnv(m), '2.18');
    const pin = r.findings.find((f) => f.id === 'pip-pin')!;
    expect(pin.title).toBe('torch 2.3.0 requires nvidia-cudnn-cu12==8.9.2.26, and TensorFlow 2.18.0 needs cuDNN 9.3: one environment cannot hold both');
    expect(plan(r.events).steps.map((s) => s.id)).toEqual(['stop']);
    const failed = r.events.find((e) => e.type === 'step-failed') as Extract<RunnerEvent, { type: 'step-failed' }>;
    expect(failed.fix).toContain(`Give TensorFlow an environment of its own: cudawiz install --tf 2.18.0 --route pip --venv ${path.join(m.home, 'venvs', 'tf-2.18')}`);
    expect(failed.fix).toContain("removing another framework's pinned package would break that framework");
    expect(r.exitCode).toBe(1);
    expect(await digest()).toEqual(before);
  });
});
