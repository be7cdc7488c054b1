// The README stays true to the CLI: every command and every flag the spec defines (which is what
// `--help` lists and what the parser accepts) is documented, each command's flags in its own section.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMAND_SPECS, GLOBAL_FLAGS, type FlagSpec } from '../../src/cli/spec.js';
import { repoRoot } from '../helpers/cli.js';

/** The text under `### name`, up to the next heading of that level or above. */
function section(readme: string, heading: string): string | undefined {
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) return undefined;
  const rest = readme.slice(at + heading.length + 2);
  const end = rest.search(/\n#{2,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

const documented = (text: string, flag: string) => text.includes(`\`${flag}`) || text.includes(` ${flag} `) || text.includes(`[${flag}]`) || text.includes(`[${flag} `);

describe('README.md', () => {
  it('documents every command, and every flag of a command in its section', async () => {
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    const missing: string[] = [];
    for (const name of COMMAND_NAMES) {
      const text = section(readme, `### ${name}`);
      if (text === undefined) {
        missing.push(`### ${name}`);
        continue;
      }
      for (const [flag, f] of Object.entries(COMMAND_SPECS[name].flags) as [string, FlagSpec][]) {
        if (!documented(text, `--${flag}`)) missing.push(`${name} --${flag}`);
        if (f.short && !documented(text, `-${f.short}`)) missing.push(`${name} -${f.short}`);
      }
    }
    const globals = section(readme, '## Global flags and environment variables') ?? '';
    for (const [flag, f] of Object.entries(GLOBAL_FLAGS) as [string, FlagSpec][]) {
      if (!documented(globals, `--${flag}`)) missing.push(`--${flag}`);
      if (f.short && !documented(globals, `-${f.short}`)) missing.push(`-${f.short}`);
    }
    expect(missing).toEqual([]);
  });
});
