// `cudawiz install --from DIR` on a machine with the network closed: a bundle made on a "connected"
// machine (the loopback mirror) is carried to fresh temp homes whose mirror is unreachable (a closed
// port on 127.0.0.1, no proxy), and the built CLI sets TF up from it — the same end state as an online
// install. A bundle with one byte changed, one file missing, or made for the other OS is refused with
// the home exactly as it was; with no bundle at all, the first download says "you are offline".
import { cp, chmod, copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot, runCli } from '../helpers/cli.js';
import { buildCudnnArchive, treeDigest } from '../helpers/cudnn-archive.js';
import { englishIn } from '../helpers/english-runs.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { driverOnlyHome, laptop as toolkitLaptop } from '../helpers/laptop.js';
import { runBuilt } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** Nothing listens here: every connection is refused at once, as on a machine with no route out. */
const CLOSED = 'http://127.0.0.1:9';
const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';

/** The connected machine: the mirror serving TF 2.10's redist archives and cuDNN, and a bundle made from it. */
async function bundleMadeOnline() {
  const base = await tempDir('cw-bundle-online-');
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(CUDNN_URL_PATH, await readFile(cudnn.file));
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { kib: 1, overlayExtra: { cudnn: [{ version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } }] } });
  const overlay = path.join(base, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  const bundle = path.join(base, 'tf-2.10-linux');
  const made = await runCli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', bundle, '--catalog', overlay, '--mirror', mirror.url, '--cache-dir', path.join(base, 'cache')]);
  if (made.code !== 0) throw new Error(made.stdout + made.stderr);
  return { base, overlay, bundle, fixture };
}

/** A fresh Linux laptop (RTX 2060, driver 525, Python 3.10 fixture, no CUDA), with its own cache; `mirrorUrl` is where it would download from. */
async function laptop(overlay: string, mirrorUrl: string) {
  const home = await tempDir('cw-offline-home-');
  await chmod(home, 0o755);
  const { bin, driverLib } = await driverOnlyHome(home);
  const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: driverLib, PYTHONPATH: path.join(repoRoot, 'test/fixtures/python/py310') };
  const globals = ['--catalog', overlay, '--mirror', mirrorUrl, '--cache-dir', path.join(home, 'cache')];
  const run = async (argv: string[]) => {
    const r = await execa(process.execPath, [builtCli, ...argv, ...globals], { env, extendEnv: false, cwd: home, reject: false });
    return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
  const toolkit = path.join(home, '.local/share/cudawiz/cuda/cuda-11.8');
  return { home, run, toolkit };
}

const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id?: string; ok?: boolean; exitCode?: number; summary?: string; error?: { code?: string; message: string } });

/** The toolkit as files and their bytes, without what records when it was made. */
async function toolkitState(dir: string) {
  const tree = await treeDigest(dir);
  const manifest = JSON.parse(await readFile(path.join(dir, '.cudawiz/redist.json'), 'utf8')) as { release: string; files: unknown[]; components: unknown };
  return { tree: Object.fromEntries(Object.entries(tree).filter(([k]) => !k.startsWith('.cudawiz'))), release: manifest.release, files: manifest.files, components: manifest.components };
}

