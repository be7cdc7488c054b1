// The pages' captures are what the built CLI draws now. Each marked block (`<!-- capture: TITLE -->`,
// scripts/capture-screens.pages.ts) is drawn again by scripts/capture-screens.captures.ts — every headless
// one, and the wizard's scan, choose and plan screens in both languages (the README's) — and compared
// after normaliseCapture (speeds, free space, the mirror's port, where the terminal wrapped …). The later
// wizard screens need minutes of slow fixture downloads: `node scripts/capture-screens.mjs --check` holds
// them (CONTRIBUTING.md, "Captures"). Needs the built CLI (npm test builds it first) and tmux.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CAPTURE_TITLES, cleanCapture, errors, samples, setup, type Sink } from '../../scripts/capture-screens.captures.js';
import { comparePages, normaliseCapture, pageBlocks } from '../../scripts/capture-screens.pages.js';
import { builtCli, repoRoot } from '../helpers/cli.js';

const titles = new Set<string>(CAPTURE_TITLES);

async function capture(run: (show: Sink) => Promise<void>): Promise<Map<string, string>> {
  const captured = new Map<string, string>();
  await run(async (title, text) => {
    if (!titles.has(title)) throw new Error(`A capture titled "${title}" is not in CAPTURE_TITLES`);
    captured.set(title, cleanCapture(text));
  });
  return captured;
}

describe("the pages' captures", () => {
  it('the built CLI is there to capture', () => {
    expect(existsSync(builtCli)).toBe(true);
  });

  it('every marker names a capture, and the pages hold the README ones', async () => {
    const blocks = await pageBlocks(repoRoot);
    expect(blocks.filter((b) => !titles.has(b.name)).map((b) => `${b.file}: ${b.name}`)).toEqual([]);
    const where = blocks.map((b) => `${b.file}: ${b.name}`);
    expect(where).toEqual(expect.arrayContaining(['README.md: wizard: scan', 'README.md: wizard: plan', 'README.zh-CN.md: zh wizard: scan', 'README.zh-CN.md: zh wizard: plan']));
  });

  it('ignores only what says nothing about the CLI', () => {
    expect(normaliseCapture('a  1.3 MiB/s\n(72.5\nGiB free) 127.0.0.1:40451 ⠸')).toBe(normaliseCapture('a 2.0 MiB/s (7.1 GiB free) 127.0.0.1:5 ⠧'));
    expect(normaliseCapture(`${'x'.repeat(80)}\n/root a`)).toBe(normaliseCapture(`${'x'.repeat(80)}/root a`));
    const zh = '下载失败'.repeat(9); // 72 columns
    expect(normaliseCapture(`${zh}（http://127.0.0.1:34\n893/x`)).toBe(normaliseCapture(`${zh}（http://127.0.0.1:3\n9783/x`));
    expect(normaliseCapture('cuDNN 8.0.4')).not.toBe(normaliseCapture('cuDNN 8.0.5'));
    expect(normaliseCapture('Downloads 6.3 KiB')).not.toBe(normaliseCapture('Downloads 0 B'));
  });

  it('the headless commands print what the pages show', { timeout: 240_000 }, async () => {
    const captured = await capture(async (show) => {
      await samples(show);
      await errors(show);
    });
    const { compared, differ } = await comparePages(repoRoot, captured);
    expect(compared).toBeGreaterThanOrEqual(12);
    expect(differ).toEqual([]);
  });

  it.each(['en', 'zh'] as const)('the %s wizard draws the scan, choose and plan screens the pages show', { timeout: 180_000 }, async (lang) => {
    const captured = await capture((show) => setup(show, lang, true));
    expect([...captured.keys()]).toHaveLength(3);
    const { compared, differ } = await comparePages(repoRoot, captured);
    expect(compared).toBeGreaterThanOrEqual(lang === 'en' ? 4 : 4);
    expect(differ).toEqual([]);
  });
});
