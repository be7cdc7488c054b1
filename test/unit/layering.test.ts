// Data flows one way (DESIGN.md): services know nothing of the plan that runs them, and the plan knows
// nothing of how the command line renders it. An import the other way is a layering debt.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

async function importsOf(dir: string): Promise<{ file: string; target: string }[]> {
  const out: { file: string; target: string }[] = [];
  for (const name of await readdir(path.join(repoRoot, dir))) {
    if (!/\.tsx?$/.test(name)) continue;
    const file = path.join(dir, name);
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

  it("the probe reads the wheels' facts from src/wheels, below it and the pip route: it imports nothing of src/pip", async () => {
    expect(into(await importsOf('src/probe'), ['src/pip', 'src/plan', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
    expect(into(await importsOf('src/wheels'), ['src/pip', 'src/probe', 'src/plan', 'src/doctor', 'src/cli', 'src/wizard', 'src/commands'])).toEqual([]);
  });
});
