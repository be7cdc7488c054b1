// The README stays true to the CLI: every command and every flag `--help` lists is documented.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { GLOBAL_FLAGS } from '../../src/cli/help.js';
import { repoRoot } from '../helpers/cli.js';

const flagsOf = (rows: [string, string][]) => rows.flatMap(([f]) => f.match(/--[a-z][a-z-]*/g) ?? []);

describe('README.md', () => {
  it('documents every command and every flag the CLI accepts', async () => {
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    const missing: string[] = [];
    for (const [name, entry] of Object.entries(COMMANDS)) {
      if (!readme.includes(`### ${name}`)) missing.push(`### ${name}`);
      for (const flag of flagsOf(entry.flags)) if (!readme.includes(`\`${flag}`) && !readme.includes(` ${flag} `)) missing.push(`${name} ${flag}`);
    }
    for (const flag of flagsOf(GLOBAL_FLAGS)) if (!readme.includes(flag)) missing.push(flag);
    expect(missing).toEqual([]);
  });
});
