// #37's repros through the built CLI (dist/cli.js in real child processes), beside the module-level
// tests of each class: B1/B2 (a bundle's archive swapped once cudawiz has started copying it — the
// verified copy is what is unpacked), B12 (`download --dest D` with a link planted at the manifest's
// temp name), R1/R2 (root `install --cuda-root W`, W mode 0777 or owned by `nobody`: the preflight
// stops before a byte is laid into W). The R cases use the redist route, whose env step writes only
// the run's own HOME (a temp dir): even a regression could write nothing outside the test's folders,
// and the real /etc is never written.
import { createHash, randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { chmod, chown, copyFile, lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { redistUser } from '../helpers/redist-user.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { driverOnlyHome } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';

const asRoot = process.getuid?.() === 0;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
type Event = { type: string; id?: string; ok?: boolean; exitCode?: number; summary?: string; stop?: { step: string; code: string; message: string; fix?: string } };
const events = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const CUDNN_URL_PATH = 'compute/redist/cudnn/v8.1.1/cudnn-11.2-linux-x64-v8.1.1.33.tgz';

/** A mirror serving TF 2.10's redist archives and cuDNN; `download` makes the bundle at `dest` when given. */
async function connected() {
  const base = await tempDir('cw-hostile-cli-');
  await chmod(base, 0o755);
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
  const served = await mirror.addFile(CUDNN_URL_PATH, await readFile(cudnn.file));
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { kib: 1, overlayExtra: { cudnn: [{ version: '8.1.1.33', cuda: '11.2', archives: { linux: { gated: false, url: `https://developer.download.nvidia.com/${CUDNN_URL_PATH}`, sha256: served.sha256 } } }] } });
  const overlay = path.join(base, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  const cli = async (argv: string[], env: Record<string, string> = {}) => {
    const r = await execa(process.execPath, [builtCli, ...argv, '--catalog', overlay, '--mirror', mirror!.url], { env: { PATH: process.env.PATH ?? '', HOME: base, ...env }, extendEnv: false, cwd: base, reject: false });
    return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  };
  return { base, cli, fixture };
}

describe('through the built CLI: a link planted where download writes (#37 B12)', () => {
  it('download --dest D (0777) with D/cudawiz-bundle.json.tmp → VICTIM: exit 0, a complete bundle, VICTIM untouched', async () => {
    const c = await connected();
    const victim = path.join(await tempDir('cw-victim-'), 'shadow');
    await writeFile(victim, 'root:secret-hash:19000::::::\n', { mode: 0o600 });
    const d = path.join(c.base, 'D');
    await mkdir(d);
    await chmod(d, 0o777);
    await symlink(victim, path.join(d, 'cudawiz-bundle.json.tmp'));
    const r = await c.cli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', d, '--cache-dir', path.join(c.base, 'cache')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('root:secret-hash:19000::::::\n');
    const manifest = JSON.parse(await readFile(path.join(d, 'cudawiz-bundle.json'), 'utf8')) as { complete: boolean };
    expect(manifest.complete).toBe(true);
    expect((await lstat(path.join(d, 'cudawiz-bundle.json'))).isFile()).toBe(true);
  }, 180_000);
});

describe('through the built CLI: a bundle file swapped after its check (#37 B1, B2)', () => {
  it("install --from B while a watcher replaces the nvrtc archive and the cuDNN .tgz in B once the checked copy of each is in cudawiz's cache, before the unpack: exit 0, the checked bytes are the ones laid down", async () => {
    const c = await connected();
    const bundle = path.join(c.base, 'B');
    const made = await c.cli(['download', '--tf', '2.10', '--route', 'redist', '--os', 'linux', '--dest', bundle, '--cache-dir', path.join(c.base, 'cache-online')]);
    expect(made.code, made.stdout + made.stderr).toBe(0);
    await mirror!.close();
    mirror = undefined;
    const names = (await readdir(bundle)).filter((n) => n.startsWith('cuda_nvrtc-') || n.startsWith('cudnn-'));
    expect(names).toHaveLength(2);
    const originals = new Map(await Promise.all(names.map(async (n) => [n, sha256(await readFile(path.join(bundle, n)))] as const)));
    // The laptop: fixture nvidia-smi and driver library, no CUDA; its own cache, watched.
    const home = path.join(c.base, 'home');
    const { bin, driverLib } = await driverOnlyHome(home);
    const cache = path.join(home, 'cache');
    await mkdir(cache, { mode: 0o700 });
    const swapped = new Set<string>();
    const swaps: Promise<void>[] = [];
    const w = watch(cache, { recursive: true }, (_e, name) => {
      const hit = names.find((n) => name && String(name) === n && !swapped.has(n));
      if (!hit) return;
      swapped.add(hit);
      const file = path.join(bundle, hit);
      swaps.push(writeFile(`${file}.attacker`, randomBytes(4096)).then(() => rename(`${file}.attacker`, file)));
    });
    try {
      const env = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: driverLib, PYTHONPATH: path.join(repoRoot, 'test/fixtures/python/py310') };
      const r = await execa(process.execPath, [builtCli, 'install', '--from', bundle, '--yes', '--json', '--catalog', path.join(c.base, 'overlay.json'), '--mirror', 'http://127.0.0.1:9', '--cache-dir', cache], { env, extendEnv: false, cwd: home, reject: false });
      await Promise.all(swaps);
      const ev = events(String(r.stdout));
      expect(ev.at(-1), String(r.stdout) + String(r.stderr)).toMatchObject({ type: 'result', ok: true, exitCode: 0 });
      // Both files were swapped in the bundle while the install ran…
      expect([...swapped].sort()).toEqual([...names].sort());
      for (const n of names) expect(sha256(await readFile(path.join(bundle, n)))).not.toBe(originals.get(n));
      // …and what the install used is the checked copy: the attacker's 4 KiB of noise is no archive, so
      // reading the bundle's path again would have failed the unpack; the cache holds the original bytes.
      for (const n of names) expect(sha256(await readFile(path.join(cache, n))), n).toBe(originals.get(n));
      expect((await lstat(path.join(home, '.local/share/cudawiz/cuda/cuda-11.8/lib64'))).isDirectory()).toBe(true);
    } finally {
      w.close();
    }
  }, 240_000);
});

describe.runIf(asRoot)('through the built CLI: root `install --cuda-root W` with W others can change stops before W is touched (#37 R1, R2)', () => {
  for (const [label, prepare] of [
    ['R1: W mode 0777', async (w: string) => {
      await chown(w, 0, 0);
      await chmod(w, 0o777);
    }],
    ['R2: W owned by nobody (0755)', async (w: string) => {
      await chown(w, NOBODY, NOBODY);
      await chmod(w, 0o755);
    }],
  ] as const) {
    it(`${label}: --yes --dry-run shows the preflight stop (exit 1); --yes stops there too (exit 1), W stays empty, no env script`, async () => {
      const m = await redistUser({ outsideHome: true });
      mirror = m.mirror;
      const w = m.cudaRoot!;
      await prepare(w);
      const dry = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--dry-run', '--json', ...m.globals], { asTester: true });
      const plan = events(dry.stdout).find((e) => e.type === 'plan');
      expect(plan?.stop, dry.stdout + dry.stderr).toMatchObject({ step: 'preflight', code: 'loader-folder-untrusted' });
      expect(plan?.stop?.message).toContain(w);
      expect(plan?.stop?.fix).toContain(`chmod go-w "${w}"`);
      expect(dry.code).toBe(1);

      const before = mirror.requests.length;
      const real = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--configure-env', 'yes', '--json', ...m.globals], { asTester: true });
      const ev = events(real.stdout);
      expect(ev.at(-1), real.stdout + real.stderr).toMatchObject({ type: 'result', ok: false, exitCode: 1 });
      expect(ev.find((e) => e.type === 'step-failed')).toMatchObject({ id: 'preflight' });
      expect(real.code).toBe(1);
      expect(await readdir(w)).toEqual([]);
      expect(mirror.requests.length).toBe(before);
      await expect(lstat(path.join(m.home, '.config/cudawiz/env-cuda-11.8.sh'))).rejects.toThrow();

      // --configure-env no hands W to no program: root may lay the toolkit there (the user's choice), the plan has no stop.
      const no = await m.run(['install', '--tf', '2.10', '--route', 'redist', '--yes', '--dry-run', '--configure-env', 'no', '--json', ...m.globals], { asTester: true });
      expect(events(no.stdout).find((e) => e.type === 'plan')?.stop?.code).not.toBe('loader-folder-untrusted');
    }, 180_000);
  }
});
