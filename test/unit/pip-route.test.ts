// The pip-managed CUDA route on a real virtual environment: a fixture pip prints what pip printed
// for tensorflow[and-cuda] and lays out the nvidia wheels; nothing comes from a package index.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { CudawizError } from '../../src/errors.js';
import { realHost, type Host } from '../../src/host.js';
import {
  applyWheelLibraryFix,
  createVenv,
  parsePipLine,
  pipInstallTensorflow,
  planWheelLibraryFix,
  probePipCuda,
  undoWheelLibraryFix,
  whichLibraryTfLoads,
  type PipEvent,
} from '../../src/pip/index.js';
import { activatedLdLibraryPath, fixtureVenv } from '../fixtures/venv/fixture-venv.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const host = (env: Record<string, string> = {}): Host => ({ ...realHost({ PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }), home: '/nonexistent-home' });

async function installed(tf: string) {
  const dir = await fixtureVenv(path.join(await tempDir(), 'tf'));
  const events: PipEvent[] = [];
  const result = await pipInstallTensorflow(host(), { venv: dir, catalog, tf, onEvent: (e) => events.push(e) });
  return { dir, events, result, python: path.join(dir, 'bin', 'python') };
}

describe('a virtual environment for the pip route', () => {
  it('is created with python3 -m venv, and used as it is the second time', async () => {
    const dir = path.join(await tempDir(), 'tf');
    const first = await createVenv(host(), { dir });
    expect(first.created).toBe(true);
    expect(existsSync(first.python)).toBe(true);
    expect(existsSync(first.pip)).toBe(true);
    expect(first.activate).toBe(path.join(dir, 'bin', 'activate'));
    const again = await createVenv(host(), { dir });
    expect(again.created).toBe(false);
  });

  it('refuses a directory that holds something else, and leaves it as it was', async () => {
    const dir = await tempDir();
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    await expect(createVenv(host(), { dir })).rejects.toMatchObject({ code: 'venv-not-a-venv', exitCode: 2 });
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it("on Ubuntu without python3-venv says which package to install, and removes the half-made venv", async () => {
    const root = await tempDir();
    // A python that fails the way Debian's does when ensurepip is missing, after writing pyvenv.cfg.
    const fakePython = path.join(root, 'python3');
    writeFileSync(
      fakePython,
      `#!/bin/sh\nmkdir -p "$3/bin" && touch "$3/pyvenv.cfg"\necho "The virtual environment was not created successfully because ensurepip is not\navailable.  On Debian/Ubuntu systems, you need to install the python3-venv\npackage using the following command.\n\n    apt install python3.11-venv\n"\nexit 1\n`,
    );
    chmodSync(fakePython, 0o755);
    const dir = path.join(root, 'env');
    const error = await createVenv(host(), { dir, python: fakePython }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CudawizError);
    expect((error as CudawizError).fix).toBe('Install the venv module first: sudo apt install python3.11-venv');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('pip install "tensorflow[and-cuda]==X" with its output as progress', () => {
  it('reports each package collected, the wheel sizes and the install, for TF 2.14 (CUDA 11.8 wheels)', async () => {
    const { events, result } = await installed('2.14');
    expect(result.requirement).toBe('tensorflow[and-cuda]==2.14.0');
    const collected = events.filter((e) => e.type === 'collecting').map((e) => (e as { name: string }).name);
    expect(collected).toContain('nvidia-cudnn-cu11');
    expect(collected[0]).toBe('tensorflow[and-cuda]'.split('[')[0]);
    const cudnn = events.find((e) => e.type === 'download' && e.file.startsWith('nvidia_cudnn_cu11'));
    expect(cudnn).toMatchObject({ bytes: 728_500_000, cached: false, metadata: false });
    // 489.9 + 168.4 + 728.5 + 58.1 + 128.2 + 204.1 + 210.3 + 13.1 + 19.5 MB, as pip printed them.
    expect(result.wheelBytes).toBe(2_020_100_000);
    expect(events.some((e) => e.type === 'installing' && e.packages.includes('nvidia-cudnn-cu11'))).toBe(true);
    expect(result.installed).toContainEqual({ name: 'tensorflow', version: '2.14.0' });
  });

  it('reads pip lines of every kind', () => {
    expect(parsePipLine('  Using cached nvidia_cudnn_cu12-8.9.7.29-py3-none-manylinux1_x86_64.whl.metadata (1.6 kB)', 10)).toMatchObject({
      type: 'download',
      cached: true,
      metadata: true,
      bytes: 1600,
      totalBytes: 10,
    });
    expect(parsePipLine('Downloading https://files.pythonhosted.org/packages/x/nvidia_nccl_cu12-2.25.1-py3-none-manylinux2014_x86_64.whl (201.4 MB)')).toMatchObject({
      file: 'nvidia_nccl_cu12-2.25.1-py3-none-manylinux2014_x86_64.whl',
      bytes: 201_400_000,
    });
    expect(parsePipLine("WARNING: tensorflow 2.13.1 does not provide the extra 'and-cuda'").type).toBe('warning');
    expect(parsePipLine('Successfully installed nvidia-nccl-cu12-2.19.3 tensorflow-2.16.1')).toMatchObject({
      packages: [
        { name: 'nvidia-nccl-cu12', version: '2.19.3' },
        { name: 'tensorflow', version: '2.16.1' },
      ],
    });
  });

  it('refuses a TensorFlow that predates the and-cuda extra, before running anything', async () => {
    const dir = await tempDir();
    await expect(pipInstallTensorflow(host(), { venv: dir, catalog, tf: '2.10' })).rejects.toMatchObject({ code: 'no-and-cuda', exitCode: 2 });
  });

  it("passes on pip's own error when no wheel matches", async () => {
    const dir = await fixtureVenv(path.join(await tempDir(), 'tf'));
    const error = (await pipInstallTensorflow(host(), { venv: dir, catalog, tf: '2.15' }).catch((e: unknown) => e)) as CudawizError;
    expect(error.code).toBe('pip-install-failed');
    expect(error.message).toContain('No matching distribution found for tensorflow[and-cuda]==2.15.0');
    expect(error.fix).toContain('cudawiz requirements --tf 2.15');
  });

  it('stops pip when the user interrupts, killing the child', async () => {
    const root = await tempDir();
    const dir = await fixtureVenv(path.join(root, 'tf'));
    const pidFile = path.join(root, 'pip.pid');
    const controller = new AbortController();
    const run = pipInstallTensorflow(host({ FAKE_PIP_HANG: '1', FAKE_PIP_PIDFILE: pidFile }), {
      venv: dir,
      catalog,
      tf: '2.16',
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'collecting' && e.name.startsWith('nvidia-')) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('the CUDA and cuDNN that pip brought', () => {
  it('are read from the nvidia wheels: folders, versions, TF', async () => {
    const { dir, python } = await installed('2.18');
    const facts = await probePipCuda(host(), python);
    expect(facts.ran).toBe(true);
    expect(facts.venv).toBe(dir);
    expect(facts.tensorflow).toEqual({ name: 'tensorflow', version: '2.18.0' });
    expect(facts.cudnnFromWheels).toBe('9.3.0.75');
    expect(facts.cudaFromWheels).toBe('12.5.82');
    const cudnn = facts.packages.find((p) => p.component === 'cudnn')!;
    expect(cudnn.name).toBe('nvidia-cudnn-cu12');
    expect(cudnn.libDir).toMatch(/site-packages\/nvidia\/cudnn\/lib$/);
    expect(cudnn.libraries).toContain('libcudnn.so.9');
    expect(facts.loaderPath.whenActivated).toEqual([]);
  });

  it('are none in a Python without them, and the Python is not a venv', async () => {
    const facts = await probePipCuda(host({ PYTHONNOUSERSITE: '1' }), 'python3');
    expect(facts.ran).toBe(true);
    expect(facts.venv).toBeUndefined();
    const plan = planWheelLibraryFix(facts);
    expect(plan.recommended).toBe(facts.libDirs.length > 0);
    expect(plan.blocker).toContain('not a virtual environment');
  });

  it('cannot be read through a Python that does not run', async () => {
    const facts = await probePipCuda(host(), '/nonexistent/bin/python');
    expect(facts).toMatchObject({ ran: false, packages: [] });
    expect(facts.error).toContain('could not be run');
  });
});

describe('TF 2.16.1 with its wheel folders off the loader path (tensorflow/tensorflow#63362)', () => {
  it('is detected, fixed in the activate script with consent, and undone byte for byte', async () => {
    const { dir, python } = await installed('2.16');
    const activate = path.join(dir, 'bin', 'activate');
    const original = readFileSync(activate);
    const before = await probePipCuda(host(), python);
    const cudnnDir = before.packages.find((p) => p.component === 'cudnn')!.libDir!;
    expect(await activatedLdLibraryPath(dir)).not.toContain(cudnnDir);

    const plan = planWheelLibraryFix(before);
    expect(plan.needed).toBe(true);
    expect(plan.missingDirs).toContain(cudnnDir);
    expect(plan.why.join(' ')).toContain('#63362');
    expect(plan.lines[0]).toMatch(/^# >>> cudawiz/);

    await expect(Promise.resolve().then(() => applyWheelLibraryFix(plan, { consent: false }))).rejects.toMatchObject({ code: 'consent-needed', exitCode: 3 });
    expect(readFileSync(activate).equals(original)).toBe(true);

    const applied = await applyWheelLibraryFix(plan, { consent: true });
    expect(applied.applied).toBe(true);
    const after = await activatedLdLibraryPath(dir, { LD_LIBRARY_PATH: '/usr/local/cuda-12.3/lib64' });
    expect(after.slice(0, before.libDirs.length).sort()).toEqual([...before.libDirs].sort());
    expect(after.at(-1)).toBe('/usr/local/cuda-12.3/lib64');
    // Activating twice adds nothing twice.
    const twice = await activatedLdLibraryPath(dir, { LD_LIBRARY_PATH: after.join(':') });
    expect(twice).toEqual(after);

    const reprobed = await probePipCuda(host(), python);
    const replanned = planWheelLibraryFix(reprobed);
    // The block alone holds only in an activated shell (#39.5): the venv's loader file is what a direct run needs.
    expect(replanned).toMatchObject({ blockApplied: true, activatedOnly: true, alreadyApplied: false });
    expect(replanned.missingDirs).toEqual([]);
    expect((await applyWheelLibraryFix(replanned, { consent: true })).applied).toBe(false);

    expect(await undoWheelLibraryFix(dir)).toMatchObject({ undone: true, exact: true });
    expect(readFileSync(activate).equals(original)).toBe(true);
    expect(await activatedLdLibraryPath(dir)).not.toContain(cudnnDir);
    expect(await undoWheelLibraryFix(dir)).toMatchObject({ undone: false });
  });

  it("keeps the user's own later edits when undoing", async () => {
    const { dir, python } = await installed('2.16');
    const activate = path.join(dir, 'bin', 'activate');
    await applyWheelLibraryFix(planWheelLibraryFix(await probePipCuda(host(), python)), { consent: true });
    writeFileSync(activate, `${readFileSync(activate, 'utf8')}export MY_SETTING=1\n`);
    expect(await undoWheelLibraryFix(dir)).toMatchObject({ undone: true, exact: false });
    const text = readFileSync(activate, 'utf8');
    expect(text).not.toContain('# >>> cudawiz');
    expect(text.endsWith('export MY_SETTING=1\n')).toBe(true);
  });

  it("is needed on other releases too when TF's own log shows a wheel library it could not load", async () => {
    const { python } = await installed('2.18');
    const facts = await probePipCuda(host(), python);
    expect(planWheelLibraryFix(facts)).toMatchObject({ needed: false, recommended: true });
    const log = "W tensorflow/core/...] Could not load dynamic library 'libcudnn.so.9'; dlerror: libcudnn.so.9: cannot open shared object file";
    const plan = planWheelLibraryFix(facts, { importLog: log });
    expect(plan.needed).toBe(true);
    expect(plan.why.join(' ')).toContain('libcudnn.so.9');
  });
});

describe('which copy TF loads when the wheels and a system toolkit both have it', () => {
  it('follows LD_LIBRARY_PATH first, then the RUNPATH into the wheels, then the system', async () => {
    const { python } = await installed('2.18');
    const facts = await probePipCuda(host(), python);
    const system = path.join(await tempDir(), 'usr/local/cuda-12.5/lib64');
    mkdirSync(system, { recursive: true });
    writeFileSync(path.join(system, 'libcudart.so.12'), '');
    expect(whichLibraryTfLoads(facts, 'libcudart.so.12', { ldLibraryPath: [system], systemDirs: [] })).toMatchObject({ from: 'system', via: 'LD_LIBRARY_PATH', dir: system });
    expect(whichLibraryTfLoads(facts, 'libcudart.so.12', { ldLibraryPath: [], systemDirs: [system] })).toMatchObject({ from: 'wheels', via: 'RUNPATH' });
    expect(whichLibraryTfLoads(facts, 'libcudart.so.13', { ldLibraryPath: [], systemDirs: [system] })).toEqual({ file: 'libcudart.so.13', from: 'none' });
  });

  it('skips the RUNPATH for TF 2.16, whose wheels the loader misses', async () => {
    const { python, dir } = await installed('2.16');
    const facts = await probePipCuda(host(), python);
    const system = path.join(await tempDir(), 'lib64');
    mkdirSync(system, { recursive: true });
    writeFileSync(path.join(system, 'libcudnn.so.8'), '');
    expect(whichLibraryTfLoads(facts, 'libcudnn.so.8', { ldLibraryPath: [], systemDirs: [system] })).toMatchObject({ from: 'system' });
    await applyWheelLibraryFix(planWheelLibraryFix(facts), { consent: true });
    const activated = await activatedLdLibraryPath(dir);
    expect(whichLibraryTfLoads(facts, 'libcudnn.so.8', { ldLibraryPath: activated, systemDirs: [system] })).toMatchObject({ from: 'wheels', via: 'LD_LIBRARY_PATH' });
  });
});
