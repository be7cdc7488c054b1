// `cudawiz download --tf V --route R --os O --dest DIR` against the loopback NVIDIA mirror: fixture
// redist archives in NVIDIA's layout (their sha256 in a --catalog overlay, as the real manifest's are
// in assets/), fixture installers and cuDNN archives at their real paths. Each route × OS makes a
// bundle whose manifest lists every file with its size and sha256; a re-run fetches nothing; a
// bundle cut short completes on the next run; a login-gated cuDNN archive leaves it incomplete
// (exit 3) until the user places it, and a wrong file placed there is said, not taken.
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBundle } from '../../src/bundle/check.js';
import { loadCatalog } from '../../src/catalog/load.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { runCli } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { englishIn } from '../helpers/english-runs.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures, type FixturePlatform } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The cuDNN builds the catalog picks for TF 2.10 (both OSes), at their real public paths. */
const CUDNN = {
  linux: { file: 'cudnn-11.2-linux-x64-v8.1.1.33.tgz', urlPath: 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz', version: '8.1.1.33', era: 'linux-cuda-folder' as const },
  windows: { file: 'cudnn-11.2-windows-x64-v8.1.0.77.zip', urlPath: 'compute/redist/cudnn/v8.1.0/cudnn-11.2-windows-x64-v8.1.0.77.zip', version: '8.1.0.77', era: 'windows-cuda-folder' as const },
};
const INSTALLER = {
  linux: { version: '11.2.2', file: 'cuda_11.2.2_460.32.03_linux.run', urlPath: 'compute/cuda/11.2.2/local_installers/cuda_11.2.2_460.32.03_linux.run' },
  windows: { version: '11.2.2', file: 'cuda_11.2.2_461.33_win10.exe', urlPath: 'compute/cuda/11.2.2/local_installers/cuda_11.2.2_461.33_win10.exe' },
};

/** A connected machine with a mirror serving TF 2.10's files for `os`, and the overlay giving their checksums. */
async function connected(os: 'linux' | 'windows', options: { cudnnNotServed?: boolean } = {}) {
  const home = await tempDir('cw-bundle-');
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const c = CUDNN[os];
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: c.era, version: c.version, cuda: '11.2', fileName: c.file });
  // Not served: the public copy answers 404, as when NVIDIA moves it behind the login.
  const cudnnBytes = await readFile(cudnn.file);
  const cudnnServed = options.cudnnNotServed ? { sha256: sha256(cudnnBytes) } : await mirror.addFile(c.urlPath, cudnnBytes);
  const i = INSTALLER[os];
  const installer = await mirror.addFile(i.urlPath, randomBytes(64 * 1024));
  const cudnnEntries = [{ version: c.version, cuda: '11.2', archives: { [os]: { sha256: cudnnServed.sha256 } } }];
  const platform: FixturePlatform = os === 'windows' ? 'windows-x86_64' : 'linux-x86_64';
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), {
    platform,
    kib: 1,
    overlayExtra: { cuda: [{ version: i.version, installers: { [os]: { sha256: installer.sha256 } } }], cudnn: cudnnEntries },
  });
  const overlay = path.join(home, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  const globals = ['--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(home, 'cache')];
  return { home, fixture, globals, overlay, cudnn: { ...c, path: cudnn.file, sha256: cudnnServed.sha256 }, installer: { ...i, sha256: installer.sha256 } };
}

interface Manifest { format: number; cudawiz: string; tensorflow: string; route: string; os: string; cuda?: string; complete: boolean; files: { id: string; file: string; size?: number; sha256?: string; present: boolean; access: string }[] }
const manifestOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'cudawiz-bundle.json'), 'utf8')) as Manifest;

