// The toolkit install, run for real: a fixture runfile (test/fixtures/cuda-installer) that takes
// the real flags and lays out a toolkit, installed into a temp --cuda-root.
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import type { CudaRelease } from '../../src/catalog/schema.js';
import { installToolkit, type InstallToolkitOptions, type ToolkitPhase } from '../../src/cuda/install.js';
import { CudawizError } from '../../src/errors.js';
import { realHost, type Host } from '../../src/host.js';
import { systemOwnedDir, unprivilegedRunner } from '../fixtures/cuda-installer/unprivileged.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cuda-installer/cuda_runfile.sh');
const cuda101 = catalog.cuda.releases.find((r) => r.version === '10.1.243') as CudaRelease;

const runfileName: Record<string, string> = {
  '10.0.130': 'cuda_10.0.130_410.48_linux',
  '10.1.243': 'cuda_10.1.243_418.87.00_linux.run',
  '11.2.2': 'cuda_11.2.2_460.32.03_linux.run',
};

interface Machine {
  dir: string;
  root: string;
  tmpLog: string;
  options: InstallToolkitOptions;
  lines: string[];
  phases: ToolkitPhase[];
}

/** A machine with the runfile downloaded under its real name and every system path in a temp dir. */
async function machine(version = '10.1.243', env: Record<string, string> = {}, extra: Partial<InstallToolkitOptions> = {}): Promise<Machine> {
  const dir = await tempDir('cudawiz-cuda-');
  const installerFile = path.join(dir, 'downloads', runfileName[version]);
  await mkdir(path.dirname(installerFile));
  await copyFile(fixture, installerFile);
  const root = path.join(dir, 'root');
  const tmpDir = path.join(dir, 'scratch');
  const tmpLog = path.join(dir, 'tmp-cuda-installer.log');
  const lines: string[] = [];
  const phases: ToolkitPhase[] = [];
  const release: CudaRelease = version === cuda101.version ? cuda101 : { version, installers: {} };
  const options: InstallToolkitOptions = {
    os: 'linux',
    catalog,
    installerFile,
    release,
    root,
    tmpDir,
    logDir: path.join(dir, 'logs'),
    installerLogs: [path.join(tmpDir, 'cuda-installer.log')],
    leftoverLogFile: tmpLog,
    env: { CUDA_FIXTURE_TMP_LOG: tmpLog, ...env },
    onLog: (l) => lines.push(l),
    onPhase: (p) => phases.push(p),
    ...extra,
  };
  return { dir, root, tmpLog, options, lines, phases };
}

async function failure(p: Promise<unknown>): Promise<CudawizError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie waiting for a reaper has already stopped running.
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

