// The built CLI (`node dist/cli.js download …`) against the local NVIDIA mirror, with a --catalog
// overlay pointing at fixture files with fixture checksums.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, runBuilt } from '../helpers/cli.js';
import { startMirror, type Fault, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const NV = 'https://developer.download.nvidia.com';
const RUN_PATH = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
const RUN = path.posix.basename(RUN_PATH);
const MD5SUM_PATH = 'compute/cuda/10.1/Prod/docs3/sidebar/md5sum.txt';
const CUDNN_PATH = 'compute/redist/cudnn/v7.6.5/cudnn-10.1-linux-x64-v7.6.5.32.tgz';
const CUDNN = path.posix.basename(CUDNN_PATH);

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

interface Machine {
  mirror: NvidiaMirror;
  cache: string;
  home: string;
  overlay: string;
  sha256: string;
  md5: string;
  size: number;
  args: (...extra: string[]) => string[];
  env: Record<string, string>;
}

/** A user's machine: an empty cache, a mirror holding CUDA 10.1's Linux installer, an overlay naming its checksum. */
async function machine(options: { size?: number; overlay?: (f: { sha256: string; md5: string; size: number }) => unknown } = {}): Promise<Machine> {
  const root = await tempDir('cw-mirror-');
  const home = await tempDir('cw-home-');
  const cache = path.join(home, 'cache');
  mirror = await startMirror({ root });
  const info = await mirror.addFile(RUN_PATH, randomBytes(options.size ?? 2 * 1024 * 1024));
  const cudnn = await mirror.addFile(CUDNN_PATH, randomBytes(300 * 1024));
  await mirror.addMd5sumList(MD5SUM_PATH, [{ name: RUN, md5: info.md5 }]);
  const overlay = path.join(home, 'overlay.json');
  const doc = options.overlay?.(info) ?? {
    cuda: [{ version: '10.1.243', installers: { linux: { sha256: info.sha256, size: info.size } } }],
    cudnn: [{ version: '7.6.5.32', cuda: '10.1', archives: { linux: { sha256: cudnn.sha256 } } }],
  };
  await writeFile(overlay, JSON.stringify(doc));
  const m = mirror;
  return {
    mirror: m,
    cache,
    home,
    overlay,
    ...info,
    env: { HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') },
    args: (...extra) => ['download', ...extra, '--catalog', overlay, '--mirror', m.url, '--cache-dir', cache],
  };
}

function spawnCli(m: Machine, args: string[]): ResultPromise<{ reject: false }> & { stderrLine: (re: RegExp) => Promise<string> } {
  const child = execa(process.execPath, [builtCli, ...args], { env: { PATH: process.env.PATH ?? '', ...m.env }, extendEnv: false, reject: false });
  let buf = '';
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  child.stderr!.on('data', (c: Buffer) => {
    buf += String(c);
    for (const w of [...waiters]) {
      const hit = buf.split('\n').find((l) => w.re.test(l));
      if (hit) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(hit);
      }
    }
  });
  /** Resolves on the first stderr line matching `re` (the CLI's own progress lines are the events). */
  const stderrLine = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const hit = buf.split('\n').find((l) => re.test(l));
      if (hit) return resolve(hit);
      waiters.push({ re, resolve });
      void child.then(() => reject(new Error(`exited before a line matching ${re}; stderr:\n${buf}`)));
    });
  return Object.assign(child, { stderrLine });
}

const json = (stdout: string) => JSON.parse(stdout) as { file: string; bytes: number; sha256: string; source: string; fromCache: boolean; resumedFrom: number };

