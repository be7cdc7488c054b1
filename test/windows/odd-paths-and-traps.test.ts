// Story 4, what Windows makes hard: a cache folder and an archive path with spaces and Chinese in
// them, a PowerShell that says it wrote the PATH but did not (the read-back must catch it), and
// cuDNN zips with Windows-only traps (names equal but for case, `..\` entries, a `C:\` entry).
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { cudnnHeader, peBytes, writeArchive, type FixtureEntry } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';
import { shown } from './doctor.js';
import { PROFILE, V101, windowsLaptop, type WindowsLaptop } from './seed.js';
import { MACHINE_ENV } from './wine.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const JOURNAL = `${PROFILE}\\AppData\\Roaming\\cudawiz\\Config\\env-journal.json`;

describe('odd paths, a lying PowerShell and hostile zips, under Wine', () => {
  it('installs with a cache folder and an archive path holding spaces and Chinese, the installer getting its -log folder as one argument', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const cache = 'C:\\Users\\张三\\My Cache\\cudawiz';
    const zip = `C:\\Users\\张三\\下载 (downloads)\\${laptop.archive.name}`;
    await m.writeFile(zip, await readFile(laptop.archive.file));
    const r = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', zip, '--cache-dir', cache, '--yes', ...laptop.globals]);
    expect(r.code, shown(r)).toBe(0);
    expect(m.exists(`${cache}\\cuda_10.1.243_426.00_win10.exe`)).toBe(true);
    const installer = (await m.fixtureCalls()).find((c) => c.program === 'cuda_10.1.243_426.00_win10.exe')!;
    expect(installer.args.filter((a) => a.startsWith('-log:'))).toEqual([`-log:${cache}\\logs`]);
    expect(await m.readFile(`${cache}\\logs\\LOG.setup.exe.log`)).toContain('Installation complete');
    expect(m.exists(`${V101}\\bin\\cudnn64_7.dll`)).toBe(true);
  });

  it('catches a PowerShell that writes nothing by reading the PATH back, keeps no journal entry for it, and the next run finishes', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const before = await m.reg(MACHINE_ENV, 'Path');
    const lied = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', laptop.cudnnZip, '--yes', ...laptop.globals], { env: { FIXTURE_POWERSHELL: 'lie' } });
    expect(lied.code, shown(lied)).toBe(1);
    expect(lied.stdout).toContain('Could not set the Machine PATH: the Machine PATH reads back differently after the write');
    expect((await m.reg(MACHINE_ENV, 'Path'))?.value).toBe(`${before!.value};${V101}\\bin;${V101}\\libnvvp`);
    // The journal keeps the toolkit NVIDIA's installer laid out (#39: rollback names its way out), and no PATH entry.
    const kinds = (text: string) => JSON.parse(text).entries.map((e: { state: string; change: { kind: string } }) => `${e.change.kind}:${e.state}`);
    expect(kinds(await m.readFile(JOURNAL))).toEqual(['toolkit-installer:applied']);

    const honest = await m.cli(['install', '--tf', '2.3', '--yes', ...laptop.globals]);
    expect(honest.code, shown(honest)).toBe(0);
    expect((await m.reg(MACHINE_ENV, 'Path'))?.value).toMatch(new RegExp(`^${V101.replace(/\\/g, '\\\\')}\\\\bin;`));
    expect(kinds(await m.readFile(JOURNAL))).toEqual(['toolkit-installer:applied', 'windows-path:applied']);
  });

  it('refuses cuDNN zips with names equal but for case, a ..\\ entry or a C:\\ entry, before copying anything', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const dir = await tempDir('cw-win-traps-');
    const header = cudnnHeader('7.6.5')['cudnn.h'];
    const good: FixtureEntry[] = [
      { name: 'cuda/include/cudnn.h', data: header },
      { name: 'cuda/bin/cudnn64_7.dll', data: peBytes('x64') },
      { name: 'cuda/lib/x64/cudnn.lib', data: 'lib' },
    ];
    const traps: [string, FixtureEntry[], RegExp][] = [
      ['case', [...good, { name: 'cuda/bin/CUDNN64_7.DLL', data: peBytes('x64', 512) }], /"cuda\/bin\/cudnn64_7.dll" and "cuda\/bin\/CUDNN64_7.DLL": on Windows these are one file/],
      ['dotdot', [...good, { name: 'cuda\\..\\..\\..\\evil.dll', data: 'MZ' }], /An entry would be written outside the folder: invalid relative path: cuda\/\.\.\/\.\.\/\.\.\/evil\.dll/],
      ['drive', [...good, { name: 'C:\\windows\\system32\\evil.dll', data: 'MZ' }], /An entry would be written outside the folder: absolute path: C:\/windows\/system32\/evil\.dll/],
    ];
    for (const [name, entries, why] of traps) {
      const zip = `${PROFILE}\\Downloads\\cudnn-trap-${name}.zip`;
      await m.writeFile(zip, await readFile(await writeArchive(`${dir}/${name}.zip`, 'zip', entries)));
      const r = await m.cli(['install', '--tf', '2.3', '--cudnn-archive', zip, '--yes', ...laptop.globals]);
      expect(r.code, `${name}: ${shown(r)}`).toBe(1);
      expect(r.stdout, name).toMatch(why);
      expect(m.exists(`${V101}\\bin\\cudnn64_7.dll`), name).toBe(false);
      expect(m.exists('C:\\evil.dll') || m.exists('C:\\windows\\system32\\evil.dll') || m.exists(`${V101}\\evil.dll`), name).toBe(false);
    }
  });
});
