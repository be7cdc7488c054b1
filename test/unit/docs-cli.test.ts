// The pages stay true to the CLI's own spec (src/cli/spec.ts: what the parser accepts and `--help`
// lists), both ways: every `cudawiz …` a page shows names a real command with flags that command (or
// every command) takes, and every command and flag of the spec is documented in docs/commands.md, each
// command's flags under its own `### name` heading (also in docs/zh-CN/commands.md once that page exists).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMAND_SPECS, GLOBAL_FLAGS, isCommandName, type FlagSpec } from '../../src/cli/spec.js';
import { pageFiles } from '../../scripts/capture-screens.pages.js';
import { repoRoot } from '../helpers/cli.js';

type Flags = Record<string, FlagSpec>;
const globals = GLOBAL_FLAGS as Flags;
const flagsOf = (command: string | undefined): Flags => (command && isCommandName(command) ? { ...globals, ...(COMMAND_SPECS[command].flags as Flags) } : globals);
const ANY_FLAG = new Set([...Object.keys(globals), ...COMMAND_NAMES.flatMap((c) => Object.keys(COMMAND_SPECS[c].flags))]);
const ANY_SHORT = new Set([...Object.values(globals), ...COMMAND_NAMES.flatMap((c) => Object.values(COMMAND_SPECS[c].flags as Flags))].flatMap((f) => (f.short ? [f.short] : [])));

/** Flags of other programs that the pages quote on their own, each with whose it is. */
const OTHER_PROGRAMS = new Set([
  '--override', // NVIDIA's runfile, which --override-compiler-check passes on
  '--silent', '--toolkit', // NVIDIA's runfile, as cudawiz runs it
  '-s', // NVIDIA's Windows installer: its component list
  '--no-install-recommends', // apt-get, provisioning the Windows lane
  '--write', '--check', // scripts/capture-screens.mjs
  '--dkms', // NVIDIA's .run driver installer (docs/distro-cuda.md, after a kernel update)
]);

interface Invocation {
  page: string;
  text: string;
}

/**
 * The `cudawiz …` command lines a page shows: code spans (a span may wrap across lines) and the lines of
 * code blocks that start with `cudawiz` or `$ cudawiz`. In a capture (`<!-- capture: … -->`) only the
 * `$ cudawiz` line counts: the rest is the CLI's output, which test/unit/docs-captures.test.ts holds.
 * A pipe (` | `) or `&&` starts another command; `# …`, or text after a run of spaces, is a comment.
 */
