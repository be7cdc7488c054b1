// A bookkeeping file others can write (#37, class 4): the environment journal and a venv's wheel-fix
// record, rewritten or owned by another user (`nobody`, when the tests run as root), never make root's
// `rollback` write, delete or run anything (J2, J3, P3). Each case through the built CLI (npm run build
// first), HOME in a temp dir, the system loader folder a temp `…/etc/ld.so.conf.d`, `ldconfig` a fixture
// that logs each call.
import { chmod, chown, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';
import { applyWheelLibraryFix, FIX_RECORD } from '../../src/pip/index.js';
import { fixLines } from '../../src/wheels/index.js';
import { CUDAWIZ_FILE_MARK } from '../../src/platform.js';

const who = runningAsRoot ? 'as root, files owned by nobody' : 'as this user, files writable by others';
const MARK = `${CUDAWIZ_FILE_MARK}: CUDA 11.8. \`cudawiz rollback\` removes it.\n`;

/** A temp home with cudawiz's config folder, a fixture ldconfig that logs its calls, and an empty CUDA root. */
async function machine() {
  const home = await tempDir('cw-hostile-books-');
  await chmod(home, 0o755);
  const config = path.join(home, '.config', 'cudawiz');
  await mkdir(config, { recursive: true, mode: 0o700 });
  const bin = path.join(home, 'bin');
  await mkdir(bin);
  const ldLog = path.join(home, 'ldconfig.log');
  await writeFile(path.join(bin, 'ldconfig'), `#!/bin/sh\necho "ldconfig $*" >> '${ldLog}'\n`, { mode: 0o755 });
  const confDir = path.join(home, 'etc', 'ld.so.conf.d');
  await mkdir(confDir, { recursive: true });
  const cudaRoot = path.join(home, 'cuda-root');
  await mkdir(cudaRoot);
  const journal = path.join(config, 'env-journal.json');
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
  const rollback = (...more: string[]) => runBuilt(['rollback', '--cuda-root', cudaRoot, ...more], { env });
  const ldconfigRan = () => readFile(ldLog, 'utf8').then(() => true, () => false);
  const writeJournal = (changes: object[]) => writeFile(journal, JSON.stringify({ format: 1, entries: changes.map((change) => ({ at: '2026-01-01T00:00:00Z', state: 'applied', change })) }), { mode: 0o600 });
  return { home, config, confDir, journal, rollback, ldconfigRan, writeJournal };
}

/** Another user's, where root can make it so; writable by everyone either way. */
async function othersOwn(p: string, mode: number) {
  if (runningAsRoot) await chown(p, NOBODY, NOBODY);
  await chmod(p, mode);
}

describe(`a journal others can write (J2, ${who})`, () => {
  it('owned by another user, 0666, in a 0777 folder: root refuses it, names why, and the script it lists stays', async () => {
    const m = await machine();
    const script = path.join(m.config, 'env-cuda-11.8.sh');
    const content = `${MARK}export LD_LIBRARY_PATH="/usr/local/cuda-11.8/lib64\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"\n`;
    await writeFile(script, content);
    await m.writeJournal([{ kind: 'env-script', target: script, before: null, after: content, why: 'x' }]);
    await othersOwn(m.journal, 0o666);
    await othersOwn(m.config, 0o777);
    const r = await m.rollback();
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stdout + r.stderr).toContain(runningAsRoot ? `owned by user ${NOBODY}` : 'writable by other users');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(script, 'utf8')).toBe(content);
  });

  it("the journal alone writable by others (the folder cudawiz's own): refused too", async () => {
    const m = await machine();
    const script = path.join(m.config, 'env-cuda-11.8.sh');
    await writeFile(script, MARK);
    await m.writeJournal([{ kind: 'env-script', target: script, before: null, after: MARK, why: 'x' }]);
    await chmod(m.journal, 0o666);
    const r = await m.rollback();
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain(`${m.journal} is writable by other users`);
    expect(await readFile(script, 'utf8')).toBe(MARK);
  });

  it('the journal a link to a file of cudawiz\'s shape elsewhere: refused as a link', async () => {
    const m = await machine();
    const elsewhere = path.join(m.home, 'elsewhere.json');
    const script = path.join(m.config, 'env-cuda-11.8.sh');
    await writeFile(script, MARK);
    await writeFile(elsewhere, JSON.stringify({ format: 1, entries: [{ at: 'x', state: 'applied', change: { kind: 'env-script', target: script, before: null, after: MARK, why: 'x' } }] }));
    await symlink(elsewhere, m.journal);
    const r = await m.rollback();
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('is a link');
    expect(await readFile(script, 'utf8')).toBe(MARK);
  });
});

describe('an ld-so-conf undo that would restore lines cudawiz never writes (J3)', () => {
  it('`before` naming /attacker/libs for cudawiz-cuda-11.8.conf: the whole journal refused, the conf as it is, ldconfig never runs', async () => {
    const m = await machine();
    const conf = path.join(m.confDir, 'cudawiz-cuda-11.8.conf');
    const ours = `${MARK}/usr/local/cuda-11.8/lib64\n/usr/local/cuda-11.8/extras/CUPTI/lib64\n`;
    await writeFile(conf, ours);
    await m.writeJournal([
      { kind: 'ld-so-conf', target: conf, before: '/attacker/libs\n', after: ours, why: 'x' },
      { kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: 'ldconfig', args: [] }, why: 'x' },
    ]);
    const r = await m.rollback();
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('/attacker/libs');
    expect(await readFile(conf, 'utf8')).toBe(ours);
    expect(await m.ldconfigRan()).toBe(false);
  });

  it("`before` in cudawiz's own shape but naming a library folder another user can change: that conf is kept, with the reason", async () => {
    const m = await machine();
    const theirs = path.join(m.home, 'attacker', 'lib64');
    await mkdir(theirs, { recursive: true });
    await othersOwn(path.join(m.home, 'attacker'), 0o777);
    const conf = path.join(m.confDir, 'cudawiz-cuda-11.8.conf');
    const ours = `${MARK}/usr/local/cuda-11.8/lib64\n`;
    await writeFile(conf, ours);
    await m.writeJournal([{ kind: 'ld-so-conf', target: conf, before: `${MARK}${theirs}\n`, after: ours, why: 'x' }]);
    const r = await m.rollback();
    expect(r.stdout + r.stderr).toContain(`would name ${theirs} again`);
    expect(await readFile(conf, 'utf8')).toBe(ours);
    // What was not undone stays in the journal for the user to see.
    expect(await readFile(m.journal, 'utf8')).toContain(theirs);
  });
});

