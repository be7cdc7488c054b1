// Data flows one way (DESIGN.md): services know nothing of the plan that runs them, and the plan knows
// nothing of how the command line renders it. An import the other way is a layering debt.
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
    expect(folders.filter((f) => ![...services, ...doors, 'src/plan'].includes(f)), 'a new folder of src/ needs its place in the layering').toEqual([]);
    for (const dir of services) expect(into(await importsOf(dir), ['src/plan', ...doors, 'components']), dir).toEqual([]);
  });
});
