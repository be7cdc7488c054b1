// The README is the front door: short enough to read in five minutes, in the order a newcomer needs it,
// with the two commands CI and a newcomer run, the support table and the way to an error message on its
// first screen, and true to the CLI (every command it shows exists with those flags, and every command
// and flag of the spec is documented: test/unit/docs-cli.test.ts, over docs/commands.md). README.zh-CN.md
// has the same sections in the same order.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const read = (rel: string) => readFile(path.join(repoRoot, rel), 'utf8');
const headings = (text: string) => [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

/** The order: what it does, one capture, the two commands, the support table, everyday tasks, safety, exit codes, links. */
const ORDER = ['What it does', 'The wizard: scan → plan', 'Quick start', 'What it supports', 'Everyday tasks', 'Repair', 'Safety promises', 'Exit codes', 'Catalog and overlays', 'Development', 'More'];
const ORDER_ZH = ['它做什么', '向导：检查机器 → 安装计划', '快速开始', '支持范围', '日常任务', '修复', '安全承诺', '退出码', '版本目录和覆盖文件', '开发', '更多'];

describe('README.md', async () => {
  const readme = await read('README.md');
  const zh = await read('README.zh-CN.md');

  it('is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(zh.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('says its parts in the order a newcomer needs them, and the Chinese one says the same parts', () => {
    expect(headings(readme)).toEqual(ORDER);
    expect(headings(zh)).toEqual(ORDER_ZH);
  });

  it('shows the two commands, literally, and CI runs the test one', async () => {
    for (const text of [readme, zh]) {
      expect(text).toContain('npm ci && npm start');
      expect(text).toContain('npm ci && npm test');
    }
    const ci = await read('.ci/run');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it('puts the two commands, the way to the support table and to an error message on the first screen', () => {
    for (const [text, table, errors] of [
      [readme, '](#what-it-supports)', '](docs/troubleshooting.md)'],
      [zh, '](#支持范围)', '](docs/zh-CN/troubleshooting.md)'],
    ]) {
      const firstScreen = text.split('\n').slice(0, 15).join('\n');
      for (const wanted of ['`npm ci && npm start`', '`npm ci && npm test`', table, errors]) expect(firstScreen).toContain(wanted);
    }
    expect(readme).toMatch(/\| OS \| TensorFlow \| route \| admin \| NVIDIA login \| download \|/);
  });

  it('keeps the five safety promises at five, and names the routes the table covers', () => {
    const safety = readme.slice(readme.indexOf('## Safety promises'), readme.indexOf('## Exit codes'));
    expect(safety.match(/^- \*\*/gm)).toHaveLength(5);
    for (const route of ['toolkit', 'redist', 'pip', "a distro's CUDA", 'offline']) expect(readme.slice(readme.indexOf('## What it supports'))).toContain(route);
  });

  it('keeps the headings the CLI\'s own messages point to ("see README, Catalog and overlays")', () => {
    expect(headings(readme)).toContain('Catalog and overlays');
    expect(readme).toContain('](docs/catalog.md)');
  });
});
