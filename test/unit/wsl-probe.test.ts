// Fixture WSL machines in temp dirs: the kernel's microsoft marker, WSL's library folder with the
// Windows driver's libcuda.so.1 and an nvidia-smi printing output captured inside WSL2.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realHost, type Host } from '../../src/host.js';
import { kernelRelease, parseSmiHeader, parseWindowsVer, probeWsl, wslVersionFromKernel } from '../../src/probe/wsl.js';
import { tempDir } from '../helpers/tmp.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/wsl');
const WSL2_KERNEL = 'Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 12.2.0, GNU ld (GNU Binutils) 2.40) #1 SMP Fri Mar 29 23:14:13 UTC 2024';
const WSL1_KERNEL = 'Linux version 4.4.0-18985-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1-Microsoft Fri Sep 13 14:26:00 PST 2019';
const UBUNTU_KERNEL = 'Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024';
const WSL_ENV = { WSL_DISTRO_NAME: 'Ubuntu', WSL_INTEROP: '/run/WSL/1_interop' };

interface Machine {
  kernel: string;
  /** The nvidia-smi output file under test/fixtures/wsl, or a shell body for the script. */
  smi?: { output: string } | { script: string };
  libcuda?: boolean;
  windowsVer?: string;
  ldConf?: boolean;
  strayLibcuda?: 'file' | 'link-to-wsl';
}

function write(file: string, text: string, mode?: number) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (mode) chmodSync(file, mode);
}

async function machine(m: Machine): Promise<string> {
  const root = await tempDir('cudawiz-wsl-');
  write(path.join(root, 'proc/version'), `${m.kernel}\n`);
  write(path.join(root, 'proc/sys/kernel/osrelease'), `${kernelRelease(m.kernel)}\n`);
  const lib = path.join(root, 'usr/lib/wsl/lib');
  if (m.libcuda ?? true) write(path.join(lib, 'libcuda.so.1'), 'fixture libcuda\n');
  if (m.smi && 'output' in m.smi) write(path.join(lib, 'nvidia-smi'), `#!/bin/sh\ncat '${path.join(fixtures, m.smi.output)}'\n`, 0o755);
  if (m.smi && 'script' in m.smi) write(path.join(lib, 'nvidia-smi'), `#!/bin/sh\n${m.smi.script}\n`, 0o755);
  if (m.windowsVer) write(path.join(root, 'mnt/c/Windows/System32/cmd.exe'), `#!/bin/sh\nprintf '\\r\\nMicrosoft Windows [Version ${m.windowsVer}]\\r\\n'\n`, 0o755);
  if (m.ldConf ?? true) write(path.join(root, 'etc/ld.so.conf.d/ld.wsl.conf'), '/usr/lib/wsl/lib\n');
  const distroLib = path.join(root, 'usr/lib/x86_64-linux-gnu');
  if (m.strayLibcuda === 'file') write(path.join(distroLib, 'libcuda.so.1'), 'a Linux driver package copy\n');
  if (m.strayLibcuda === 'link-to-wsl') {
    mkdirSync(distroLib, { recursive: true });
    symlinkSync(path.join(lib, 'libcuda.so.1'), path.join(distroLib, 'libcuda.so.1'));
  }
  return root;
}

const host = (env: Record<string, string> = {}): Host => realHost({ PATH: '/usr/bin:/bin', ...env });

describe('a WSL2 machine with the Windows driver 555.99', () => {
  it('is WSL 2, reads the Windows driver from WSL\'s nvidia-smi, and never offers a Linux driver', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, smi: { output: 'nvidia-smi-555.99.txt' }, windowsVer: '10.0.22631.3880' });
    const wsl = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(wsl).toMatchObject({
      isWsl: true,
      version: 2,
      kernel: '5.15.153.1-microsoft-standard-WSL2',
      distro: 'Ubuntu',
      windowsVersion: '10.0.22631.3880',
      windowsBuild: 22631,
      windowsBuildSource: 'cmd.exe ver',
      driverLibDir: '/usr/lib/wsl/lib',
      libcuda: '/usr/lib/wsl/lib/libcuda.so.1',
      nvidiaSmi: '/usr/lib/wsl/lib/nvidia-smi',
      nvidiaSmiVersion: '555.52.01',
      windowsDriverVersion: '555.99',
      driverCudaVersion: '12.5',
      driverIsWindows: true,
      problems: [],
    });
    expect(wsl.markers).toEqual(expect.arrayContaining(['/proc/version', '/proc/sys/kernel/osrelease', '$WSL_DISTRO_NAME', '$WSL_INTEROP']));
    expect(wsl.driverFix).toMatch(/on Windows, not inside WSL/);
  });

  it('is still WSL 2 without its variables (sudo -i drops them): the kernel says so', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, smi: { output: 'nvidia-smi-555.99.txt' } });
    const wsl = await probeWsl(host(), { fsRoot: root });
    expect(wsl).toMatchObject({ isWsl: true, version: 2, windowsDriverVersion: '555.99' });
    expect(wsl.windowsBuild).toBeUndefined();
  });

  it('keeps the driver version when nvidia-smi prints CUDA Version: ERR!', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, smi: { output: 'nvidia-smi-cuda-err.txt' } });
    const wsl = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(wsl).toMatchObject({ windowsDriverVersion: '546.80', nvidiaSmiVersion: '545.46' });
    expect(wsl.driverCudaVersion).toBeUndefined();
  });
});

