// Story 3, a normal (not elevated) terminal: `net session` fails. Installing into Program Files needs
// an admin terminal, and cudawiz says so before changing anything; with the toolkit already in place
// it puts the folders in the User PATH instead of the Machine one, and rollback undoes exactly that.
import { afterEach, describe, expect, it } from 'vitest';
import { shown } from './doctor.js';
import { V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { MACHINE_ENV, USER_ENV } from './wine.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const NOT_ADMIN = { FIXTURE_NOT_ADMIN: '1' };

describe('a terminal without admin rights, under Wine', () => {
  it('refuses to install into Program Files with the exact admin-terminal instruction, and changes nothing', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const machinePath = await m.reg(MACHINE_ENV, 'Path');
    const r = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', ...laptop.globals], { env: NOT_ADMIN });
    expect(r.code, shown(r)).toBe(3);
    expect(r.stdout + r.stderr).toContain('Open "Terminal (Admin)" (or an elevated PowerShell) and run: ');
    expect(m.exists(V101)).toBe(false);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(machinePath);
    expect((await m.fixtureCalls()).map((c) => c.program)).not.toContain('cuda_10.1.243_426.00_win10.exe');
  });

  it('with CUDA and cuDNN already in place, writes the User PATH, not the Machine one, and rolls it back', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    // An admin installed the toolkit and cuDNN earlier and left PATH to each user.
    const admin = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', '--configure-env', 'no', ...laptop.globals]);
    expect(admin.code, shown(admin)).toBe(0);
    const machinePath = await m.reg(MACHINE_ENV, 'Path');
    expect(await m.reg(USER_ENV, 'Path')).toBeUndefined();

    const r = await m.cli(['install', '--tf', '2.3', '--yes', ...laptop.globals], { env: NOT_ADMIN });
    expect(r.code, shown(r)).toBe(0);
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(machinePath);
    expect(await m.reg(USER_ENV, 'Path')).toEqual({ kind: 'REG_EXPAND_SZ', value: `${V101}\\bin;${V101}\\extras\\CUPTI\\lib64` });
    const ps = (await m.fixtureCalls()).filter((c) => c.program === 'powershell.exe');
    expect(ps.map((c) => c.script)).toEqual([expect.stringContaining('[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey(\'Environment\', $true)')]);

    const rollback = await m.cli(['rollback'], { env: NOT_ADMIN });
    expect(rollback.code, shown(rollback)).toBe(0);
    expect(rollback.stdout).toContain('User: cudawiz\'s change undone.');
    expect(await m.reg(MACHINE_ENV, 'Path')).toEqual(machinePath);
    // There was no User Path before: rollback deletes the value, it does not leave an empty one.
    expect(await m.reg(USER_ENV, 'Path')).toBeUndefined();
  });
});
