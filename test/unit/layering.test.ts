// Data flows one way (DESIGN.md): services know nothing of the plan that runs them, and the plan knows
// nothing of how the command line renders it. An import the other way is a layering debt. The last
// test holds the whole house to it: every file of src/ and components/ sits in a layer
// (docs/architecture.md draws them), and no import of any kind goes to a layer above its own.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/** Every relative import of the .ts/.tsx files under `dir`, its sub-folders included. */
async function importsOf(dir: string): Promise<{ file: string; target: string }[]> {
  const out: { file: string; target: string }[] = [];
  for (const entry of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) {
      out.push(...(await importsOf(path.join(dir, entry.name))));
      continue;
    }
    if (!/\.tsx?$/.test(entry.name)) continue;
    const file = path.join(dir, entry.name);
    const text = await readFile(path.join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(/from '(\.[^']+)'/g)) out.push({ file, target: path.join(path.dirname(file), m[1]) });
  }
  return out;
}

const into = (imports: { file: string; target: string }[], dirs: string[]) => imports.filter((i) => dirs.some((d) => i.target.startsWith(`${d}/`))).map((i) => `${i.file} → ${i.target}`);

describe('layering', () => {
  it("the pip route's services take callbacks, like the CUDA installer's: nothing from the plan, the CLI or the wizard", async () => {
    expect(into(await importsOf('src/pip'), ['src/plan', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
  });

  it('the plan renders nothing: its reporters live beside the CLI output', async () => {
    expect(into(await importsOf('src/plan'), ['src/cli', 'src/wizard', 'src/commands', 'components'])).toEqual([]);
  });

  it('services below the plan (verify, doctor, lock, fetch, cuda, catalog, redist, env) know nothing of the plan, the commands, the CLI or the wizard', async () => {
    for (const dir of ['src/verify', 'src/doctor', 'src/lock', 'src/fetch', 'src/cuda', 'src/catalog', 'src/redist', 'src/env']) {
      expect(into(await importsOf(dir), ['src/plan', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
    }
  });

  it("a step is written once for every route: steps know no route and no chooser; routes know no chooser", async () => {
    const steps = await importsOf('src/plan/steps');
    const chooser = (imports: { file: string; target: string }[]) => imports.filter((i) => i.target === 'src/plan/choose.js').map((i) => `${i.file} → ${i.target}`);
    expect(into(steps, ['src/plan/routes'])).toEqual([]);
    expect(chooser(steps)).toEqual([]);
    expect(chooser(await importsOf('src/plan/routes'))).toEqual([]);
    // The rule sees the chooser's imports: the doors import it.
    expect(chooser(await importsOf('src/commands')).length).toBeGreaterThan(0);
  });

  it('both doors choose a plan one way: the commands and the wizard reach routes and steps only through plan/choose', async () => {
    const doors = [...(await importsOf('src/commands')), ...(await importsOf('src/wizard'))];
    // pythonFits (which Python can take a TF) is a pure rule the wizard's version list shares with the Python step.
    const allowed = (t: string) => t === 'src/plan/steps/python.js';
    expect(into(doors, ['src/plan/routes', 'src/plan/steps']).filter((l) => !allowed(l.split(' → ')[1]))).toEqual([]);
  });

  it('src/cli is the dispatcher above the commands, not a library below them: the commands, the wizard and src/io import nothing of it', async () => {
    for (const dir of ['src/commands', 'src/wizard', 'src/io']) expect(into(await importsOf(dir), ['src/cli']), dir).toEqual([]);
    // The rule sees what the commands import from below instead: their context and output come from src/io.
    expect(into(await importsOf('src/commands'), ['src/io']).length).toBeGreaterThan(0);
  });

  it('src/io (what a command reads and writes: its context, flags, output, reporters) imports nothing of the doors or the screens', async () => {
    expect(into(await importsOf('src/io'), ['src/commands', 'src/cli', 'src/wizard', 'components'])).toEqual([]);
  });

  it("the plain reporter draws from the runner's one state: it folds the events with reduceRunner, as the wizard does", async () => {
    const reporters = await readFile(path.join(repoRoot, 'src/io/reporters.ts'), 'utf8');
    const controller = await readFile(path.join(repoRoot, 'src/wizard/controller.ts'), 'utf8');
    for (const text of [reporters, controller]) expect(text).toMatch(/= reduceRunner\(/);
    // No second record of the steps beside it.
    expect(reporters).not.toMatch(/titles|let failed|let stop/);
  });

  it('the doors stay apart: the commands import nothing of the wizard, the wizard nothing of the commands', async () => {
    expect(into(await importsOf('src/commands'), ['src/wizard', 'components'])).toEqual([]);
    expect(into(await importsOf('src/wizard'), ['src/commands'])).toEqual([]);
  });

  it("the probe reads the wheels' facts from src/wheels, below it and the pip route: it imports nothing of src/pip", async () => {
    expect(into(await importsOf('src/probe'), ['src/pip', 'src/plan', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
    expect(into(await importsOf('src/wheels'), ['src/pip', 'src/probe', 'src/plan', 'src/doctor', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
  });
  it('every folder of src/ has its place: the services, the i18n tables and the plan import nothing of the doors (commands, CLI, wizard, components), and no folder is left out of this list', async () => {
    const services = ['src/bundle', 'src/catalog', 'src/cuda', 'src/cudnn', 'src/doctor', 'src/env', 'src/fetch', 'src/lock', 'src/pip', 'src/probe', 'src/redist', 'src/routes', 'src/verify', 'src/wheels', 'src/i18n', 'src/trust'];
    const doors = ['src/commands', 'src/cli', 'src/wizard'];
    const folders = (await readdir(path.join(repoRoot, 'src'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => `src/${e.name}`);
    expect(folders.filter((f) => ![...services, ...doors, 'src/plan', 'src/io'].includes(f)), 'a new folder of src/ needs its place in the layering').toEqual([]);
    for (const dir of services) expect(into(await importsOf(dir), ['src/plan', ...doors, 'components']), dir).toEqual([]);
  });

  it('a layer imports only from the layers below it (or its own), by every kind of import, and every file has a layer', async () => {
    const offenders: string[] = [];
    const unplaced = new Set<string>();
    for (const { file, target } of await everyImport()) {
      const [from, to] = [layerOf(file), layerOf(target)];
      if (from === undefined) unplaced.add(file);
      if (to === undefined) unplaced.add(target);
      if (from !== undefined && to !== undefined && to > from) offenders.push(`${file} (${LAYERS[from].name}) → ${target} (${LAYERS[to].name})`);
    }
    expect([...unplaced], 'a new file or folder needs its layer in LAYERS').toEqual([]);
    expect(offenders).toEqual([]);
  });

  it('the layer rule sees an import that goes up', () => {
    expect(layerOf('src/commands/install.ts')).toBeGreaterThan(layerOf('src/io/output.ts')!);
    expect(layerOf('src/cli/spec.ts')).toBeGreaterThan(layerOf('src/commands/install.ts')!);
    expect(layerOf('src/plan/steps/cudnn.ts')).toBe(layerOf('src/plan/choose.ts'));
    expect(layerOf('src/probe/types.ts')).toBeLessThan(layerOf('src/doctor/diagnose.ts')!);
  });
});

/**
 * The layers, bottom first (docs/architecture.md draws them). A file imports from its own layer or one
 * below; within a layer, modules may use each other (the import-cycle test keeps that free of circles).
 */
const LAYERS: { name: string; members: string[] }[] = [
  {
    name: 'used by all',
    members: ['src/i18n', 'src/trust', 'src/errors.ts', 'src/platform.ts', 'src/host.ts', 'src/command-result.ts', 'src/redact.ts', 'src/format.ts', 'src/status.ts', 'src/fs-errors.ts', 'src/version.ts', 'src/path-flags.ts', 'src/routes/ids.ts'],
  },
  { name: 'facts: the catalog and the wheels', members: ['src/catalog', 'src/wheels'] },
  { name: 'facts: the probe', members: ['src/probe'] },
  {
    name: 'services',
    members: ['src/doctor', 'src/verify', 'src/env', 'src/pip', 'src/redist', 'src/bundle', 'src/cuda', 'src/cudnn', 'src/fetch', 'src/lock', 'src/routes'],
  },
  { name: 'the plan', members: ['src/plan'] },
  { name: 'io: what a command reads and writes', members: ['src/io'] },
  { name: 'the doors', members: ['src/commands', 'src/wizard'] },
  { name: 'the screens and the dispatcher', members: ['components', 'src/cli'] },
  { name: 'the entries', members: ['src/cli.tsx', 'src/bin.ts', 'src/wizard.tsx'] },
];

function layerOf(file: string): number | undefined {
  const at = LAYERS.findIndex((l) => l.members.some((m) => file === m || file.startsWith(`${m}/`)));
  return at < 0 ? undefined : at;
}

/** Every relative import of every file in src/ and components/: import, import type, export … from, import(), require(). */
async function everyImport(): Promise<{ file: string; target: string }[]> {
  const walk = async (dir: string): Promise<string[]> => {
    const out: string[] = [];
    for (const e of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) out.push(...(await walk(rel)));
      else if (/\.tsx?$/.test(e.name)) out.push(rel);
    }
    return out;
  };
  const files = [...(await walk('src')), ...(await walk('components'))];
  const known = new Set(files);
  const out: { file: string; target: string }[] = [];
  const kinds = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const file of files) {
    const text = await readFile(path.join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(kinds)) {
      const base = path.posix.join(path.posix.dirname(file), m[1]).replace(/\.(js|ts|tsx)$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => known.has(f));
      if (target) out.push({ file, target });
    }
  }
  return out;
}
