// The standalone executables from `npm run dist`, as a user without Node gets them. The Linux one
// runs here end to end; the Windows one is checked as Windows would load it: a 64-bit console PE
// with the SEA blob (our bundled script) in its resources and the SEA fuse flipped.
import { copyFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runBuilt } from '../helpers/cli.js';
import { findRcData, readPe } from '../helpers/pe.js';
import { inPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/tmp.js';

const bin = path.join(repoRoot, 'dist', 'bin');
const script = path.join(repoRoot, 'dist', 'sea', 'cudawiz.cjs');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

let exe: string;
let home: string;
// No Node on PATH: the executable must carry everything it runs.
let env: Record<string, string>;
const run = (args: string[], file = exe) => execa(file, args, { env, extendEnv: false, reject: false, cwd: home });

beforeAll(async () => {
  for (const f of ['cudawiz', 'cudawiz.exe']) {
    if (!existsSync(path.join(bin, f))) throw new Error(`dist/bin/${f} is missing: run \`npm run dist\` (npm run test:dist does).`);
  }
  home = await tempDir('cudawiz-sea-');
  // A copy under another name, away from the repository: nothing may depend on where it sits.
  exe = path.join(home, 'cudawiz-linux-x64');
  await copyFile(path.join(bin, 'cudawiz'), exe);
  await execa('chmod', ['755', exe]);
  env = { PATH: path.join(home, 'no-node-here'), HOME: home, LANG: 'C.UTF-8' };
});

describe('the Linux executable (dist/bin/cudawiz)', () => {
  it('prints its version with no Node on PATH and no warning about SEA', async () => {
    const r = await run(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
    expect(r.stderr).toBe('');
  });

  it('answers `requirements --tf 2.3 --json` exactly as the npm package does', async () => {
    const r = await run(['requirements', '--tf', '2.3', '--os', 'linux', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const viaNode = await runBuilt(['requirements', '--tf', '2.3', '--os', 'linux', '--json']);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(viaNode.stdout));
    expect(JSON.parse(r.stdout).libraries.map((l: { file: string }) => l.file)).toContain('libcudart.so.10.1');
  });

  it('runs `doctor --json`: exit 0 or 1 and one JSON document', async () => {
    const r = await run(['doctor', '--json']);
    expect([0, 1]).toContain(r.exitCode);
    const doc = JSON.parse(r.stdout);
    expect(typeof doc).toBe('object');
    // Until the doctor lands, the stub's message is what a user sees; it must say so plainly.
    if (doc.error) expect(doc.error.message).toMatch(/doctor/);
  });

  it('keeps usage errors usage errors (exit 2, the fix on stderr)', async () => {
    const r = await run(['requirements', '--tf', '2.3', '--frobnicate']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('frobnicate');
  });

  it('without a terminal, points to the headless commands (exit 2)', async () => {
    const r = await run([]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cudawiz doctor --json');
  });

  it('starts the wizard in a terminal, UI included, without a crash', async () => {
    // `script` and `stty` come from PATH; that this PATH also holds a Node does not matter here.
    const r = await inPty([exe], { env: { ...env, PATH: process.env.PATH ?? '/usr/bin:/bin' }, until: /\S/, timeoutMs: 20_000 });
    expect(r.text.trim().length).toBeGreaterThan(0);
    expect(r.text).not.toMatch(/Error|at .*\(.*:\d+:\d+\)/);
  });
});

describe('the Windows executable (dist/bin/cudawiz.exe)', () => {
  it('is a 64-bit console PE carrying our script as the NODE_SEA_BLOB resource, fuse flipped', async () => {
    const buf = await readFile(path.join(bin, 'cudawiz.exe'));
    const pe = readPe(buf);
    expect(pe.machine).toBe(0x8664); // x86-64
    expect(pe.magic).toBe(0x20b); // PE32+
    expect(pe.subsystem).toBe(3); // console
    const blob = findRcData(buf, 'NODE_SEA_BLOB');
    expect(blob, 'no NODE_SEA_BLOB resource').toBeDefined();
    expect(blob!.includes(await readFile(script))).toBe(true);
    expect(buf.includes(`${FUSE}:1`)).toBe(true);
    expect(buf.includes(`${FUSE}:0`)).toBe(false);
  });

  it('checksums in dist/bin/SHA256SUMS match both files', async () => {
    const sums = (await readFile(path.join(bin, 'SHA256SUMS'), 'utf8')).trim().split('\n');
    expect(sums.map((l) => l.split(/\s+/)[1]).sort()).toEqual(['cudawiz', 'cudawiz.exe']);
    const check = await execa('sha256sum', ['--check', '--quiet', 'SHA256SUMS'], { cwd: bin, reject: false });
    expect(check.exitCode, check.stdout + check.stderr).toBe(0);
  });
});
