// One way to run a program (#37): every child process cudawiz starts goes through src/trust/run.ts,
// which locates the program itself and, as root, runs it only when no other user can change it. A
// spawn anywhere else in src/ would skip that check, so this test reads every source file and fails on one.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

/** The one file allowed to start a child process. */
const THE_EDGE = 'src/trust/run.ts';

/** What starts a child process in Node: the child_process module and execa, by import or by call. */
const SPAWNS: RegExp[] = [
  /\bfrom\s+['"](node:)?child_process['"]/,
  /\brequire\(\s*['"](node:)?child_process['"]\s*\)/,
  /\bimport\(\s*['"](node:)?child_process['"]\s*\)/,
  /\bfrom\s+['"]execa['"]/,
  /\bimport\(\s*['"]execa['"]\s*\)/,
  /\b(execa|execaSync|execaNode|execaCommand|execaCommandSync|\$)\s*\(/,
  /\b(spawn|spawnSync|execFile|execFileSync|execSync|fork)\s*\(/,
  /(?<![.\w])exec\s*\(/,
];

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(rel)));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Each `file:line: text` in src/ outside THE_EDGE that would start a child process. */
export function spawnsIn(file: string, text: string): string[] {
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    // A type-only import starts nothing; comments neither.
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '').replace(/^\s*import type .*$/, '');
    if (SPAWNS.some((re) => re.test(code))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
  });
  return hits;
}

describe('one way to run a program', () => {
  it('no file in src/ but src/trust/run.ts starts a child process', async () => {
    const files = await sourceFiles('src');
    expect(files.length).toBeGreaterThan(50);
    const hits: string[] = [];
    for (const file of files) {
      if (file === THE_EDGE) continue;
      hits.push(...spawnsIn(file, await readFile(path.join(repoRoot, file), 'utf8')));
    }
    expect(hits).toEqual([]);
  });

  it('the edge itself is where the spawns are (the rule would catch them anywhere else)', async () => {
    const text = await readFile(path.join(repoRoot, THE_EDGE), 'utf8');
    expect(spawnsIn(THE_EDGE, text).length).toBeGreaterThanOrEqual(3);
  });

  it('catches every way of starting a child the rule names, and not a method that shares a name', () => {
    const planted = [
      "import { spawn } from 'node:child_process';",
      "import cp from 'child_process';",
      "const { execa } = await import('execa');",
      "import { execa } from 'execa';",
      "execFile('/bin/true', []);",
      "spawnSync('ls');",
      "fork('worker.js');",
      "exec('rm -rf /');",
      "const r = require('child_process');",
    ];
    for (const line of planted) expect(spawnsIn('src/x.ts', line), line).toHaveLength(1);
    for (const line of ["import type { ResultPromise } from 'execa';", "const m = /x/.exec(text);", "// spawn('xz') is started in run.ts", 'regex.exec(line)']) expect(spawnsIn('src/x.ts', line), line).toEqual([]);
  });
});
