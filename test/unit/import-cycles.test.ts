// No import circle anywhere in src/ or components/: every .ts/.tsx file is read, and every kind of relative
// import counts — `import … from`, `import type`, a bare `import './x.js'`, `export … from` and a dynamic
// `import('./x.js')` — because a circle of types today is a circle of values after the next edit, and a
// lazy `import()` still makes the two modules each other's. A failure names the circle, file by file.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const ROOTS = ['src', 'components'];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(rel)));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The relative specifiers one file's text imports, of every kind. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s*['"](\.[^'"]+)['"]/g, // import … from, import type … from, export … from
    /\bimport\s*['"](\.[^'"]+)['"]/g, // import './side-effect.js'
    /\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g, // import('./lazy.js')
    /\brequire\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g, // require('./x.js') (bin.ts's fast path)
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(m[1]);
  return found;
}

/** file → the files it imports (repo-relative, `.js` specifiers resolved to the `.ts`/`.tsx` beside them). */
async function importGraph(): Promise<Map<string, string[]>> {
  const files = (await Promise.all(ROOTS.map(filesUnder))).flat();
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const base = path.posix.join(path.posix.dirname(from), spec).replace(/\.(js|jsx|ts|tsx)$/, '');
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((f) => known.has(f));
  };
  const g = new Map<string, string[]>();
  for (const file of files) {
    const text = await readFile(path.join(repoRoot, file), 'utf8');
    const targets = specifiers(text).map((s) => resolve(file, s)).filter((t): t is string => t !== undefined);
    g.set(file, [...new Set(targets)]);
  }
  return g;
}

/** Every circle, one per strongly connected group (Tarjan), written `a → b → … → a`. */
function cycles(g: Map<string, string[]>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const strong = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (g.get(v) ?? []).includes(v)) groups.push(group);
    }
  };
  for (const v of [...g.keys()].sort()) if (!index.has(v)) strong(v);
  // Name one concrete circle through each group: a shortest path back to its first member.
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0];
    const prev = new Map<string, string>();
    const queue = [start];
    const seen = new Set([start]);
    let end: string | undefined;
    while (queue.length > 0 && end === undefined) {
      const v = queue.shift()!;
      for (const w of g.get(v) ?? []) {
        if (w === start) {
          end = v;
          break;
        }
        if (members.has(w) && !seen.has(w)) {
          seen.add(w);
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const trail = [end!];
    while (trail[0] !== start) trail.unshift(prev.get(trail[0])!);
    const more = group.length > trail.length ? ` (a group of ${group.length} files: ${[...group].sort().join(', ')})` : '';
    return `${[...trail, start].join(' → ')}${more}`;
  });
}

describe('import cycles', () => {
  it('src/ and components/ have none, of any kind of import', async () => {
    const g = await importGraph();
    expect(g.size).toBeGreaterThan(200);
    expect(cycles(g)).toEqual([]);
  });

  it('the graph sees every kind of import: export … from, import type, a lazy import() and a bare import', async () => {
    expect(specifiers(`import type { A } from './a.js';\nexport { B } from './b.js';\nconst c = await import('./c.js');\nimport './d.js';\nimport {\n  e,\n} from '../e.js';`)).toEqual(['./a.js', './b.js', '../e.js', './d.js', './c.js']);
    const g = await importGraph();
    // src/cli/commands.ts loads each command lazily: those edges are in the graph.
    expect(g.get('src/cli/commands.ts')).toContain('src/commands/install.ts');
  });

  it('finds one where there is one (the check itself works), and names it', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual(['a → b → c → a']);
    expect(cycles(new Map([['a', ['a']]]))).toEqual(['a → a']);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });
});