describe('cudawiz download --tf: a bundle per route and OS', { timeout: 120_000 }, () => {
  for (const os of ['linux', 'windows'] as const) {
    it(`redist × ${os}: every archive and cuDNN, verified, with a manifest; a second run fetches nothing`, async () => {
      const m = await connected(os);
      const dest = path.join(m.home, 'bundle');
      const r = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', os, '--dest', dest, ...m.globals, '--no-color']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).toContain(`Making a bundle for TensorFlow 2.10 (redist route, ${os})`);
      expect(r.stdout).toContain('Bundle complete:');
      expect(r.stdout).toContain(`cudawiz install --from ${dest}`);
      const manifest = await manifestOf(dest);
      expect(manifest).toMatchObject({ format: 1, tensorflow: '2.10', route: 'redist', os, cuda: '11.8.0', complete: true });
      expect(manifest.cudawiz).toMatch(/^\d+\.\d+\.\d+/);
      const archives = Object.values(m.fixture.archives);
      expect(manifest.files.map((f) => f.file).sort()).toEqual([...archives.map((a) => path.basename(a.file)), m.cudnn.file].sort());
      for (const a of archives) {
        const entry = manifest.files.find((f) => f.file === path.basename(a.file))!;
        expect(entry).toMatchObject({ sha256: a.sha256, size: a.size, present: true });
        expect(sha256(await readFile(path.join(dest, entry.file)))).toBe(a.sha256);
        expect(mirror!.fileRequests(entry.file).length).toBe(1);
      }
      expect(manifest.files.find((f) => f.id === 'cudnn')).toMatchObject({ sha256: m.cudnn.sha256, present: true });
      // Only the files and the manifest: no .part, no proofs, no copies in flight.
      expect((await readdir(dest)).sort()).toEqual([...manifest.files.map((f) => f.file), 'cudawiz-bundle.json'].sort());

      const before = mirror!.requests.length;
      const again = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', os, '--dest', dest, ...m.globals, '--no-color']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('already in the bundle, checked');
      expect(mirror!.requests.length).toBe(before);
    });

    it(`toolkit × ${os}: the installer and cuDNN, verified, with a manifest`, async () => {
      const m = await connected(os);
      const dest = path.join(m.home, 'bundle');
      const r = await runCli(['download', '--tf', '2.10', '--route', 'toolkit', '--os', os, '--dest', dest, '--json', ...m.globals]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { complete: boolean; manifest: Manifest };
      expect(doc.complete).toBe(true);
      expect(doc.manifest.files.map((f) => [f.id, f.file, f.sha256, f.present])).toEqual([
        ['cuda-installer', m.installer.file, m.installer.sha256, true],
        ['cudnn', m.cudnn.file, m.cudnn.sha256, true],
      ]);
      expect(doc.manifest.cuda).toBe('11.2.2');
      expect(await manifestOf(dest)).toEqual(doc.manifest);
    });
  }

  it('a bundle cut short (one archive missing on the mirror) is marked incomplete; the next run fetches only what it lacks', async () => {
    const m = await connected('linux');
    const dest = path.join(m.home, 'bundle');
    const cufft = m.fixture.archives.libcufft;
    mirror!.fault({ mode: '500', path: path.basename(cufft.file), times: Infinity });
    const first = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, ...m.globals]);
    expect(first.code).toBe(1);
    const cut = await manifestOf(dest);
    expect(cut.complete).toBe(false);
    expect(cut.files.find((f) => f.id === 'libcufft')?.present).toBe(false);
    const had = cut.files.filter((f) => f.present).map((f) => f.file);
    expect(had.length).toBeGreaterThan(0);

    mirror!.clearFaults();
    const before = mirror!.requests.length;
    const second = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, ...m.globals]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect((await manifestOf(dest)).complete).toBe(true);
    const fetched = new Set(mirror!.requests.slice(before).map((q) => path.posix.basename(q.path)));
    for (const f of had) expect(fetched.has(f)).toBe(false);
    expect(fetched.has(path.basename(cufft.file))).toBe(true);
  }, 120_000);

  it('a cuDNN archive only the login gives is named with its page and the bundle stays incomplete (exit 3) until it is placed; a wrong file is said, the right one completes it', async () => {
    const m = await connected('linux', { cudnnNotServed: true });
    expect(m.cudnn.file).toBe('cudnn-11.2-linux-x64-v8.1.1.33.tgz');
    const dest = path.join(m.home, 'bundle');
    const argv = ['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, ...m.globals, '--no-color'];
    const first = await runCli(argv);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toContain(`${m.cudnn.file}: NVIDIA offers it only behind its login. Download it from https://developer.nvidia.com/`);
    expect(first.stdout).toContain('Bundle incomplete');
    expect((await manifestOf(dest)).complete).toBe(false);

    await writeFile(path.join(dest, m.cudnn.file), 'an HTML login page saved under the archive name');
    const wrong = await runCli(argv);
    expect(wrong.code).toBe(3);
    expect(wrong.stdout).toContain(`${m.cudnn.file} is there, but its bytes are not NVIDIA's (sha256 should be ${m.cudnn.sha256})`);

    await copyFile(m.cudnn.path, path.join(dest, m.cudnn.file));
    const placed = await runCli(argv);
    expect(placed.code, placed.stdout + placed.stderr).toBe(0);
    const manifest = await manifestOf(dest);
    expect(manifest.complete).toBe(true);
    expect(manifest.files.find((f) => f.id === 'cudnn')).toMatchObject({ present: true, sha256: m.cudnn.sha256 });
  });

  it('without --route, takes the route install and the wizard recommend (recommendRoute) for that TF and OS, and says which and why', async () => {
    const m = await connected('linux');
    const dest = path.join(m.home, 'bundle');
    const r = await runCli(['download', '--tf', '2.10', '--os', 'linux', '--dest', dest, '--no-color', ...m.globals]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The same words install says ("Route: X. why"), and the others with how to take them.
    expect(r.stderr).toContain('Route: redist. Recommended: no administrator, and only the CUDA libraries TensorFlow loads, into a folder of your own.');
    expect(r.stderr).toContain('Another route: --route toolkit (cudawiz requirements --tf 2.10 shows what each downloads).');
    expect(await manifestOf(dest)).toMatchObject({ tensorflow: '2.10', route: 'redist', os: 'linux', complete: true });
    // A route given is taken as given, with no recommendation said (the redist × OS tests above make those bundles).
    const given = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, '--no-color', ...m.globals]);
    expect(given.code, given.stdout + given.stderr).toBe(0);
    expect(given.stderr).not.toContain('Route: ');
    // No route offered for that TF there (no GPU build on native Windows after 2.10): no "Route:" line, the refusal says what instead.
    const none = await runCli(['download', '--tf', '2.12', '--os', 'windows', '--dest', path.join(m.home, 'none'), '--no-color', ...m.globals]);
    expect(none.code).toBe(2);
    expect(none.stderr).not.toContain('Route: ');
    expect(none.stderr).toContain('Install Ubuntu under WSL2');
  });

  it('refuses what it cannot bundle, with what to do: no --dest, the pip route on Windows, a folder that holds another bundle', async () => {
    const m = await connected('linux');
    const noDest = await runCli(['download', '--tf', '2.10', ...m.globals]);
    expect(noDest.code).toBe(2);
    expect(noDest.stderr).toContain('--dest DIR is required for a bundle');
    const pipWin = await runCli(['download', '--tf', '2.10', '--route', 'pip', '--os', 'windows', '--dest', path.join(m.home, 'x'), ...m.globals]);
    expect(pipWin.code).toBe(2);
    expect(pipWin.stderr).toContain('Linux and WSL2 only');
    const dest = path.join(m.home, 'bundle');
    expect((await runCli(['download', '--tf', '2.10', '--route', 'toolkit', '--os', 'linux', '--dest', dest, ...m.globals])).code).toBe(0);
    const other = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, ...m.globals]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`${dest} already holds a bundle for TensorFlow 2.10, route toolkit, linux.`);
    // The single-file download keeps working as before.
    const one = await runCli(['download', 'cudnn', '--version', '8.1.1', '--cuda', '11.2', '--os', 'linux', ...m.globals]);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    const none = await runCli(['download', ...m.globals]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('cudawiz download --tf 2.10 --route redist --os windows --dest DIR');
  });

  it('says it in Chinese with --lang zh', async () => {
    const m = await connected('windows');
    const r = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'windows', '--dest', path.join(m.home, 'b'), '--lang', 'zh', '--no-color', ...m.globals]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('安装包已完成');
    expect(englishIn(r.stdout + r.stderr)).toEqual([]);
  });

  it('checkBundle re-hashes every file and names what is wrong: one byte changed, one file missing, another OS, another TensorFlow or route', async () => {
    const m = await connected('linux');
    const dest = path.join(m.home, 'bundle');
    expect((await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', dest, ...m.globals])).code).toBe(0);
    const want = { catalog: loadCatalog({ overlayFile: m.overlay }), redist: loadRedistCatalog(m.overlay) };
    const good = await checkBundle(dest, { ...want, os: 'linux', tf: '2.10.0', route: 'redist' });
    expect(good.problems).toEqual([]);
    expect(good.bundle?.files.size).toBe(Object.keys(m.fixture.archives).length + 1);
    expect(good.bundle?.cudnnArchive).toBe(path.join(dest, m.cudnn.file));

    expect((await checkBundle(dest, { ...want, os: 'windows' })).problems.map((p) => p.message)).toEqual(['it was made for linux, and this machine runs windows']);
    expect((await checkBundle(dest, { ...want, os: 'linux', tf: '2.12' })).problems.map((p) => p.code)).toEqual(['other-tf']);
    expect((await checkBundle(dest, { ...want, os: 'linux', route: 'toolkit' })).problems.map((p) => p.code)).toEqual(['other-route']);

    const cublas = path.join(dest, path.basename(m.fixture.archives.libcublas.file));
    const bytes = await readFile(cublas);
    bytes[1000] ^= 1;
    await writeFile(cublas, bytes);
    await rm(path.join(dest, path.basename(m.fixture.archives.libcurand.file)));
    const broken = await checkBundle(dest, { ...want, os: 'linux' });
    expect(broken.problems.map((p) => [p.code, p.file])).toEqual([
      ['altered', path.basename(cublas)],
      ['missing', path.basename(m.fixture.archives.libcurand.file)],
    ]);
    expect(broken.problems[0].message).toContain(`its sha256 is ${sha256(bytes)}, the manifest says ${m.fixture.archives.libcublas.sha256}`);
    // Not a bundle at all.
    expect((await checkBundle(m.home, { ...want, os: 'linux' })).problems.map((p) => p.code)).toEqual(['no-manifest']);
  });
});
