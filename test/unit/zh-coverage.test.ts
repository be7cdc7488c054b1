// The finder: every headless command's text output with --lang zh on the suite's fixture machines, and
// every English run of three or more words it still prints (the rule in test/helpers/english-runs.ts).
// What it lists is what still needs a zh side in src/i18n/.
import { afterAll, describe, expect, it } from 'vitest';
import { realHost } from '../../src/host.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { laptop, type Laptop } from '../helpers/laptop.js';
import { seedLaptop } from '../fixtures/seed-laptop.js';

let m: Laptop;
afterAll(async () => m?.mirror.close());

async function both(argv: string[], host: NonNullable<Parameters<typeof runCli>[1]>['host']): Promise<{ zh: string; en: string }> {
  const zh = await runCli([...argv, '--lang', 'zh', '--no-color'], { host });
  const en = await runCli([...argv, '--lang', 'en', '--no-color'], { host });
  return { zh: zh.stdout + zh.stderr, en: en.stdout + en.stderr };
}

describe('headless text output with --lang zh (the Linux laptop, TF 2.3)', () => {
  // The third field: whether the English output has a sentence the rule finds (so the check can fail there).
  const runs: [string, (m: Laptop) => string[], boolean][] = [
    ['requirements', () => ['requirements', '--tf', '2.3'], true],
    ['install --dry-run', (l) => ['install', '--tf', '2.3', '--dry-run', '--configure-env', 'no', ...l.globals], true],
    ['repair --dry-run', (l) => ['repair', '--tf', '2.3', '--dry-run', '--configure-env', 'no', ...l.globals], true],
    ['download', (l) => ['download', '--tf', '2.3', ...l.globals], true],
    ['rollback', (l) => ['rollback', ...l.globals], false],
    ['a usage error', () => ['install', '--tf'], false],
  ];
  for (const [name, argv, enHasSentence] of runs) {
    it(`${name}: Chinese, no English sentence`, async () => {
      m ??= await laptop();
      const { zh, en } = await both(argv(m), { ...realHost(m.env), home: m.home });
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      expect(englishIn(zh)).toEqual([]);
      // The rule finds the English output's sentences: the check can fail.
      if (enHasSentence) expect(englishIn(en).length).toBeGreaterThan(0);
      else expect(en).not.toMatch(/[\u4e00-\u9fff]/);
    });
  }
});

describe('a whole headless install with --lang zh (the Linux laptop, TF 2.3)', () => {
  it('prints its steps, progress, summaries and verify layers in Chinese', async () => {
    const l = await laptop(undefined, { pythonPath: `${process.cwd()}/test/fixtures/python/tf23-linux-gpu` });
    try {
      const r = await runCli(['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', l.archive, '--lang', 'zh', '--no-color', ...l.globals], { host: { ...realHost(l.env), home: l.home } });
      expect(r.stdout).toContain('验证');
      expect(englishIn(r.stdout + r.stderr)).toEqual([]);
    } finally {
      await l.mirror.close();
    }
  });
});

describe("headless text output with --lang zh (the seed's Windows laptop)", () => {
  for (const argv of [['requirements', '--tf', '2.3', '--gpu', 'RTX 2060'], ['install', '--tf', '2.3', '--dry-run', '--configure-env', 'no'], ['repair', '--tf', '2.3', '--dry-run', '--configure-env', 'no'], ['rollback']]) {
    it(`${argv.slice(0, 2).join(' ')}: no English sentence`, async () => {
      const w = await seedLaptop();
      const { zh } = await both(argv, w.host);
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
      expect(englishIn(zh)).toEqual([]);
    });
  }
});

describe('the language a run speaks', () => {
  it('--lang wins, then CUDAWIZ_LANG, then LC_ALL, LC_MESSAGES, LANG (empty ones skipped), then the Windows UI language', async () => {
    const { detectLang } = await import('../../src/cli/args.js');
    const none = () => undefined;
    expect(detectLang('en', { CUDAWIZ_LANG: 'zh' }, none)).toBe('en');
    expect(detectLang(undefined, { CUDAWIZ_LANG: 'zh', LANG: 'en_US.UTF-8' }, none)).toBe('zh');
    expect(detectLang(undefined, { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }, none)).toBe('en');
    expect(detectLang(undefined, { LC_ALL: '', LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, none)).toBe('zh');
    expect(detectLang(undefined, { LANG: 'zh_TW.UTF-8' }, none)).toBe('zh');
    expect(detectLang(undefined, {}, () => 'zh-CN')).toBe('zh');
    expect(detectLang(undefined, {}, () => 'en-US')).toBe('en');
    expect(detectLang(undefined, {}, none)).toBe('en');
  });

  it('the locale alone turns the headless text Chinese; --json stays English', async () => {
    const zh = await runCli(['requirements', '--tf', '2.3', '--no-color'], { host: { env: { LANG: 'zh_CN.UTF-8', PATH: process.env.PATH ?? '' } } });
    expect(zh.stdout).toMatch(/[\u4e00-\u9fff]/);
    const json = await runCli(['requirements', '--tf', '2.3', '--json'], { host: { env: { LANG: 'zh_CN.UTF-8', PATH: process.env.PATH ?? '' } } });
    expect(json.stdout).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
