// Story 5, the win-x64 single executable (`npm run dist`) as a user without Node gets it: it starts
// under Windows, answers requirements and doctor, and sets up the seed laptop on its own.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { doctorJson, shown } from './doctor.js';
import { cudawizExe } from './sea.js';
import { V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { MACHINE_ENV } from './wine.js';

let exe: string;
let laptop: WindowsLaptop | undefined;
beforeAll(async () => {
  exe = await cudawizExe();
}, 300_000);
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

describe('cudawiz.exe under Wine', () => {
  it('prints its version, answers requirements and doctor --json, and installs TF 2.3 on the seed laptop (exit 0)', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    // A copy in the user's Downloads, where a browser leaves it, far from any Node.
    const mine = `${laptop.cudnnZip.slice(0, laptop.cudnnZip.lastIndexOf('\\'))}\\cudawiz.exe`;
    await m.writeFile(mine, await readFile(exe));

    const version = await m.exe(mine, ['--version']);
    expect(version.code, shown(version)).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const req = await m.exe(mine, ['requirements', '--tf', '2.3']);
    expect(req.code, shown(req)).toBe(0);
    expect(req.stdout).toContain('cuda_10.1.243_426.00_win10.exe');
    const doctorRun = await m.exe(mine, ['doctor', '--tf', '2.3', '--json']);
    const findings = (JSON.parse(doctorRun.stdout) as { findings: { id: string; status: string; title: string }[] }).findings;
    expect(findings.find((f) => f.id === 'gpu')).toMatchObject({ status: 'pass', title: 'NVIDIA GPU: NVIDIA GeForce RTX 2060' });

    const install = await m.exe(mine, ['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', ...laptop.globals]);
    expect(install.code, shown(install)).toBe(0);
    expect(m.exists(`${V101}\\bin\\cudnn64_7.dll`)).toBe(true);
    expect((await m.reg(MACHINE_ENV, 'Path'))?.value).toMatch(/^C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10\.1\\bin;/);
    const after = await doctorJson(m, '--tf', '2.3');
    expect(after.findings.filter((f) => f.status === 'fail').map((f) => f.id)).toEqual(['python']);
  });
});