describe(`a venv's wheel-fix record (P3, ${who})`, () => {
  /** A venv whose activate script got cudawiz's block through the real apply (record beside it), journalled for rollback. */
  async function venvWithFix(m: Awaited<ReturnType<typeof machine>>) {
    const venv = path.join(m.home, 'venv');
    await mkdir(path.join(venv, 'bin'), { recursive: true });
    const activate = path.join(venv, 'bin', 'activate');
    const original = '# the venv\'s own activate\nexport VIRTUAL_ENV=/x\n';
    await writeFile(activate, original);
    const dirs = [path.join(venv, 'lib/python3.11/site-packages/nvidia/cudnn/lib')];
    const plan = { venv, activateScript: activate, missingDirs: dirs, dirs, needed: true, recommended: true, alreadyApplied: false, blockApplied: false, loaderContent: '', loaderInPlace: false, activatedOnly: false, why: [], lines: fixLines(dirs), alternative: { method: 'symlink' as const, commands: [] } };
    const r = await applyWheelLibraryFix(plan, { consent: true });
    expect(r.applied).toBe(true);
    await m.writeJournal([{ kind: 'venv-activate', target: venv, before: null, after: null, why: 'x' }]);
    return { venv, activate, original, record: path.join(venv, FIX_RECORD), withBlock: await readFile(activate, 'utf8') };
  }

  it('cudawiz\'s own: rollback takes the block out byte for byte and leaves no record and no journal', async () => {
    const m = await machine();
    const v = await venvWithFix(m);
    expect((await stat(v.record)).mode & 0o777).toBe(0o600);
    const r = await m.rollback();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await readFile(v.activate, 'utf8')).toBe(v.original);
    await expect(stat(v.record)).rejects.toThrow();
    await expect(stat(m.journal)).rejects.toThrow();
  });

  it('a record naming another activateScript: ignored, the script is derived from the venv; the victim is untouched', async () => {
    const m = await machine();
    const v = await venvWithFix(m);
    const victim = path.join(m.home, 'victim-activate');
    await writeFile(victim, v.withBlock);
    const record = JSON.parse(await readFile(v.record, 'utf8'));
    await writeFile(v.record, JSON.stringify({ ...record, activateScript: victim }), { mode: 0o600 });
    const r = await m.rollback();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe(v.withBlock);
    expect(await readFile(v.activate, 'utf8')).toBe(v.original);
  });

  it('a record owned by another user (or writable by others): kept, the activate script unchanged, the reason said', async () => {
    const m = await machine();
    const v = await venvWithFix(m);
    await othersOwn(v.record, 0o666);
    const r = await m.rollback();
    expect(r.stdout + r.stderr).toContain(runningAsRoot ? `owned by user ${NOBODY}` : 'writable by other users');
    expect(await readFile(v.activate, 'utf8')).toBe(v.withBlock);
  });

  it('a venv folder others can write: its record is not believed', async () => {
    const m = await machine();
    const v = await venvWithFix(m);
    await chmod(v.venv, 0o777);
    const r = await m.rollback();
    expect(r.stdout + r.stderr).toContain(`${v.venv} is writable by other users`);
    expect(await readFile(v.activate, 'utf8')).toBe(v.withBlock);
  });

  it('a record whose block is not cudawiz\'s (it would cut the user\'s own lines out): refused', async () => {
    const m = await machine();
    const v = await venvWithFix(m);
    const record = JSON.parse(await readFile(v.record, 'utf8'));
    await writeFile(v.record, JSON.stringify({ ...record, appended: 'export VIRTUAL_ENV=/x\n' }), { mode: 0o600 });
    const r = await m.rollback();
    expect(r.stdout + r.stderr).toContain(v.record);
    expect(await readFile(v.activate, 'utf8')).toBe(v.withBlock);
  });

  it('a link planted at the record\'s name: the record replaces the link, the file it pointed to is untouched', async () => {
    const m = await machine();
    const venv = path.join(m.home, 'venv2');
    await mkdir(path.join(venv, 'bin'), { recursive: true });
    const activate = path.join(venv, 'bin', 'activate');
    await writeFile(activate, 'export VIRTUAL_ENV=/y\n');
    const victim = path.join(m.home, 'victim');
    await writeFile(victim, 'precious\n');
    await symlink(victim, path.join(venv, FIX_RECORD));
    const dirs = [path.join(venv, 'nvidia/cudnn/lib')];
    await applyWheelLibraryFix({ venv, activateScript: activate, missingDirs: dirs, dirs, needed: true, recommended: true, alreadyApplied: false, blockApplied: false, loaderContent: '', loaderInPlace: false, activatedOnly: false, why: [], lines: fixLines(dirs), alternative: { method: 'symlink', commands: [] } }, { consent: true });
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await stat(path.join(venv, FIX_RECORD))).isFile()).toBe(true);
  });
});
