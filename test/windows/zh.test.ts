// Story 8, the seed's laptop on a Windows set to Chinese: no --lang, no LANG — node.exe has only the
// Windows display language (Intl) to go by, as on a real Chinese Windows. requirements, doctor and
// install --dry-run answer in Chinese with no English sentence; on an English Windows, in English.
import { afterEach, describe, expect, it } from 'vitest';
import { englishIn } from '../helpers/english-runs.js';
import { shown } from './doctor.js';
import { V101, windowsLaptop, type WindowsLaptop } from './seed.js';

let laptop: WindowsLaptop | undefined;
afterEach(async () => {
  await laptop?.close();
  laptop = undefined;
});

const CJK = /[\u4e00-\u9fff]/;

describe('the seed laptop on a Chinese Windows', () => {
  it('speaks Chinese by the Windows display language alone, and English on an English Windows', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    const req = await m.cliInUiLanguage('zh-CN', ['requirements', '--tf', '2.3']);
    expect(req.code, shown(req)).toBe(0);
    expect(req.stdout).toMatch(CJK);
    expect(req.stdout).toContain('cudart64_101.dll');
    expect(englishIn(req.stdout + req.stderr)).toEqual([]);

    const doctor = await m.cliInUiLanguage('zh-CN', ['doctor', '--tf', '2.3']);
    expect(doctor.code, shown(doctor)).toBe(1);
    expect(doctor.stdout).toMatch(CJK);
    expect(englishIn(doctor.stdout + doctor.stderr)).toEqual([]);

    const dry = await m.cliInUiLanguage('zh-CN', ['install', '--tf', '2.3', '--dry-run', '--configure-env', 'no', ...laptop.globals]);
    expect(dry.code, shown(dry)).toBe(0);
    expect(dry.stdout).toMatch(CJK);
    expect(dry.stdout).toContain(V101);
    expect(englishIn(dry.stdout + dry.stderr)).toEqual([]);

    // --json stays English on a Chinese Windows.
    const json = await m.cliInUiLanguage('zh-CN', ['requirements', '--tf', '2.3', '--json']);
    expect(json.stdout).not.toMatch(CJK);

    const en = await m.cliInUiLanguage('en-US', ['requirements', '--tf', '2.3']);
    expect(en.code, shown(en)).toBe(0);
    expect(en.stdout).not.toMatch(CJK);
    expect(englishIn(en.stdout).length).toBeGreaterThan(0);
  });
});
