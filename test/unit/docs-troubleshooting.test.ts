// docs/troubleshooting.md is the page people reach from a search for an error message. Every message it
// quotes from TensorFlow or pip sits in a fenced block right under an `<!-- explain: ID [os=…] -->`
// marker; here each block is fed to explain (src/doctor/explain.ts), which must recognise it as that
// finding, and the entry it belongs to must name the cudawiz command that fixes it. The Chinese page
// quotes the same messages (TF and pip print them in English), and every finding explain can give has
// an entry, so a new rule without one fails here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { EXPLAIN_IDS, explainLog } from '../../src/doctor/explain.js';
import type { OsName } from '../../src/platform.js';
import { repoRoot } from '../helpers/cli.js';

interface Quoted {
  id: string;
  os?: OsName;
  wsl: boolean;
  message: string;
  /** The text of the entry the block belongs to: from its heading to the next one. */
  entry: string;
  heading: string;
}

const MARKER = /^<!-- explain: ([a-z0-9-]+)((?: [a-z]+=[a-z]+)*) -->\n(`{3,})[^\n]*\n([\s\S]*?)\n\3\n/gm;

function quoted(page: string): Quoted[] {
  const out: Quoted[] = [];
  for (const m of page.matchAll(MARKER)) {
    const options = Object.fromEntries([...m[2].matchAll(/([a-z]+)=([a-z]+)/g)].map((o) => [o[1], o[2]]));
    const headingAt = page.lastIndexOf('\n### ', m.index);
    const next = page.slice(m.index).search(/\n#{2,3} /);
    out.push({
      id: m[1],
      os: options.os === 'wsl' ? 'linux' : (options.os as OsName | undefined),
      wsl: options.os === 'wsl',
      message: m[4],
      entry: page.slice(headingAt, next < 0 ? undefined : m.index + next),
      heading: page.slice(headingAt + 5, page.indexOf('\n', headingAt + 1)),
    });
  }
  return out;
}

const read = (rel: string) => readFile(path.join(repoRoot, rel), 'utf8');

describe('docs/troubleshooting.md', async () => {
  const catalog = builtinCatalog();
  const en = quoted(await read('docs/troubleshooting.md'));
  const zh = quoted(await read('docs/zh-CN/troubleshooting.md'));

  it('quotes messages in the marked form at all (a renamed marker would make every check below vacuous)', () => {
    expect(en.length).toBeGreaterThanOrEqual(20);
    expect(zh.length).toBe(en.length);
  });

  it.each([
    ['en', en],
    ['zh', zh],
  ] as const)('%s: explain recognises every quoted message as the finding its marker names', (_lang, entries) => {
    const wrong = entries.flatMap((q) => {
      const ids = explainLog(catalog, q.message, { os: q.os, wsl: q.wsl }).findings.map((f) => f.id);
      return ids.includes(q.id) ? [] : [`${q.heading}: expected ${q.id}, explain found [${ids.join(', ')}] in:\n${q.message}`];
    });
    expect(wrong).toEqual([]);
  });

  it.each([
    ['en', en],
    ['zh', zh],
  ] as const)('%s: every entry names the cudawiz command that fixes it', (_lang, entries) => {
    expect(entries.filter((q) => !/`cudawiz [a-z]/.test(q.entry)).map((q) => q.heading)).toEqual([]);
  });

  it('has an entry for every finding explain can give', () => {
    const documented = new Set(en.map((q) => q.id));
    expect(EXPLAIN_IDS.filter((id) => !documented.has(id))).toEqual([]);
  });

  it('the Chinese page quotes the same messages as the English one', () => {
    const key = (q: Quoted) => `${q.id}\n${q.message}`;
    expect(zh.map(key).sort()).toEqual(en.map(key).sort());
  });
});
