// #37 "one way to write": every file cudawiz creates or replaces goes through src/trust/write.ts
// (no-follow, exclusive create or a private temp renamed into place, modes set at creation). This
// reads every source file under src/ and fails on a raw write anywhere but src/trust/: a write
// function imported from node:fs, called on an fs namespace, or an open() with a write flag.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const RAW_WRITES = ['writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'createWriteStream', 'copyFile', 'copyFileSync', 'cp', 'cpSync', 'rename', 'renameSync', 'link', 'linkSync', 'symlink', 'symlinkSync', 'truncate', 'truncateSync'];
const FS_MODULES = /^(node:)?fs(\/promises)?$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Every raw write in one file's text, as "line: what". */
export function rawWrites(text: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  // Named imports from node:fs / node:fs/promises.
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    if (!FS_MODULES.test(m[2])) continue;
    for (const name of m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0].replace(/^type\s+/, ''))) {
      if (RAW_WRITES.includes(name)) found.push(`${lineOf(m.index)}: imports ${name} from ${m[2]}`);
    }
  }
  // A namespace or default import of fs, then a write called through it (fs.writeFileSync, fsp.rename, fs.promises.copyFile).
  for (const m of text.matchAll(/import\s+(?:\*\s+as\s+)?(\w+)\s+from\s*['"]([^'"]+)['"]/g)) {
    if (!FS_MODULES.test(m[2])) continue;
    for (const call of text.matchAll(new RegExp(`\\b${m[1]}\\.(?:promises\\.)?(\\w+)\\s*\\(`, 'g'))) {
      if (RAW_WRITES.includes(call[1])) found.push(`${lineOf(call.index)}: ${m[1]}.${call[1]}()`);
    }
  }
  // open()/openSync() with a write flag, or the O_ flags that write.
  for (const m of text.matchAll(/\bopen(?:Sync)?\([^()]*?,\s*['"]([rwa]x?\+?|[wa]x?\+?)['"]/g)) {
    if (m[1] !== 'r') found.push(`${lineOf(m.index)}: open(…, '${m[1]}')`);
  }
  for (const m of text.matchAll(/\bO_(WRONLY|RDWR|CREAT|APPEND|TRUNC)\b/g)) found.push(`${lineOf(m.index)}: O_${m[1]}`);
  return found;
}

describe('one way to write (#37)', () => {
  it('finds each kind of raw write it looks for, and passes the one write module', () => {
    expect(rawWrites("import { readFile, writeFile } from 'node:fs/promises';")).toHaveLength(1);
    expect(rawWrites("import { rename as mv } from 'fs';")).toHaveLength(1);
    expect(rawWrites("import fs from 'node:fs';\nfs.writeFileSync(x, y);\nfs.readFileSync(x);")).toEqual(['2: fs.writeFileSync()']);
    expect(rawWrites("import * as fsp from 'node:fs/promises';\nawait fsp.copyFile(a, b);")).toHaveLength(1);
    expect(rawWrites("const fh = await open(target, 'wx');")).toHaveLength(1);
    expect(rawWrites("const fh = await open(target, 'r+');")).toHaveLength(1);
    expect(rawWrites("const fh = await open(target, 'r');")).toEqual([]);
    expect(rawWrites('openSync(f, constants.O_WRONLY | constants.O_CREAT)')).toHaveLength(2);
    expect(rawWrites("import { replaceFile } from '../trust/write.js';\nawait replaceFile(f, text);")).toEqual([]);
  });

  it('no file under src/ but src/trust/ writes a file any other way', () => {
    const src = path.join(repoRoot, 'src');
    const files = sources(src);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((f) => !path.relative(src, f).startsWith(`trust${path.sep}`))
      .flatMap((f) => rawWrites(readFileSync(f, 'utf8')).map((w) => `${path.relative(repoRoot, f)}:${w}`));
    expect(offenders).toEqual([]);
  });
});
