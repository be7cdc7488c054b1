// "Not elevated" for real: see test/fixtures/cuda-installer/unprivileged.ts for how a root test
// run gets a normal user's view (setpriv to nobody) and a non-root one a read-only dir.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInstallPermission, requireInstallPermission } from '../../src/cuda/elevation.js';
import { CudawizError } from '../../src/errors.js';
import { realHost, type Host } from '../../src/host.js';
import { toolkitDir } from '../../src/platform.js';
import { systemOwnedDir, unprivilegedRunner, userOwnedDir } from '../fixtures/cuda-installer/unprivileged.js';

describe('may this user install the toolkit there?', () => {
  it('refuses a root-owned /usr/local-like dir for a normal user, before writing anything, and says to use sudo or --cuda-root', async () => {
    const root = await systemOwnedDir();
    const host: Host = { ...realHost(), os: 'linux', run: unprivilegedRunner };
    const target = toolkitDir('linux', root, '10.1');
    const check = await checkInstallPermission(host, target);
    expect(check).toMatchObject({ ok: false, target, probed: root, elevated: false, writable: false });

    const error = await requireInstallPermission(host, target, 'cudawiz install --tf 2.3').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CudawizError);
    const e = error as CudawizError;
    expect(e.exitCode).toBe(3);
    expect(e.message).toContain(`${root} is not writable by this user`);
    expect(e.fix).toBe('Run it with sudo: sudo cudawiz install --tf 2.3   (or pass --cuda-root DIR under your home)');
  });

  it('accepts a --cuda-root the user owns, even when the toolkit dir does not exist yet', async () => {
    const home = await userOwnedDir();
    const host: Host = { ...realHost(), os: 'linux', run: unprivilegedRunner };
    const check = await checkInstallPermission(host, path.join(home, 'cuda-10.1'));
    expect(check).toMatchObject({ ok: true, probed: home, elevated: false, writable: true });
  });

  it('on Windows, asks `net session` and, not elevated, says to open an admin terminal', async () => {
    const asked: string[][] = [];
    const host: Host = {
      os: 'windows',
      env: { ProgramFiles: 'C:\\Program Files' },
      home: 'C:\\Users\\ana',
      run: async (file, args) => {
        asked.push([file, ...args]);
        return { exitCode: 2, stdout: '', stderr: 'System error 5 has occurred.\r\n\r\nAccess is denied.\r\n' };
      },
    };
    const target = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1';
    const error = (await requireInstallPermission(host, target, 'cudawiz install --tf 2.3').catch((e: unknown) => e)) as CudawizError;
    expect(asked).toEqual([['net', 'session']]);
    expect(error.exitCode).toBe(3);
    expect(error.fix).toBe('Open "Terminal (Admin)" (or an elevated PowerShell) and run: cudawiz install --tf 2.3');
  });

  it('on Windows, an elevated terminal may install', async () => {
    const host: Host = { os: 'windows', env: {}, home: 'C:\\Users\\ana', run: async () => ({ exitCode: 0, stdout: 'There are no entries in the list.\r\n', stderr: '' }) };
    const check = await checkInstallPermission(host, 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1');
    expect(check).toMatchObject({ ok: true, elevated: true });
  });
});
