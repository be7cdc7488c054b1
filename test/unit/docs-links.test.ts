// Every relative link on the pages (READMEs, CONTRIBUTING.md, docs/ in both languages) reaches a file
// that exists, and every #anchor a heading (as GitHub spells its id) or an explicit <a id> of that page.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageFiles } from '../../scripts/capture-screens.pages.js';
import { repoRoot } from '../helpers/cli.js';

/** A page's text without its code: links and headings inside code blocks and spans are not links. */
const withoutCode = (text: string) => text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/`[^`\n]*`/g, (s) => (s.includes('](') ? '' : s));

/** GitHub's id for a heading: lower case, punctuation dropped (letters of every script kept), each space a dash. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutCode(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(m[1]);
  return out;
}

describe('links on the pages', async () => {
  const pages = (await pageFiles(repoRoot)).filter((p) => existsSync(path.join(repoRoot, p)));
  const texts = new Map(await Promise.all(pages.map(async (p) => [p, await readFile(path.join(repoRoot, p), 'utf8')] as const)));
  const links = pages.flatMap((page) =>
    [...withoutCode(texts.get(page)!).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ page, target: m[1] })).filter((l) => !/^[a-z]+:/i.test(l.target)),
  );

  it('finds the pages and their links (a broken parse would pass everything)', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'README.zh-CN.md', 'CONTRIBUTING.md', 'docs/commands.md', 'docs/zh-CN/troubleshooting.md']));
    expect(links.length).toBeGreaterThan(60);
  });

  it('every relative link reaches a file, and every anchor a heading of that file', async () => {
    const broken: string[] = [];
    for (const { page, target } of links) {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file))) : page;
      if (!existsSync(path.join(repoRoot, resolved))) {
        broken.push(`${page}: ${target} (no ${resolved})`);
        continue;
      }
      if (anchor === undefined) continue;
      const text = texts.get(resolved) ?? (await readFile(path.join(repoRoot, resolved), 'utf8'));
      if (!anchors(text).has(decodeURIComponent(anchor))) broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it('every page under docs/ and CONTRIBUTING.md opens with the question it answers', () => {
    const opening = (text: string) => text.split('\n\n')[1] ?? '';
    const without = pages.filter((p) => (p.startsWith('docs/') || p === 'CONTRIBUTING.md') && !/^\*\*[^*]+[?？]\*\*$/.test(opening(texts.get(p)!)));
    expect(without).toEqual([]);
  });

  it('spells anchors as GitHub does', () => {
    expect(slug("Could not load dynamic library 'cudart64_101.dll'")).toBe('could-not-load-dynamic-library-cudart64_101dll');
    expect(slug('The pip route: `tensorflow[and-cuda]`')).toBe('the-pip-route-tensorflowand-cuda');
    expect(slug('比版本目录更新的 TensorFlow')).toBe('比版本目录更新的-tensorflow');
    expect([...anchors('## A\n## A\n')]).toEqual(['a', 'a-1']);
  });
});
