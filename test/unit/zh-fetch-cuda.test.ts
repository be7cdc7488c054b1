// The finder on the downloader's and the CUDA installer's own paths: `cudawiz download` through the
// CLI with --lang zh against the laptop's local mirror (a download, its cached rerun, and each
// refusal), then what only a module call reaches in a test's time — a transfer failing against the
// real loopback mirror, a checksum list without the file, the fixture installer hanging, timing out,
// interrupted, missing, or finding a leftover log. Each run also goes in English, whose output has
// the sentence the finder would see, so every check can fail.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import type { CudaRelease } from '../../src/catalog/schema.js';
import { percentReporter } from '../../src/commands/download.js';
import { requireInstallPermission } from '../../src/cuda/elevation.js';
import { installToolkit, type InstallToolkitOptions } from '../../src/cuda/install.js';
import { CudawizError } from '../../src/errors.js';
import { assertPlainFileName } from '../../src/fetch/cache-paths.js';
import { resolveChecksum } from '../../src/fetch/checksum.js';
import { fetchVerified } from '../../src/fetch/download.js';
import { checksumListUrl } from '../../src/fetch/mirror.js';
import { waitSpan } from '../../src/fetch/retry-policy.js';
import { realHost, type Host } from '../../src/host.js';
import { setLang, type Lang } from '../../src/i18n/localized.js';
import { systemOwnedDir, unprivilegedRunner } from '../fixtures/cuda-installer/unprivileged.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { CUDA_101, laptop, type Laptop } from '../helpers/laptop.js';
import { startMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const HAN = /[\u4e00-\u9fff]/;
const RUNFILE = path.posix.basename(CUDA_101.runPath);

let m: Laptop | undefined;
afterAll(async () => m?.mirror.close());
afterEach(() => setLang('en'));

const hostOf = (l: Laptop, env: Record<string, string> = {}) => ({ ...realHost({ ...l.env, ...env }), home: l.home });

async function cli(argv: string[], lang: Lang, l: Laptop, env: Record<string, string> = {}) {
  const r = await runCli([...argv, '--lang', lang, '--no-color'], { host: hostOf(l, env) });
  return { code: r.code, text: r.stdout + r.stderr };
}

/** Chinese, nothing the finder flags; the English run of the same thing is flagged (or has `english`). */
function expectChinese(zh: string, en: string, english?: string): void {
  expect(zh).toMatch(HAN);
  expect(englishIn(zh)).toEqual([]);
  expect(en).not.toMatch(HAN);
  if (english) expect(en).toContain(english);
  else expect(englishIn(en).length).toBeGreaterThan(0);
}

/** What the CLI prints of an error: its message and its fix. */
async function errorText(run: () => Promise<unknown>): Promise<string> {
  const e = await run().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(CudawizError);
  const c = e as CudawizError;
  return `${c.message}\n${c.fix ?? ''}`;
}

/** The same call in Chinese, then in English. */
async function inBoth(run: () => Promise<string>): Promise<{ zh: string; en: string }> {
  setLang('zh');
  const zh = await run();
  setLang('en');
  const en = await run();
  return { zh, en };
}

describe('cudawiz download with --lang zh (the Linux laptop, CUDA 10.1)', () => {
  it('a download, then its rerun from the cache: progress, result and source in Chinese', async () => {
    const l = await laptop();
    try {
      const argv = ['download', 'cuda', '--version', '10.1', ...l.globals];
      const fresh = await cli(argv, 'zh', l);
      const cached = await cli(argv, 'en', l);
      const cachedZh = await cli(argv, 'zh', l);
      for (const r of [fresh, cached, cachedZh]) expect(r.code).toBe(0);
      expect(fresh.text).toContain('正在下载 CUDA 10.1.243（linux）');
      expect(fresh.text).toMatch(/100%（/);
      expect(fresh.text).toContain('校验通过（依据：版本目录）');
      expect(cachedZh.text).toContain('，来自缓存');
      expectChinese(fresh.text, cached.text, 'verified against the catalog, from the cache');
      expect(englishIn(cachedZh.text)).toEqual([]);
    } finally {
      await l.mirror.close();
    }
  });

  const refusals: [string, (l: Laptop) => Promise<string[]>, Record<string, string>?][] = [
    ['something that is neither cuda nor cudnn', async (l) => ['download', 'nvcc', '--version', '10.1', ...l.globals]],
    ['a CUDA version the catalog has no installer for', async (l) => ['download', 'cuda', '--version', '9.9', ...l.globals]],
    ['a cuDNN build for a CUDA the catalog does not pair it with', async (l) => ['download', 'cudnn', '--version', '7.6.5', '--cuda', '9.9', ...l.globals]],
    ['a cuDNN version built for several CUDA versions, without --cuda', async (l) => ['download', 'cudnn', '--version', '7.6.5', ...l.globals]],
    ["a cuDNN archive the mirror does not have (the login route)", async (l) => ['download', 'cudnn', '--version', '7.6.5', '--cuda', '10.1', ...l.globals]],
    ['--connections out of range', async (l) => ['download', 'cuda', '--version', '10.1', '--connections', '99', ...l.globals]],
    ['a mirror over plain http on another host', async (l) => ['download', 'cuda', '--version', '10.1', '--cache-dir', l.cache, '--mirror', 'http://mirror.example.com/nvidia']],
    ['a mirror that is not a URL', async (l) => ['download', 'cuda', '--version', '10.1', '--cache-dir', l.cache, '--mirror', 'mirror example']],
    ['a disk without room for the installer', async (l) => ['download', 'cuda', '--version', '10.1', ...l.globals], { CUDAWIZ_TEST_FREE_BYTES: '10' }],
    ['a different file already at --dest', async (l) => {
      const dest = await tempDir('cw-zh-dest-');
      await writeFile(path.join(dest, RUNFILE), 'another file under the same name\n');
      return ['download', 'cuda', '--version', '10.1', '--dest', dest, ...l.globals];
    }],
  ];
  for (const [name, argv, env] of refusals) {
    it(`${name}: exits non-zero, in Chinese, with no English sentence`, async () => {
      m ??= await laptop();
      const args = await argv(m);
      const zh = await cli(args, 'zh', m, env);
      const en = await cli(args, 'en', m, env);
      expect(zh.code).not.toBe(0);
      expect(en.code).toBe(zh.code);
      expectChinese(zh.text, en.text);
    });
  }
});

describe('the downloader, called with the language set (a real loopback mirror)', () => {
  const mirrorWith = async () => {
    const mirror = await startMirror({ root: await tempDir('cw-zh-mirror-') });
    const file = await mirror.addFile('compute/cuda/x/file.run', Buffer.from('the installer bytes\n'.repeat(64)));
    return { mirror, file, url: mirror.urlFor('compute/cuda/x/file.run') };
  };
  const fetchOnce = async (url: string, extra: Partial<Parameters<typeof fetchVerified>[0]> = {}) =>
    errorText(async () => fetchVerified({ url, file: 'file.run', checksum: { sha256: '0'.repeat(64) }, cacheDir: await tempDir('cw-zh-cache-'), tuning: { retries: 0, retryBaseMs: 1 }, ...extra }));

  it('a server that keeps failing, a file it does not have, a size the catalog disagrees with', async () => {
    const { mirror, file, url } = await mirrorWith();
    try {
      mirror.fault({ mode: '500', times: Infinity });
      const failing = await inBoth(() => fetchOnce(url));
      mirror.clearFaults();
      const missing = await inBoth(() => fetchOnce(mirror.urlFor('compute/cuda/x/other.run')));
      const sized = await inBoth(() => fetchOnce(url, { size: file.size + 1 }));
      expect(failing.zh).toContain('服务器返回了 HTTP 500');
      expect(missing.zh).toContain('返回了 HTTP 404（未找到）');
      expect(sized.zh).toContain('版本目录写的是');
      for (const r of [failing, missing, sized]) expectChinese(r.zh, r.en);
    } finally {
      await mirror.close();
    }
  });

  it('the checksum source is recorded in English whatever the language (the cache proof and --json read the same), and said in Chinese', async () => {
    const { mirror } = await mirrorWith();
    try {
      await mirror.addMd5sumList('compute/cuda/y/md5sum.txt', [{ name: 'file.run', md5: 'a'.repeat(32) }]);
      const list = mirror.urlFor('compute/cuda/y/md5sum.txt');
      setLang('zh');
      const zh = await resolveChecksum({ file: 'file.run', sources: { md5sumUrl: list } });
      expect(zh?.source).toBe(`NVIDIA's md5sum.txt (${list})`);
      const { stepsText } = await import('../../src/i18n/steps.js');
      expect(stepsText.checksumFrom('file.run', zh?.source)).toBe(`file.run，校验和来自 NVIDIA 的 md5sum.txt（${list}）`);
    } finally {
      setLang('en');
      await mirror.close();
    }
  });

  it('a checksum list that does not name the file says what it tried', async () => {
    const { mirror } = await mirrorWith();
    try {
      await mirror.addMd5sumList('compute/cuda/x/md5sum.txt', [{ name: 'something-else.run', md5: '0'.repeat(32) }]);
      const list = mirror.urlFor('compute/cuda/x/md5sum.txt');
      const r = await inBoth(() => errorText(() => resolveChecksum({ file: 'file.run', sources: { md5sumUrl: list } })));
      expect(r.zh).toContain(`试过：${list}：没有 file.run 这一行`);
      expectChinese(r.zh, r.en);
    } finally {
      await mirror.close();
    }
  });

  it('a file name that is not one, a test origin that is not this machine', async () => {
    const name = await inBoth(async () => errorText(async () => assertPlainFileName('../escape.run')));
    const origin = await inBoth(async () => errorText(async () => checksumListUrl('https://developer.download.nvidia.com/compute/cuda/md5sum.txt', 'https://example.com')));
    for (const r of [name, origin]) expectChinese(r.zh, r.en);
  });

  it('progress lines, a resume and the waits a server asks for', async () => {
    const lines = async () => {
      const out: string[] = [];
      const report = percentReporter(RUNFILE, (line) => out.push(line));
      report({ bytes: 512 * 1024, total: 2048 * 1024, speed: 1024, eta: 1536, resumedFrom: 256 * 1024, connections: 4 });
      return [...out, waitSpan(3 * 3600_000), waitSpan(5 * 86_400_000)].join('\n');
    };
    const r = await inBoth(lines);
    expect(r.zh).toContain('继续下载');
    expect(r.zh).toContain('约剩 25 分 36 秒');
    expect(r.zh).toContain('3 小时');
    expectChinese(r.zh, r.en, 'resuming');
    expect(r.en).toContain('about 25m 36s left');
    expect(r.en).toContain('5 days');
  });
});

describe('the CUDA installer, run for real (the fixture runfile) with the language set', () => {
  const catalog = builtinCatalog();
  const release = catalog.cuda.releases.find((r) => r.version === CUDA_101.version) as CudaRelease;

  async function machine(env: Record<string, string> = {}, extra: Partial<InstallToolkitOptions> = {}): Promise<InstallToolkitOptions & { tmpLog: string }> {
    const dir = await tempDir('cw-zh-cuda-');
    const installerFile = path.join(dir, 'downloads', RUNFILE);
    await mkdir(path.dirname(installerFile));
    await copyFile(path.join(repoRoot, 'test/fixtures/cuda-installer/cuda_runfile.sh'), installerFile);
    const tmpDir = path.join(dir, 'scratch');
    const tmpLog = path.join(dir, 'tmp-cuda-installer.log');
    return {
      os: 'linux',
      catalog,
      installerFile,
      release,
      root: path.join(dir, 'root'),
      tmpDir,
      logDir: path.join(dir, 'logs'),
      installerLogs: [path.join(tmpDir, 'cuda-installer.log')],
      leftoverLogFile: tmpLog,
      env: { CUDA_FIXTURE_TMP_LOG: tmpLog, ...env },
      tmpLog,
      ...extra,
    };
  }

  const cases: [string, () => Promise<InstallToolkitOptions>][] = [
    ['hangs (no output, no files)', () => machine({ CUDA_FIXTURE_FAIL: 'hang' }, { hangMs: 300 })],
    ['runs past the time limit', () => machine({ CUDA_FIXTURE_FAIL: 'hang' }, { timeoutMs: 300 })],
    ['is interrupted before it starts', async () => {
      const stop = new AbortController();
      stop.abort();
      return machine({}, { signal: stop.signal });
    }],
    ['is not there', async () => ({ ...(await machine()), installerFile: '/nonexistent/cuda_10.1.243_418.87.00_linux.run' })],
    ['has no Windows component list', async () => ({ ...(await machine()), os: 'windows', release: { version: '99.0.1', installers: {} } })],
  ];
  for (const [name, options] of cases) {
    it(`an installer that ${name}: in Chinese, with no English sentence`, async () => {
      const r = await inBoth(async () => errorText(async () => installToolkit(await options())));
      expectChinese(r.zh, r.en);
    });
  }

  it('a leftover installer log moved aside is said in Chinese', async () => {
    const run = async () => {
      const options = await machine();
      await writeFile(options.tmpLog, 'from an earlier run\n');
      const lines: string[] = [];
      await installToolkit({ ...options, onLog: (line) => lines.push(line) });
      return lines[0];
    };
    const r = await inBoth(run);
    expect(r.zh).toContain('已把遗留的安装程序日志移到');
    expectChinese(r.zh, r.en);
  });

  it('a toolkit folder this user cannot write: the reason in Chinese', async () => {
    const root = await systemOwnedDir();
    const host: Host = { ...realHost(), os: 'linux', run: unprivilegedRunner };
    const run = async () => {
      const e = await requireInstallPermission(host, path.join(root, 'cuda-10.1'), 'cudawiz install --tf 2.3').then(
        () => undefined,
        (error: unknown) => error as CudawizError,
      );
      expect(e?.code).toBe('needs-elevation');
      return e!.message;
    };
    const r = await inBoth(run);
    expect(r.zh).toContain('无法把 CUDA 工具包安装到');
    expectChinese(r.zh, r.en);
  });
});