describe('cudawiz download cuda', () => {
  it('fetches CUDA 10.1 for Linux through the mirror, verified, then reuses it from the cache without a request', async () => {
    const m = await machine();
    const r = await runBuilt([...m.args('cuda', '--version', '10.1', '--os', 'linux'), '--json'], { env: m.env });
    expect(r.code).toBe(0);
    const doc = json(r.stdout);
    expect(doc).toMatchObject({ file: path.join(m.cache, RUN), bytes: m.size, sha256: m.sha256, source: 'the catalog', fromCache: false });
    const before = m.mirror.requests.length;
    const again = await runBuilt([...m.args('cuda', '--version', '10.1.243', '--os', 'linux'), '--json'], { env: m.env });
    expect(json(again.stdout)).toMatchObject({ sha256: m.sha256, fromCache: true });
    expect(m.mirror.requests.length).toBe(before);
  });

  const survivable: [string, Fault][] = [
    ['the connection drops mid-body', { mode: 'drop', path: RUN, afterBytes: 700_000 }],
    ['the server answers 500', { mode: '500', path: RUN }],
    ['the server is busy (503, Retry-After: 1)', { mode: '503', path: RUN, retryAfter: 1 }],
    ['the link trickles', { mode: 'trickle', path: RUN, bytesPerSecond: 2 * 1024 * 1024 }],
    ['the server ignores Range', { mode: 'ignore-range', path: RUN, times: Infinity }],
  ];
  it.each(survivable)('still ends with the verified installer when %s', async (_story, fault) => {
    const m = await machine();
    m.mirror.fault(fault);
    const r = await runBuilt([...m.args('cuda', '--version', '10.1', '--os', 'linux'), '--json'], { env: m.env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).sha256).toBe(m.sha256);
    expect(m.mirror.fileRequests(RUN).some((q) => q.fault === fault.mode)).toBe(true);
    expect(existsSync(path.join(m.cache, `${RUN}.part`))).toBe(false);
  });

  it('deletes a corrupted download and says which checksum was expected and from where', async () => {
    const m = await machine();
    m.mirror.fault({ mode: 'wrong-bytes', path: RUN, times: Infinity });
    const r = await runBuilt(m.args('cuda', '--version', '10.1', '--os', 'linux'), { env: m.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`expected sha256 ${m.sha256} (from the catalog)`);
    expect(existsSync(path.join(m.cache, RUN))).toBe(false);
    expect(existsSync(path.join(m.cache, `${RUN}.part`))).toBe(false);
  });

  it('refuses a mirror that redirects to a plain-http host', async () => {
    const m = await machine();
    m.mirror.fault({ mode: 'hostile-redirect', path: RUN, times: Infinity });
    const r = await runBuilt(m.args('cuda', '--version', '10.1', '--os', 'linux'), { env: m.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/redirected to http:\/\/downloads\.example\.invalid\/.*not HTTPS; refused/);
    expect(existsSync(path.join(m.cache, `${RUN}.part`))).toBe(false);
  });

  it('resumes after the process was killed (SIGKILL) mid-transfer, asking only for the missing bytes', async () => {
    const m = await machine();
    m.mirror.fault({ mode: 'trickle', path: RUN, bytesPerSecond: 512 * 1024 });
    const first = spawnCli(m, m.args('cuda', '--version', '10.1', '--os', 'linux', '--connections', '1'));
    await first.stderrLine(/ 30%/);
    first.kill('SIGKILL');
    expect((await first).signal).toBe('SIGKILL');
    const kept = (await stat(path.join(m.cache, `${RUN}.part`))).size;
    expect(kept).toBeGreaterThan(0.3 * m.size);
    const r = await runBuilt([...m.args('cuda', '--version', '10.1', '--os', 'linux'), '--json'], { env: m.env });
    expect(r.code, r.stderr).toBe(0);
    const doc = json(r.stdout);
    expect(doc.sha256).toBe(m.sha256);
    expect(doc.resumedFrom).toBe(kept);
    expect(m.mirror.fileRequests(RUN).at(-1)!.range).toBe(`bytes=${kept}-${m.size - 1}`);
  });

  it('Ctrl+C exits 130 and keeps a .part that the next run resumes', async () => {
    const m = await machine();
    m.mirror.fault({ mode: 'trickle', path: RUN, bytesPerSecond: 512 * 1024 });
    const child = spawnCli(m, m.args('cuda', '--version', '10.1', '--os', 'linux'));
    await child.stderrLine(/ 10%/);
    child.kill('SIGINT');
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(done.stderr).toContain('Run the same command again to resume');
    expect((await stat(path.join(m.cache, `${RUN}.part`))).size).toBeGreaterThan(0);
    const r = await runBuilt([...m.args('cuda', '--version', '10.1', '--os', 'linux'), '--json'], { env: m.env });
    expect(json(r.stdout).resumedFrom).toBeGreaterThan(0);
  });

  it('refuses to start on a disk without room, naming how much is needed, and stops cleanly when the disk fills up mid-way', async () => {
    const m = await machine({ size: 3 * 1024 * 1024 });
    const small = path.join(m.home, 'small-disk');
    await mkdir(small);
    // A real 1 MiB tmpfs where we may mount one (root); otherwise the free-space seam.
    const mounted = (await execa('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', small], { reject: false })).exitCode === 0;
    try {
      const args = [...m.args('cuda', '--version', '10.1', '--os', 'linux').slice(0, -1), small];
      const r = await runBuilt(args, { env: mounted ? m.env : { ...m.env, CUDAWIZ_TEST_FREE_BYTES: String(1024 * 1024) } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Not enough free space in ${small}: 3.0 MiB needed (${m.size} bytes)`);
      expect(r.stderr).toContain('--cache-dir');
      expect(existsSync(path.join(small, `${RUN}.part`))).toBe(false);
      if (mounted) {
        // The disk fills up during the download (another program): the write fails, the .part stays.
        await rm(path.join(m.home, 'small-disk', `${RUN}.part`), { force: true });
        await execa('umount', [small]);
        await execa('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', small]);
        m.mirror.fault({ mode: 'trickle', path: RUN, bytesPerSecond: 512 * 1024 });
        const child = spawnCli(m, args);
        await child.stderrLine(/ 10%/);
        await writeFile(path.join(small, 'filler'), Buffer.alloc(4 * 1024 * 1024)).catch(() => undefined);
        const done = await child;
        expect(done.exitCode).toBe(1);
        expect(done.stderr).toContain(`The disk holding ${small} is full`);
        expect((await stat(path.join(small, `${RUN}.part`))).size).toBeGreaterThan(0);
      }
    } finally {
      if (mounted) await execa('umount', [small], { reject: false });
    }
  });

  it("verifies against NVIDIA's md5sum.txt, read from NVIDIA's host and not from the mirror, when the catalog has no checksum of its own", async () => {
    // The built-in 10.1.243 carries a sha256 (an overlay cannot remove one), so the overlay adds a release.
    const m = await machine({
      overlay: () => ({ cuda: [{ version: '10.1.999', installers: { linux: { file: RUN, url: `${NV}/${RUN_PATH}`, md5sumUrl: `${NV}/${MD5SUM_PATH}` } } }] }),
    });
    // NVIDIA's host, played by a second loopback server holding the genuine list.
    const nvidia = await startMirror({ root: await tempDir('cw-nvidia-') });
    try {
      await nvidia.addMd5sumList(MD5SUM_PATH, [{ name: RUN, md5: m.md5 }]);
      const r = await runBuilt([...m.args('cuda', '--version', '10.1.999', '--os', 'linux'), '--json'], { env: { ...m.env, CUDAWIZ_TEST_NVIDIA_ORIGIN: nvidia.url } });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r.stdout).source).toBe(`NVIDIA's md5sum.txt (${nvidia.urlFor(MD5SUM_PATH)})`);
      expect(m.mirror.fileRequests('md5sum.txt')).toHaveLength(0);
    } finally {
      await nvidia.close();
    }
  });

  it('in plain mode prints a few percentage lines to stderr and the verified path to stdout, and copies to --dest', async () => {
    const m = await machine();
    const dest = path.join(m.home, 'usb-stick');
    const r = await runBuilt([...m.args('cuda', '--version', '10.1', '--os', 'linux'), '--dest', dest], { env: m.env });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(13);
    expect(r.stderr).toContain('100%');
    expect(r.stdout).toContain(path.join(dest, RUN));
    expect(r.stdout).toContain('verified against the catalog');
    expect((await stat(path.join(dest, RUN))).size).toBe(m.size);
  });
});

describe('cudawiz download cudnn', () => {
  it('fetches the public copy of cuDNN 7.6.5 for CUDA 10.1 on Linux', async () => {
    const m = await machine();
    const r = await runBuilt([...m.args('cudnn', '--version', '7.6.5', '--cuda', '10.1', '--os', 'linux'), '--json'], { env: m.env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).file).toBe(path.join(m.cache, CUDNN));
    expect(m.mirror.fileRequests(CUDNN).length).toBeGreaterThan(0);
  });

  it('for the login-gated Windows zip, exits 3 with the page to log in at and the exact file name', async () => {
    const m = await machine();
    const r = await runBuilt([...m.args('cudnn', '--version', '7.6.5', '--os', 'windows', '--cuda', '10.1'), '--json'], { env: m.env });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout) as { error: { code: string; page: string; file: string } };
    expect(doc.error).toMatchObject({ code: 'login-required', page: 'https://developer.nvidia.com/rdp/cudnn-archive', file: 'cudnn-10.1-windows10-x64-v7.6.5.32.zip' });
    expect(r.stderr).toContain('cudnn-10.1-windows10-x64-v7.6.5.32.zip');
    expect(m.mirror.requests).toHaveLength(0);
  });

  it('is a usage error for something other than cuda or cudnn, and leaves the cache untouched', async () => {
    const m = await machine();
    const r = await runBuilt(m.args('tensorrt', '--version', '8'), { env: m.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('choose cuda or cudnn');
    expect(existsSync(m.cache)).toBe(false);
    await rm(m.overlay);
  });
});

describe('cudawiz download with no network', () => {
  /** A host no resolver can find: the name lookup fails at once, as on a machine with no network. */
  const NOWHERE = 'https://nonexistent.invalid/';

  it('says "you are offline" at once, as install does, for one file and for a bundle, in both languages, and writes nothing into the cache', async () => {
    const home = await tempDir('cw-home-');
    const cache = path.join(home, 'cache');
    const env = { HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
    const one = await runBuilt(['download', 'cuda', '--version', '10.1', '--os', 'linux', '--mirror', NOWHERE, '--cache-dir', cache, '--no-color'], { env });
    expect(one.code, one.stdout + one.stderr).toBe(1);
    expect(one.stderr).toContain('You are offline (nonexistent.invalid cannot be reached): run cudawiz download cuda --version 10.1 --os linux on a connected machine');
    const bundle = await runBuilt(['download', '--tf', '2.10', '--route', 'redist', '--os', 'windows', '--dest', path.join(home, 'tf-2.10'), '--mirror', NOWHERE, '--cache-dir', cache, '--no-color'], { env });
    expect(bundle.code, bundle.stdout + bundle.stderr).toBe(1);
    expect(bundle.stderr).toContain('You are offline (nonexistent.invalid cannot be reached): make a bundle on a connected machine with cudawiz download --tf 2.10 --route redist --os windows --dest DIR');
    const json = await runBuilt(['download', '--tf', '2.10', '--route', 'redist', '--os', 'windows', '--dest', path.join(home, 'tf-2.10'), '--mirror', NOWHERE, '--cache-dir', cache, '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'offline' } });
    for (const r of [one, bundle, json]) {
      // Not the retries' raw network error: the first request answers it.
      expect(r.stdout + r.stderr).not.toMatch(/ENOTFOUND|getaddrinfo|tries/);
    }
    const zh = await runBuilt(['download', 'cuda', '--version', '10.1', '--os', 'linux', '--mirror', NOWHERE, '--cache-dir', cache, '--lang', 'zh'], { env });
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain('这台机器没有联网（无法连接 nonexistent.invalid）');
    expect(await readdir(cache).catch(() => [])).toEqual([]);
  });
});
