// Hostile class: a program a data file names (#37 J1, P1). The journal's undo entries and CONDA_EXE
// name programs; as root cudawiz runs one only when no other user can change it or a folder above it,
// checked at the moment it runs, and otherwise hands the user the command to run themselves.
// Each fixture program records being run, so "not run" is a fact on disk, not a guess.
import { chmod, chown, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { packageReplacement } from '../../src/doctor/group.js';
import { applyPackageChange, readPackageState, rollbackEnvChanges } from '../../src/env/index.js';
import { managerProgram } from '../../src/env/package-change.js';
import type { EnvJournal } from '../../src/env/types.js';
import { CudawizError } from '../../src/errors.js';
import { runCommand, type Host } from '../../src/host.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { tempDir } from '../helpers/tmp.js';

const asRoot = process.getuid?.() === 0;
const hostWith = (home: string, env: Record<string, string>): Host => ({ os: 'linux', env, home, run: (f, a, o = {}) => runCommand(f, a, { ...o, env: o.env ?? env }) });

/** Programs that only write `<ranDir>/<name>` when run (and print a conda revision list, for conda). */
async function recordingPrograms(dir: string, ranDir: string, names: string[]): Promise<void> {
  for (const name of names) {
    const file = path.join(dir, name);
    await writeFile(file, `#!/bin/sh\necho "$@" > "${ranDir}/${name}"\necho "(rev 3)"\nexit 0\n`);
    await chmod(file, 0o755);
  }
}

async function journalNaming(home: string, dir: string): Promise<string> {
  const file = path.join(home, '.config', 'cudawiz', 'env-journal.json');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const at = '2026-01-01T00:00:00.000Z';
  const prefix = path.join(home, 'miniconda3', 'envs', 'tf');
  const journal: EnvJournal = {
    format: 1,
    entries: [
      { at, state: 'applied', change: { kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: path.join(dir, 'ldconfig'), args: [] }, why: 'x' } },
      { at, state: 'applied', change: { kind: 'package', target: prefix, before: 'rev 1', after: 'rev 2', why: 'x', undo: { file: path.join(dir, 'conda'), args: ['install', '--yes', '-p', prefix, '--revision', '1'] } } },
      { at, state: 'applied', change: { kind: 'package', target: path.join(dir, 'python3'), before: 'a==1', after: 'a==2', why: 'x', undo: { file: path.join(dir, 'python3'), args: ['-m', 'pip', 'install', 'nvidia-cudnn-cu11==8.5.0.96'] } } },
      { at, state: 'applied', change: { kind: 'package', target: 'apt', before: 'libcudnn8==8.5', after: 'libcudnn8==8.6', why: 'x', undo: { file: path.join(dir, 'apt-get'), args: ['install', '-y', 'libcudnn8=8.5.0.96-1+cuda11.7'] } } },
    ],
  };
  await writeFile(file, `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o600 });
  return file;
}

const FOUR = ['conda', 'python3', 'apt-get', 'ldconfig'];

describe.runIf(asRoot)('a program a data file names (as root)', () => {
  it('J1: a journal naming conda, python3, apt-get and ldconfig in a folder anyone can write: rollback runs none of them and gives the commands to run', async () => {
    const home = await tempDir('cw-j1-home-');
    const ran = await tempDir('cw-j1-ran-');
    const dir = await tempDir('cw-j1-bin-');
    await recordingPrograms(dir, ran, FOUR);
    await chmod(dir, 0o777);
    const journal = await journalNaming(home, dir);
    const r = await rollbackEnvChanges(journal, { host: hostWith(home, { HOME: home, PATH: '/usr/bin:/bin' }) });

    expect(await readdir(ran)).toEqual([]);
    expect(r.ok).toBe(false);
    const messages = r.failed.map((f) => f.message);
    expect(messages).toHaveLength(4);
    for (const name of FOUR) {
      const m = messages.find((x) => x.includes(`will not run ${path.join(dir, name)}`));
      expect(m, name).toBeDefined();
      expect(m).toContain(`${dir} is writable by other users`);
      expect(m).toContain(`run it yourself: ${path.join(dir, name)}`);
    }
  });

  it('J1, the control: the same journal naming programs in a folder only root can write runs them (the fixtures do record a run)', async () => {
    const home = await tempDir('cw-j1c-home-');
    const ran = await tempDir('cw-j1c-ran-');
    const dir = await tempDir('cw-j1c-bin-');
    await recordingPrograms(dir, ran, FOUR);
    const journal = await journalNaming(home, dir);
    await rollbackEnvChanges(journal, { host: hostWith(home, { HOME: home, PATH: '/usr/bin:/bin' }) });
    expect((await readdir(ran)).sort()).toEqual([...FOUR].sort());
  });

  it('J1: a program whose owner changed since cudawiz ran it is not run, even in a folder only root can write', async () => {
    const home = await tempDir('cw-j1o-home-');
    const ran = await tempDir('cw-j1o-ran-');
    const dir = await tempDir('cw-j1o-bin-');
    await recordingPrograms(dir, ran, ['ldconfig']);
    const file = path.join(home, 'journal.json');
    const journal: EnvJournal = { format: 1, entries: [{ at: 'x', state: 'applied', change: { kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: path.join(dir, 'ldconfig'), args: [], owner: 4242 }, why: 'x' } }] };
    await writeFile(file, JSON.stringify(journal), { mode: 0o600 });
    const r = await rollbackEnvChanges(file, { host: hostWith(home, { HOME: home, PATH: '/usr/bin:/bin' }) });
    expect(await readdir(ran)).toEqual([]);
    expect(r.failed[0].message).toContain('was owned by user 4242 when cudawiz ran it, and is owned by user 0 now');
  });

  it('P1: CONDA_EXE in a folder another user owns: repair refuses before conda runs once, journals nothing, and names the command to run', async () => {
    const home = await tempDir('cw-p1-home-');
    const ran = await tempDir('cw-p1-ran-');
    await chmod(ran, 0o777);
    const theirs = await tempDir('cw-p1-theirs-');
    await recordingPrograms(theirs, ran, ['conda']);
    await chown(theirs, NOBODY, NOBODY);
    await chown(path.join(theirs, 'conda'), NOBODY, NOBODY);
    const prefix = path.join(home, 'envs', 'tf');
    await mkdir(path.join(prefix, 'lib'), { recursive: true });
    const req = requirementsFor(builtinCatalog(), '2.12', 'linux');
    const replace = packageReplacement({ files: ['libcudnn.so.8'], owner: { manager: 'conda', prefix, dir: path.join(prefix, 'lib') } as never }, req)!;
    const host = hostWith(home, { HOME: home, PATH: '/usr/bin:/bin', CONDA_EXE: path.join(theirs, 'conda') });
    const journal = path.join(home, '.config', 'cudawiz', 'env-journal.json');

    const refused = await managerProgram(host, replace).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(CudawizError);
    expect((refused as CudawizError).code).toBe('program-untrusted');
    expect((refused as CudawizError).message).toContain(`will not run ${path.join(theirs, 'conda')}`);
    expect((refused as CudawizError).message).toContain(`is owned by user ${NOBODY}`);
    expect((refused as CudawizError).fix).toContain(`run it yourself: ${path.join(theirs, 'conda')} install --yes -p ${prefix}`);
    // Reading conda's state runs nothing either, and the change itself refuses before its journal entry.
    expect(typeof (await readPackageState(host, replace))).toBe('string');
    await expect(applyPackageChange(host, replace, { revision: 1, versions: {} }, journal, 'x')).rejects.toMatchObject({ code: 'program-untrusted' });
    expect(await readdir(ran)).toEqual([]);
    expect(await readdir(path.dirname(journal)).catch(() => [])).toEqual([]);
  });
});