function invocations(page: string, text: string): { commands: Invocation[]; spans: Invocation[] } {
  const commands: Invocation[] = [];
  const spans: Invocation[] = [];
  const segments = (line: string) => line.split(/ \| |&&|;/).map((s) => s.trim().replace(/^\$ /, ''));
  const blocks = /^(?:<!-- capture: [^\n]* -->\n)?(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1$/gm;
  for (const m of text.matchAll(blocks)) {
    const capture = m[0].startsWith('<!--');
    for (const line of m[0].split('\n').slice(capture ? 2 : 1, -1)) {
      if (capture && !line.startsWith('$ cudawiz')) continue;
      // A comment: after `#`, or after a run of spaces that a flag or a bracket does not follow.
      for (const s of segments(line.replace(/\s+#.*$/, '').replace(/\s{2,}(?=[^\s[-]).*$/, ''))) if (/^cudawiz(?:\s|$)/.test(s)) commands.push({ page, text: s });
    }
  }
  const prose = text.replace(blocks, '');
  for (const m of prose.matchAll(/`([^`]+)`/g)) {
    const span = m[1].replace(/\s*\n\s*/g, ' ');
    for (const s of segments(span)) {
      if (/^cudawiz(?:\s|$)/.test(s)) commands.push({ page, text: s });
      else if (/^-{1,2}[a-z]/.test(s)) spans.push({ page, text: s });
    }
  }
  return { commands, spans };
}

/** What is wrong with one `cudawiz …` line: an unknown command, or a flag its command does not take. */
function problems(line: string): string[] {
  const tokens = line.split(/\s+/).slice(1).map((t) => t.replace(/^\[+|[\]),.:]+$/g, ''));
  const wrong: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.startsWith('-') && t !== '-' && t !== '--') {
      const name = t.startsWith('--') ? t.slice(2).split('=')[0] : undefined;
      const spec = name !== undefined ? flagsOf(command)[name] : Object.values(flagsOf(command)).find((f) => f.short === t.slice(1));
      if (!spec) wrong.push(`${t}${command ? ` (not a flag of ${command})` : ''}`);
      else if (spec.type === 'string' && !t.includes('=')) i++;
    } else if (command === undefined) {
      if (t === 'COMMAND') command = 'COMMAND';
      else if (isCommandName(t)) command = t;
      else {
        wrong.push(`${t} (not a command)`);
        break;
      }
    }
  }
  return wrong;
}

describe('the pages name only commands and flags the CLI has', async () => {
  const pages = await pageFiles(repoRoot);
  const found = await Promise.all(pages.filter((p) => existsSync(path.join(repoRoot, p))).map(async (p) => invocations(p, await readFile(path.join(repoRoot, p), 'utf8'))));
  const commands = found.flatMap((f) => f.commands);
  const spans = found.flatMap((f) => f.spans);

  it('finds the command lines at all', () => {
    expect(commands.length).toBeGreaterThan(100);
    expect(spans.length).toBeGreaterThan(50);
  });

  it('every `cudawiz …` line names a command and only flags that command takes', () => {
    const wrong = commands.flatMap((c) => problems(c.text).map((p) => `${c.page}: ${c.text} → ${p}`));
    expect(wrong).toEqual([]);
  });

  it('every flag quoted on its own is one that some command takes (or another program\'s, named as such)', () => {
    const wrong = spans.flatMap((s) => {
      const flag = s.text.split(/[\s=]/)[0].replace(/[\],.]+$/, '');
      const known = flag.startsWith('--') ? ANY_FLAG.has(flag.slice(2)) : ANY_SHORT.has(flag.slice(1));
      return known || OTHER_PROGRAMS.has(flag) ? [] : [`${s.page}: ${s.text}`];
    });
    expect(wrong).toEqual([]);
  });

  it('would catch a made-up command or flag (the checks above are not vacuous)', () => {
    expect(problems('cudawiz instal --tf 2.3')).toEqual(['instal (not a command)']);
    expect(problems('cudawiz install --tf 2.3 --cuda-dir /x')).toEqual(['--cuda-dir (not a flag of install)']);
    expect(problems('cudawiz --json doctor --tf 2.10 [--python PATH]')).toEqual([]);
  });

  it.each(['README.md', 'README.zh-CN.md'])('%s shows every command at least once', async (page) => {
    const shown = new Set(found[pages.indexOf(page)].commands.map((c) => c.text.split(/\s+/).find((t, i) => i > 0 && isCommandName(t))));
    expect(COMMAND_NAMES.filter((c) => !shown.has(c))).toEqual([]);
  });
});

/** The text under a heading line, up to the next heading of that level or above. */
function section(page: string, heading: string): string | undefined {
  const at = page.indexOf(`\n${heading}\n`);
  if (at < 0) return undefined;
  const level = heading.indexOf(' ');
  const rest = page.slice(at + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

const documented = (text: string, flag: string) => text.includes(`\`${flag}`) || text.includes(` ${flag} `) || text.includes(`[${flag}]`) || text.includes(`[${flag} `);

/** The spec's commands and flags that a commands page leaves out. */
function undocumented(page: string, globalsHeading: string): string[] {
  const missing: string[] = [];
  for (const name of COMMAND_NAMES) {
    const text = section(page, `### ${name}`);
    if (text === undefined) {
      missing.push(`### ${name}`);
      continue;
    }
    for (const [flag, f] of Object.entries(COMMAND_SPECS[name].flags as Flags)) {
      if (!documented(text, `--${flag}`)) missing.push(`${name} --${flag}`);
      if (f.short && !documented(text, `-${f.short}`)) missing.push(`${name} -${f.short}`);
    }
  }
  const globalText = section(page, globalsHeading) ?? '';
  for (const [flag, f] of Object.entries(globals)) {
    if (!documented(globalText, `--${flag}`)) missing.push(`--${flag}`);
    if (f.short && !documented(globalText, `-${f.short}`)) missing.push(`-${f.short}`);
  }
  return missing;
}

describe('docs/commands.md documents the whole spec', () => {
  it('every command under its own heading, with each of its flags, and every global flag', async () => {
    const page = await readFile(path.join(repoRoot, 'docs/commands.md'), 'utf8');
    expect(undocumented(page, '## Global flags and environment variables')).toEqual([]);
  });

  it('the same in Chinese, once docs/zh-CN/commands.md exists', async () => {
    const file = path.join(repoRoot, 'docs/zh-CN/commands.md');
    if (!existsSync(file)) return;
    expect(undocumented(await readFile(file, 'utf8'), '## 全局参数和环境变量')).toEqual([]);
  });

  it('would notice a command without its section', () => {
    expect(undocumented('# x\n', '## g')).toContain('### install');
  });
});
