// The cuDNN service's modules import one way: lower modules (member paths, hashing, the tar reader)
// never import higher ones (archive, manifest, layout, import), so there is no cycle among them
// (archive.ts ↔ file-hasher.ts ↔ manifest.ts ↔ layout.ts was one), type-only imports included.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

async function graph(dir: string): Promise<Map<string, string[]>> {
  const g = new Map<string, string[]>();
  for (const name of await readdir(path.join(repoRoot, dir))) {
    if (!/\.tsx?$/.test(name)) continue;
    const text = await readFile(path.join(repoRoot, dir, name), 'utf8');
    g.set(name.replace(/\.tsx?$/, ''), [...text.matchAll(/from '\.\/([^']+)\.js'/g)].map((m) => m[1]));
  }
  return g;
}

function cycles(g: Map<string, string[]>): string[] {
  const found: string[] = [];
  const visit = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at >= 0) return void found.push([...trail.slice(at), node].join(' → '));
    for (const next of g.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of g.keys()) visit(node, []);
  return [...new Set(found)];
}

describe('src/cudnn', () => {
  it('has no import cycle', async () => {
    expect(cycles(await graph('src/cudnn'))).toEqual([]);
  });

  it('finds one where there is one (the check itself works)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['a']]]))).not.toEqual([]);
  });
});
