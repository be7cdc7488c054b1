// A secret copied where others can read (#37, class 5), E5: a 0600 ~/.bashrc holding a token, then
// `repair --yes` (the load-order fix, which adds one line to that rc file) through the built CLI (npm run
// build first). The token never appears in any file cudawiz writes; the journal keeps the line it added
// and the rc file's hashes, not the rc file; cudawiz's own state under ~/.config, ~/.cache and
// ~/.local/share is 0600 files in 0700 folders; rollback gives the rc file back byte for byte.
import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { staleToolkitFirst, type RepairClass } from '../fixtures/repair-classes.js';

const TOKEN = 'hf_cudawizTestSecretToken0123456789abcdef';

let open: RepairClass | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** Every file under `dir` (not following links), with its mode. */
async function walk(dir: string): Promise<{ file: string; mode: number; isDir: boolean }[]> {
  const out: { file: string; mode: number; isDir: boolean }[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, e.name);
    const s = await stat(file);
    out.push({ file, mode: s.mode & 0o777, isDir: e.isDirectory() });
    if (e.isDirectory()) out.push(...(await walk(file)));
  }
  return out;
}

/** cudawiz's own folders in a home: what it keeps there must be its user's alone. */
const ownState = (home: string) => ['.config/cudawiz', '.cache/cudawiz', '.local/share/cudawiz'].map((d) => path.join(home, d));

async function repairWithSecretRc(rcFill = '') {
  const c = await staleToolkitFirst();
  open = c;
  await c.m.rcLines([`export HF_TOKEN=${TOKEN}`, rcFill].filter(Boolean));
  await chmod(c.m.rc, 0o600);
  const rcBefore = await readFile(c.m.rc);
  const r = await runBuilt(['repair', '--tf', c.tf, '--yes', ...c.m.globals, ...c.flags], { env: c.env });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(await readFile(c.m.rc, 'utf8')).toMatch(/# cudawiz\n$/);
  return { c, rcBefore };
}

describe('a token in a 0600 ~/.bashrc and repair --yes (E5)', () => {
  it('is in no file cudawiz wrote; its state is 0600 in 0700 folders; rollback gives the rc back byte for byte', async () => {
    const { c, rcBefore } = await repairWithSecretRc();
    const home = c.m.home;
    const files = (await walk(home)).filter((f) => !f.isDir && f.file !== c.m.rc);
    const holding = [];
    for (const f of files) if ((await readFile(f.file)).includes(TOKEN)) holding.push(f.file);
    expect(holding).toEqual([]);

    const state = (await Promise.all(ownState(home).map(async (d) => [...(await stat(d).then((s) => [{ file: d, mode: s.mode & 0o777, isDir: true }], () => [])), ...(await walk(d))]))).flat();
    // The journal and the env script at least: what the load-order fix keeps.
    expect(state.map((s) => path.basename(s.file))).toEqual(expect.arrayContaining(['env-journal.json', 'env-cuda-11.8.sh']));
    expect(state.filter((s) => s.mode !== (s.isDir ? 0o700 : 0o600)).map((s) => `${s.file} ${s.mode.toString(8)}`)).toEqual([]);

    const journal = JSON.parse(await readFile(path.join(home, '.config/cudawiz/env-journal.json'), 'utf8'));
    const rcEntry = journal.entries.find((e: { change: { kind: string } }) => e.change.kind === 'rc-line').change;
    expect(rcEntry).toMatchObject({ target: c.m.rc, before: null, after: null, sha256Before: expect.stringMatching(/^[0-9a-f]{64}$/), sha256After: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const undo = await runBuilt(['rollback', ...c.m.globals], { env: c.env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect((await readFile(c.m.rc)).equals(rcBefore)).toBe(true);
    expect((await stat(c.m.rc)).mode & 0o777).toBe(0o600);
    // Nothing left to undo: no empty journal behind.
    await expect(stat(path.join(home, '.config/cudawiz/env-journal.json'))).rejects.toThrow();
  });

  it('a large rc (4 MB) is not copied into the journal: the journal stays a few KB', async () => {
    const fill = Array.from({ length: 60_000 }, (_, i) => `alias a${i}='echo ${'x'.repeat(50)}'`).join('\n');
    const { c } = await repairWithSecretRc(fill);
    const size = (await stat(path.join(c.m.home, '.config/cudawiz/env-journal.json'))).size;
    expect(size).toBeLessThan(8 * 1024);
  });
});