describe('cudawiz install --from DIR with the network closed', () => {
  it('sets TF 2.10 up from a redist bundle: the same toolkit and manifest as online, no request anywhere', async () => {
    const made = await bundleMadeOnline();
    const online = await laptop(made.overlay, mirror!.url);
    const on = await online.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--json']);
    expect(events(on.stdout).at(-1), on.stdout + on.stderr).toMatchObject({ type: 'result', ok: true });

    const offline = await laptop(made.overlay, CLOSED);
    const before = mirror!.requests.length;
    const off = await offline.run(['install', '--from', made.bundle, '--yes', '--json']);
    const ev = events(off.stdout);
    expect(ev.at(-1), off.stdout + off.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(['preflight', 'download-cuda-redist', 'unpack-cuda-redist', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    expect(mirror!.requests.length).toBe(before);
    expect(await toolkitState(offline.toolkit)).toEqual(await toolkitState(online.toolkit));
    // The archives were copied into the private cache while hashed again, and unpacked from there (#37): never read from the bundle twice.
    expect(await readdir(path.join(offline.home, 'cache'))).toEqual(expect.arrayContaining([expect.stringMatching(/archive\.tar\.xz$/)]));
  }, 240_000);

  it('refuses a bundle with one byte changed, one file missing, or made for the other OS, and leaves the home as it was', async () => {
    const made = await bundleMadeOnline();
    const m = await laptop(made.overlay, CLOSED);
    const tamper = async (name: string, change: (dir: string) => Promise<void>) => {
      const dir = path.join(made.base, name);
      await cp(made.bundle, dir, { recursive: true });
      await change(dir);
      return dir;
    };
    const cublas = path.basename(made.fixture.archives.libcublas.file);
    const altered = await tamper('altered', async (dir) => {
      const bytes = await readFile(path.join(dir, cublas));
      bytes[bytes.length >> 1] ^= 0x20;
      await writeFile(path.join(dir, cublas), bytes);
    });
    const missing = await tamper('missing', (dir) => rm(path.join(dir, cublas)));
    const windows = await tamper('windows', async (dir) => {
      const manifest = JSON.parse(await readFile(path.join(dir, 'cudawiz-bundle.json'), 'utf8'));
      await writeFile(path.join(dir, 'cudawiz-bundle.json'), JSON.stringify({ ...manifest, os: 'windows' }));
    });
    const home = await treeDigest(m.home);
    const cases: [string, string, string][] = [
      [altered, 'bundle-altered', `${cublas} was altered: its sha256 is`],
      [missing, 'bundle-missing', `${cublas} is missing`],
      [windows, 'bundle-other-os', 'it was made for windows, and this machine runs linux'],
    ];
    for (const [dir, code, says] of cases) {
      const r = await m.run(['install', '--from', dir, '--yes', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      // Refused before any plan: one JSON document naming every problem.
      const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(error.code, r.stdout).toBe(code);
      expect(error.message).toContain(says);
      expect(error.message).toContain('Nothing was changed.');
      expect(await treeDigest(m.home)).toEqual(home);
    }
    // Asked for another TF than the bundle holds: refused the same way.
    const other = await m.run(['install', '--tf', '2.12', '--from', made.bundle, '--yes']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('it is for TensorFlow 2.10, not 2.12');
    expect(await treeDigest(m.home)).toEqual(home);
  }, 180_000);

  it('with no bundle and no network, the first download says "you are offline" and which bundle to make (exit 1), in both languages', async () => {
    const made = await bundleMadeOnline();
    const m = await laptop(made.overlay, CLOSED);
    const r = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', '--no-color']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain('You are offline (127.0.0.1:9 cannot be reached): make a bundle on a connected machine with cudawiz download --tf 2.10 --route redist --os linux --dest DIR');
    expect(r.stdout + r.stderr).not.toContain('failed after 6 tries');
    const zh = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'no', '--no-color', '--lang', 'zh']);
    expect(zh.code).toBe(1);
    expect(zh.stdout + zh.stderr).toContain('这台机器没有联网');
    expect(englishIn(zh.stdout + zh.stderr)).toEqual([]);
  }, 120_000);

  it('sets TF 2.3 up from a toolkit bundle (the runfile, and the cuDNN archive placed by hand) with the network closed: the toolkit an online install makes', async () => {
    const online = await toolkitLaptop();
    mirror = online.mirror;
    const bundle = path.join(online.home, 'tf-2.3-linux');
    const make = ['download', '--tf', '2.3', '--route', 'toolkit', '--os', 'linux', '--dest', bundle, ...online.globals];
    // The mirror has no public copy of the cuDNN 7.6.5 tgz: the bundle waits for it (exit 3) until it is placed.
    expect((await runBuilt(make, { env: online.env })).code).toBe(3);
    await copyFile(online.archive, path.join(bundle, path.basename(online.archive)));
    const made = await runBuilt(make, { env: online.env });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const on = await runBuilt(['install', '--tf', '2.3', '--yes', '--json', ...online.globals, '--downloads', online.downloads, '--configure-env', 'no'], { env: online.env });
    expect(events(on.stdout).at(-1), on.stdout + on.stderr).toMatchObject({ type: 'result', ok: true });

    // Another laptop, its mirror closed and nothing in its Downloads: only the bundle can serve.
    const off = await toolkitLaptop();
    await off.mirror.close();
    await rm(off.archive);
    const globals = ['--catalog', online.overlay, '--mirror', CLOSED, '--cuda-root', off.cudaRoot, '--cache-dir', off.cache];
    const r = await runBuilt(['install', '--from', bundle, '--yes', '--json', ...globals, '--downloads', off.downloads, '--configure-env', 'no'], { env: off.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(['preflight', 'python', 'disk-space', 'download-cuda', 'install-cuda', 'obtain-cudnn', 'import-cudnn', 'configure-env', 'verify']);
    for (const dir of ['bin', 'include', 'lib64']) expect((await readdir(path.join(off.toolkit, dir))).sort(), dir).toEqual((await readdir(path.join(online.toolkit, dir))).sort());
    const manifest = (t: string) => readFile(path.join(t, '.cudawiz/manifest.json'), 'utf8').then((x) => JSON.parse(x) as { state: string; archive: { version: string; sha256?: string }; files: { path: string }[] });
    const [a, b] = [await manifest(online.toolkit), await manifest(off.toolkit)];
    expect(b).toMatchObject({ state: 'complete', archive: { version: a.archive.version } });
    expect(b.files.map((f) => f.path).sort()).toEqual(a.files.map((f) => f.path).sort());
  }, 240_000);

  it('repair --from DIR with the network closed: a damaged library is unpacked again from the bundle', async () => {
    const made = await bundleMadeOnline();
    const m = await laptop(made.overlay, CLOSED);
    const first = await m.run(['install', '--from', made.bundle, '--yes']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await writeFile(path.join(m.toolkit, 'lib64/libcusparse.so.11.7.5.86'), 'overwritten by something else');
    const r = await m.run(['repair', '--tf', '2.10', '--from', made.bundle, '--yes']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('fetched and unpacked again: libcusparse');
    expect(await readFile(path.join(m.toolkit, 'lib64/libcusparse.so.11.7.5.86'))).not.toEqual(Buffer.from('overwritten by something else'));
  }, 240_000);
});
