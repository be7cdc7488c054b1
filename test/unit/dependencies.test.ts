// package.json declares what the code imports, and nothing it does not: a fresh `npm ci` installs
// exactly what the build and the tests load (no package reached only as another's dependency, no
// package kept after the code stopped using it).
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';

/** Declared but not imported, each for its reason. */
const TOOLS: Record<string, string> = {
  typescript: 'tsc --noEmit in npm test',
  vite: "vitest's peer dependency",
  '@types/node': 'the types of node: imports',
};

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'fixtures') out.push(...(await sourceFiles(rel)));
    } else if (/\.(ts|tsx|mjs|cjs)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);

async function importedPackages(): Promise<Map<string, string>> {
  const files = [...(await Promise.all(['src', 'components', 'test', 'scripts', 'bench'].map(sourceFiles))).flat(), ...(await readdir(repoRoot)).filter((f) => /\.config\.ts$/.test(f))];
  const found = new Map<string, string>();
  for (const file of files) {
    const text = await readFile(path.join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"\n;]*?from\s+'([^'.][^']*)'|(?:^|\n)\s*import\s+'([^'.][^']*)'|\bimport\('([^'.][^']*)'\)|\brequire\('([^'.][^']*)'\)/g)) {
      const specifier = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      if (!found.has(packageOf(specifier))) found.set(packageOf(specifier), file);
    }
  }
  return found;
}

describe('package.json', () => {
  it('declares every package the code imports, and only those (plus the tools it names)', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
    const imported = await importedPackages();
    const undeclared = [...imported].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (imported by ${file})`);
    const unused = [...declared].filter((name) => !imported.has(name) && !TOOLS[name] && !(name.startsWith('@types/') && imported.has(name.slice('@types/'.length))));
    expect({ undeclared, unused }).toEqual({ undeclared: [], unused: [] });
  });

  it('pins chalk at the version ink resolves, so the first frame colours with the instance Ink uses', async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const lock = JSON.parse(await readFile(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    expect(lock.packages['node_modules/ink/node_modules/chalk']).toBeUndefined(); // one copy, shared
    expect(pkg.devDependencies.chalk).toBe(lock.packages['node_modules/chalk'].version);
  });
});

describe('zod in the bundle', () => {
  it('is imported as a namespace in the sources, so the bundle keeps only what the schemas use, without a rewrite', async () => {
    const named: string[] = [];
    for (const file of await sourceFiles('src')) if (/import\s+(type\s+)?\{\s*z\s*\}\s+from\s+'zod'/.test(await readFile(path.join(repoRoot, file), 'utf8'))) named.push(file);
    expect(named).toEqual([]);
    const build = await readFile(path.join(repoRoot, 'scripts', 'bundle-options.mjs'), 'utf8');
    expect(build).not.toMatch(/import \\\{ z \\\}/); // no build step rewrites zod imports
    // zod's locales (here its German one) are what the namespace import would have dragged in.
    const chunks = path.join(path.dirname(builtCli), 'chunks');
    for (const file of await readdir(chunks)) if (file.endsWith('.js') || file.endsWith('.cjs')) expect(await readFile(path.join(chunks, file), 'utf8')).not.toContain('Ungültige Eingabe');
  });
});
