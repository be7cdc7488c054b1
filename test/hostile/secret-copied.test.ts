// A secret copied where others can read (#37, class 5), E5: a 0600 ~/.bashrc holding a token, then
// `repair --yes` (the load-order fix, which adds one line to that rc file) through the built CLI (npm run
// build first). The token never appears in any file cudawiz writes; the journal keeps the line it added
// and the rc file's hashes, not the rc file; cudawiz's own state under ~/.config, ~/.cache and
// ~/.local/share is 0600 files in 0700 folders; rollback gives the rc file back byte for byte.
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheVerifiedCopy, fetchVerified } from '../../src/fetch/download.js';
import { isOwnStateRoot, makeFolders } from '../../src/trust/write.js';
import { runBuilt } from '../helpers/cli.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
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

describe("cudawiz's downloads and own roots are this user's alone (#37 item 4)", () => {
  let mirror: NvidiaMirror | undefined;
  afterEach(async () => {
    await mirror?.close();
    mirror = undefined;
  });
  const modes = async (dir: string) => (await walk(dir)).map((f) => `${path.relative(dir, f.file)} ${f.mode.toString(8)}`).sort();

  it('a download lands as a 0600 file (and its proof 0600) in a 0700 ~/.cache/cudawiz made for it, whatever the umask', async () => {
    mirror = await startMirror({ root: await tempDir('cw-mirror-') });
    const RUN = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
    const info = await mirror.addFile(RUN, randomBytes(64 * 1024));
    const home = await tempDir('cw-home-');
    const cache = path.join(home, '.cache', 'cudawiz');
    const old = process.umask(0);
    try {
      const r = await fetchVerified({ url: `https://developer.download.nvidia.com/${RUN}`, file: path.basename(RUN), checksum: { sha256: info.sha256 }, cacheDir: cache, mirror: mirror.url, connections: 1 });
      expect(r.path).toBe(path.join(cache, path.basename(RUN)));
    } finally {
      process.umask(old);
    }
    expect(((await stat(cache)).mode & 0o777).toString(8)).toBe('700');
    const files = (await walk(cache)).filter((f) => !f.isDir);
    expect(files.map((f) => path.basename(f.file))).toEqual(expect.arrayContaining([path.basename(RUN), `${path.basename(RUN)}.verified.json`]));
    expect(files.filter((f) => f.mode !== 0o600).map((f) => `${f.file} ${f.mode.toString(8)}`)).toEqual([]);
  });

  it("a file from a bundle or --cudnn-archive (0644 where it was) is copied into the cache as 0600", async () => {
    const src = path.join(await tempDir('cw-bundle-'), 'cudnn.tgz');
    const bytes = randomBytes(8192);
    await writeFile(src, bytes, { mode: 0o644 });
    const home = await tempDir('cw-home-');
    const cache = path.join(home, '.cache', 'cudawiz');
    const r = await cacheVerifiedCopy({ source: src, file: 'cudnn.tgz', cacheDir: cache, want: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length }, from: 'a bundle' });
    expect(r.path).toBe(path.join(cache, 'cudnn.tgz'));
    expect(await modes(cache)).toEqual(['cudnn.tgz 600', 'cudnn.tgz.verified.json 600']);
    expect(((await stat(cache)).mode & 0o777).toString(8)).toBe('700');
  });

  it('~/.local/share/cudawiz is made 0700 when cudawiz creates it for a per-user toolkit; the toolkit folders under it stay 0755, and ~/.local/share is not touched', async () => {
    const home = await tempDir('cw-home-');
    await mkdir(path.join(home, '.local', 'share'), { recursive: true, mode: 0o755 });
    const toolkit = path.join(home, '.local/share/cudawiz/cuda/cuda-11.8');
    const old = process.umask(0);
    try {
      await makeFolders(toolkit);
    } finally {
      process.umask(old);
    }
    expect(((await stat(path.join(home, '.local/share/cudawiz'))).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(toolkit)).mode & 0o777).toString(8)).toBe('755');
    expect(((await stat(path.join(home, '.local/share'))).mode & 0o777).toString(8)).toBe('755');
    // A folder of that name anywhere else (a --cuda-root the user chose) is theirs to shape: not narrowed.
    const elsewhere = path.join(home, 'opt', 'cudawiz', 'cuda-11.8');
    await makeFolders(elsewhere);
    expect(((await stat(path.dirname(elsewhere))).mode & 0o700).toString(8)).toBe('700');
    expect((await stat(path.dirname(elsewhere))).mode & 0o055).not.toBe(0);
    expect(isOwnStateRoot(path.join(home, '.config', 'cudawiz'))).toBe(true);
    expect(isOwnStateRoot(path.join(home, '.cache', 'cudawiz'))).toBe(true);
    expect(isOwnStateRoot(path.join(home, 'share', 'cudawiz'))).toBe(false);
  });
});