describe('installing the CUDA toolkit', () => {
  it('installs 10.1 into an empty --cuda-root: nvcc reports 10.1, libcudart.so.10.1 is there, the output is logged', async () => {
    const m = await machine();
    const result = await installToolkit(m.options);
    const toolkit = path.join(m.root, 'cuda-10.1');
    expect(result).toMatchObject({ toolkitDir: toolkit, logFile: path.join(m.dir, 'logs', 'cuda-10.1.243-installer.log') });
    expect(result.skipped).toBeUndefined();

    const nvcc = await execa(path.join(toolkit, 'bin', 'nvcc'), ['--version']);
    expect(nvcc.stdout).toContain('Cuda compilation tools, release 10.1, V10.1.243');
    expect(await readlink(path.join(toolkit, 'lib64', 'libcudart.so.10.1'))).toBe('libcudart.so.10.1.243');
    expect(await readFile(path.join(toolkit, 'version.txt'), 'utf8')).toBe('CUDA Version 10.1.243\n');

    const log = await readFile(result.logFile as string, 'utf8');
    expect(log).toContain(`--installpath=${toolkit}`);
    expect(log).toContain(`Toolkit:  Installed in ${toolkit}`);
    expect(m.lines).toContain(`Toolkit:  Installed in ${toolkit}`);
    expect(m.phases).toEqual(['checking', 'starting', 'installing', 'verifying', 'done']);
  });

  it('installs 11.2 with version.json and the 11.0 runtime soname', async () => {
    const m = await machine('11.2.2');
    const { toolkitDir } = await installToolkit(m.options);
    expect(JSON.parse(await readFile(path.join(toolkitDir, 'version.json'), 'utf8')).cuda.version).toBe('11.2.2');
    expect((await stat(path.join(toolkitDir, 'lib64', 'libcudart.so.11.0'))).isFile()).toBe(true);
  });

  it('installs 10.0 through --toolkitpath (its runfile knows no --installpath)', async () => {
    const m = await machine('10.0.130');
    const { toolkitDir } = await installToolkit(m.options);
    expect(toolkitDir).toBe(path.join(m.root, 'cuda-10.0'));
    expect(await readFile(path.join(toolkitDir, 'version.txt'), 'utf8')).toContain('10.0.130');
  });

  it('skips a 10.1 that is already installed, without running the installer', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'exit:1' });
    const toolkit = path.join(m.root, 'cuda-10.1');
    await mkdir(path.join(toolkit, 'bin'), { recursive: true });
    await mkdir(path.join(toolkit, 'lib64'));
    await writeFile(path.join(toolkit, 'bin', 'nvcc'), '#!/bin/sh\n');
    await writeFile(path.join(toolkit, 'lib64', 'libcudart.so.10.1'), '');

    const result = await installToolkit(m.options);
    expect(result).toEqual({ toolkitDir: toolkit, skipped: 'already-installed' });
    expect(m.phases).toEqual(['checking', 'skipped']);
    await expect(stat(path.join(m.dir, 'logs'))).rejects.toThrow(/ENOENT/);
  });

  it('on Windows, refuses a release an overlay added without a component list (it would install the display driver), before running anything', async () => {
    const m = await machine();
    const e = await failure(installToolkit({ ...m.options, os: 'windows', release: { version: '99.0.1', installers: {} } }));
    expect(e.code).toBe('no-windows-components');
    expect(e.message).toContain('display driver');
    await expect(stat(path.join(m.dir, 'logs'))).rejects.toThrow(/ENOENT/);
  });

  it('as a normal user aiming at a root-owned root, stops before anything changes and says to use sudo', async () => {
    const m = await machine();
    const root = await systemOwnedDir();
    await writeFile(m.tmpLog, 'leftover\n');
    const host: Host = { ...realHost(), os: 'linux', run: unprivilegedRunner };
    const e = await failure(installToolkit({ ...m.options, root, permission: { host, command: 'cudawiz install --tf 2.3' } }));
    expect(e.code).toBe('needs-elevation');
    expect(e.exitCode).toBe(3);
    expect(e.fix).toContain('sudo cudawiz install --tf 2.3');
    expect(await readdir(root)).toEqual([]);
    expect(await readFile(m.tmpLog, 'utf8')).toBe('leftover\n');
    await expect(stat(path.join(m.dir, 'logs'))).rejects.toThrow(/ENOENT/);
  });

  it('a failed install says "Installation failed", shows the tail of the installer\'s own log, and what it left behind', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'exit:1' });
    const e = await failure(installToolkit(m.options));
    expect(e.code).toBe('installer-installation-failed');
    expect(e.message).toContain('exit code 1 ("Installation failed")');
    expect(e.message).toContain(`The installer's log ${path.join(m.dir, 'scratch', 'cuda-installer.log')} ends with:`);
    expect(e.message).toContain('boost::filesystem::copy_file: Permission denied');
    expect(e.fix).toContain(`${path.join(m.root, 'cuda-10.1')} is partial: it holds bin, include, lib64 but lacks nvcc and libcudart.so.10.1`);
  });

  it('stops before anything when the downloaded runfile is missing', async () => {
    const m = await machine();
    const missing = path.join(m.dir, 'downloads', 'cuda_10.1.243_418.87.00_linux.run.part');
    const e = await failure(installToolkit({ ...m.options, installerFile: missing }));
    expect(e.code).toBe('installer-missing');
    expect(e.message).toContain(missing);
    await expect(stat(m.root)).rejects.toThrow(/ENOENT/);
    await expect(stat(path.join(m.dir, 'logs'))).rejects.toThrow(/ENOENT/);
  });

  it('says an unsupported gcc stopped it, and installs when the user allows --override', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'gcc' });
    expect((await failure(installToolkit(m.options))).code).toBe('installer-unsupported-compiler');
    const { toolkitDir } = await installToolkit({ ...m.options, overrideCompilerCheck: true });
    expect((await stat(path.join(toolkitDir, 'bin', 'nvcc'))).isFile()).toBe(true);
  });

  it('moves a leftover /tmp/cuda-installer.log aside (kept) so the 10.1 runfile does not crash', async () => {
    const m = await machine();
    await writeFile(m.tmpLog, 'from an earlier run by another user\n');
    const result = await installToolkit(m.options);
    expect(result.movedAside).toMatch(/tmp-cuda-installer\.log\..+\.old$/);
    expect(await readFile(result.movedAside as string, 'utf8')).toBe('from an earlier run by another user\n');
    expect(m.lines[0]).toContain('it makes CUDA 10.1+ installers crash');
  });

  it('explains a crash of the runfile by the leftover-log bug', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'segv' });
    const e = await failure(installToolkit(m.options));
    expect(e.code).toBe('installer-segfault');
    expect(e.message).toContain('/tmp/cuda-installer.log is left over');
    expect(e.fix).toContain('sudo rm /tmp/cuda-installer.log');
  });

  it('stops an installer that prints nothing and writes nothing for the hang limit', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'hang' }, { hangMs: 400 });
    const e = await failure(installToolkit(m.options));
    expect(e.code).toBe('installer-hung');
    expect(e.message).toContain('printed nothing and wrote nothing for 0.4 s, so it was stopped');
    expect(e.message).toContain('is partial');
    expect(m.phases).toContain('stopping');
  });

  it('lets a quiet installer run on while its toolkit dir keeps growing', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_SLOW_FILES: '12' }, { hangMs: 600 });
    const { toolkitDir } = await installToolkit(m.options);
    expect((await stat(path.join(toolkitDir, 'include', 'quiet_11.h'))).isFile()).toBe(true);
  });

  it('stops an installer that runs past the total time limit', async () => {
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'hang' }, { timeoutMs: 300 });
    expect((await failure(installToolkit(m.options))).code).toBe('installer-timeout');
  });

  it('on Ctrl+C kills the installer and its child, exits 130, and says the toolkit dir is partial', async () => {
    const pidFile = path.join(await tempDir(), 'pids');
    const controller = new AbortController();
    const m = await machine('10.1.243', { CUDA_FIXTURE_FAIL: 'child', CUDA_FIXTURE_PIDFILE: pidFile }, { signal: controller.signal });
    m.options.onLog = (line) => {
      if (line.startsWith('Waiting for the component installer')) controller.abort();
    };
    const e = await failure(installToolkit(m.options));
    expect(e.exitCode).toBe(130);
    expect(e.code).toBe('installer-interrupted');
    expect(e.message).toContain(`${path.join(m.root, 'cuda-10.1')} is partial`);
    expect((e.options.details?.toolkit as { state: string }).state).toBe('partial');
    const [runfilePid, childPid] = (await readFile(pidFile, 'utf8')).trim().split(' ').map(Number);
    expect(alive(runfilePid)).toBe(false);
    expect(alive(childPid)).toBe(false);
  });

  it('on Ctrl+C before it starts, runs nothing and says nothing was installed', async () => {
    const controller = new AbortController();
    controller.abort();
    const m = await machine('10.1.243', {}, { signal: controller.signal });
    const e = await failure(installToolkit(m.options));
    expect(e.exitCode).toBe(130);
    expect(e.message).toContain('does not exist: nothing was installed');
    await expect(stat(m.root)).rejects.toThrow(/ENOENT/);
  });
});