describe('WSL machines with something wrong', () => {
  it('WSL 1 on an old Windows: no GPU there, and says how to move to WSL 2', async () => {
    const root = await machine({ kernel: WSL1_KERNEL, libcuda: false, ldConf: false });
    const wsl = await probeWsl(host({ WSL_DISTRO_NAME: 'Ubuntu-18.04' }), { fsRoot: root });
    expect(wsl).toMatchObject({ isWsl: true, version: 1, windowsBuild: 18985, windowsBuildSource: 'kernel release' });
    const ids = wsl.problems.map((p) => p.id);
    expect(ids).toEqual(['wsl1', 'windows-too-old', 'no-wsl-libcuda']);
    expect(wsl.problems[0].fix).toBe('In PowerShell on Windows: wsl --set-version Ubuntu-18.04 2');
    expect(wsl.problems[1].fix).toMatch(/21H2/);
  });

  it('Windows 10 21H1 (build 19043) is one build short', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, smi: { output: 'nvidia-smi-555.99.txt' }, windowsVer: '10.0.19043.1348' });
    const wsl = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(wsl.problems.map((p) => p.id)).toEqual(['windows-too-old']);
    expect(wsl.problems[0].evidence).toBe('10.0.19043.1348');
  });

  it('no Windows driver: the fix is on Windows', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, libcuda: false });
    const wsl = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(wsl.problems).toEqual([expect.objectContaining({ id: 'no-wsl-libcuda', fix: expect.stringContaining('on Windows, not inside WSL') })]);
    expect(wsl.windowsDriverVersion).toBeUndefined();
  });

  it('an nvidia-smi that crashes inside WSL is reported, not trusted', async () => {
    const root = await machine({ kernel: WSL2_KERNEL, smi: { script: 'kill -SEGV $$' } });
    const wsl = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(wsl.problems.map((p) => p.id)).toEqual(['nvidia-smi-failed']);
    expect(wsl.problems[0].fix).toContain('microsoft/WSL#11277');
  });

  it('a Linux driver installed inside WSL shadows the Windows one; a link to it does not', async () => {
    const stray = await probeWsl(host(WSL_ENV), { fsRoot: await machine({ kernel: WSL2_KERNEL, strayLibcuda: 'file' }) });
    expect(stray.problems).toEqual([expect.objectContaining({ id: 'linux-driver-inside-wsl', evidence: '/usr/lib/x86_64-linux-gnu/libcuda.so.1' })]);
    const linked = await probeWsl(host(WSL_ENV), { fsRoot: await machine({ kernel: WSL2_KERNEL, strayLibcuda: 'link-to-wsl' }) });
    expect(linked.problems).toEqual([]);
  });

  it("WSL's library folder off the loader path (ldconfig=false in wsl.conf), unless LD_LIBRARY_PATH has it", async () => {
    const root = await machine({ kernel: WSL2_KERNEL, ldConf: false });
    const off = await probeWsl(host(WSL_ENV), { fsRoot: root });
    expect(off.problems.map((p) => p.id)).toEqual(['wsl-lib-not-on-loader-path']);
    expect(off.problems[0].fix).toContain('/etc/ld.so.conf.d/ld.wsl.conf');
    const on = await probeWsl(host({ ...WSL_ENV, LD_LIBRARY_PATH: '/usr/lib/wsl/lib/' }), { fsRoot: root });
    expect(on.problems).toEqual([]);
  });
});

describe('not WSL', () => {
  it('a plain Ubuntu machine: no markers, and the driver is a Linux driver', async () => {
    const root = await tempDir('cudawiz-linux-');
    write(path.join(root, 'proc/version'), `${UBUNTU_KERNEL}\n`);
    write(path.join(root, 'proc/sys/kernel/osrelease'), '6.8.0-45-generic\n');
    const wsl = await probeWsl(host(), { fsRoot: root });
    expect(wsl).toEqual({ isWsl: false, kernel: '6.8.0-45-generic', markers: [], driverLibDir: '/usr/lib/wsl/lib', driverIsWindows: false, problems: [] });
  });

  it('native Windows is never WSL', async () => {
    const wsl = await probeWsl({ ...host(WSL_ENV), os: 'windows' }, { fsRoot: await tempDir() });
    expect(wsl.isWsl).toBe(false);
  });
});

describe('the words WSL writes', () => {
  it('kernel releases of each WSL', () => {
    expect(wslVersionFromKernel('4.4.0-19041-Microsoft')).toEqual({ version: 1, windowsBuild: 19041 });
    expect(wslVersionFromKernel('4.19.67-microsoft-standard')).toEqual({ version: 2 });
    expect(wslVersionFromKernel('5.4.72-microsoft-standard-WSL2')).toEqual({ version: 2 });
    expect(wslVersionFromKernel('6.8.0-45-generic')).toEqual({});
    expect(kernelRelease('5.15.90.1-microsoft-standard-WSL2\n')).toBe('5.15.90.1-microsoft-standard-WSL2');
  });

  it('ver and the nvidia-smi header', () => {
    expect(parseWindowsVer('\r\nMicrosoft Windows [Version 10.0.19045.3803]\r\n')).toEqual({ version: '10.0.19045.3803', build: 19045 });
    expect(parseWindowsVer('garbage')).toBeUndefined();
    expect(parseSmiHeader('| NVIDIA-SMI 510.73.05    Driver Version: 516.94       CUDA Version: 11.6     |')).toEqual({ smi: '510.73.05', driver: '516.94', cuda: '11.6' });
  });
});
