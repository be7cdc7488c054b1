// The built wizard with --lang zh in a real terminal (tmux, 80×24): the first-time TF 2.3 setup of
// test/e2e/wizard.test.ts, every screen on the way checked by the finder's rule (no run of three
// English words outside commands, paths, versions and names) and for width (CJK characters take two
// columns; no line may pass 80).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { laptop, type Laptop } from '../helpers/laptop.js';
import { downUntil } from '../helpers/plan-scroll.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';

/** Terminal columns, as string-width (Ink's) counts them: East Asian wide and full-width characters take two. */
function columns(line: string): number {
  let n = 0;
  for (const ch of line) {
    const c = ch.codePointAt(0) ?? 0;
    const wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
    n += wide ? 2 : 1;
  }
  return n;
}

let term: Terminal | undefined;
let machine: Laptop | undefined;
afterEach(async () => {
  await term?.kill();
  await machine?.mirror.close();
});

describe('the wizard in Chinese, in a real terminal', () => {
  it('walks the TF 2.3 setup with --lang zh: no English sentence on any screen, nothing wider than 80 columns', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu') });
    const t = (term = await openTerminal([process.execPath, builtCli, '--lang', 'zh', ...machine.globals], { env: machine.env }));
    // Every distinct screen of the walk, also those between the waits (download, install progress):
    // -J joins the lines tmux wrapped, so a line Ink drew wider than the terminal shows as one.
    const screens = new Set<string>();
    const grab = async () => screens.add((await execa('tmux', ['-L', t.name, 'capture-pane', '-p', '-J', '-t', t.name], { reject: false })).stdout);
    let walking = true;
    const watcher = (async () => {
      while (walking) await grab();
    })();
    const seen = async (expected: string | RegExp, timeoutMs = 30_000) => {
      const s = await t.waitFor(expected, timeoutMs);
      await grab();
      return s;
    };
    expect(await seen('为某个 TensorFlow 版本全新安装')).toContain('NVIDIA GeForce RTX 2060');
    // The doctor finds CUDA 10.1 missing: 修复 comes first; the new setup is the second answer.
    await t.keys('Down');
    await seen(/❯ 为某个 TensorFlow 版本全新安装/);
    await t.keys('Enter');
    expect(await seen('选择 TensorFlow 版本')).toMatch(/❯ TensorFlow 2\.3\.0 +CUDA 10\.1 · cuDNN 7\.6/);
    await t.keys('Enter');
    const plan = await seen('开始吗？');
    expect(plan).toContain('cuda_10.1.243_418.87.00_linux.run');
    // The plan's lines wrap (CJK two columns each): no "…", a path whole on one row, no row starting with a
    // closing mark. Nine steps fill the 24 rows: where they do not fit, ↓ scrolls them under the title (which
    // stays) to the last step, and the scroll line is Chinese. Enter still goes ahead.
    expect(plan).toContain('TensorFlow 2.3.0 的安装计划');
    const walked: string[] = [];
    const bottom = await downUntil(t, /• 9\. 验证/, walked);
    for (const s of walked) screens.add(s);
    expect(bottom).toContain('TensorFlow 2.3.0 的安装计划');
    expect(bottom).toMatch(/❯ 是，开始/);
    if (/滚动计划/.test(plan)) expect(bottom).toMatch(/↑ 上面还有 \d+ 行 · ↑\/↓ 滚动计划/);
    const rows = walked.join('\n');
    expect(rows).not.toContain('…');
    expect(rows.split('\n').some((l) => l.includes(`${machine!.home}/.config/cudawiz/env-cuda-10.1.sh`))).toBe(true);
    expect(rows).not.toMatch(/^\s*[，。）、；：]/m);
    await t.keys('Enter');
    await seen(/CUDA\s+10\.1/, 60_000);
    await seen(/❯ 是/, 60_000);
    await t.keys('Down');
    await seen(/❯ 否/);
    await t.keys('Enter');
    // pip already has TF 2.3: no pip install for it; a new terminal is what comes next.
    const done = await seen('这台机器已经可以用 TensorFlow 了', 60_000);
    expect(done).not.toContain('pip install tensorflow==2.3.0');
    expect(done).toContain('打开一个新的终端');
    walking = false;
    await watcher;
    await t.keys('q');
    expect(await t.exitCode()).toBe(0);
    expect(await readdir(path.join(machine.toolkit, 'lib64'))).toEqual(expect.arrayContaining(['libcudart.so.10.1', 'libcudnn.so.7']));

    const english = [...screens].flatMap((s) => englishIn(s));
    // A command to paste is drawn whole, wider than the screen if it must be (the terminal folds it; no newline breaks it, #39).
    const pasted = (l: string) => /^\s*(?:\d+\. )?(?:python -c |pip install |export )/.test(l);
    const wide = [...screens].flatMap((s) => s.split('\n').filter((l) => columns(l) > 80 && !pasted(l)));
    expect(screens.size).toBeGreaterThan(5);
    expect({ english: [...new Set(english)], wide: [...new Set(wide)] }).toEqual({ english: [], wide: [] });
  });
});

describe('the wizard in Chinese: a TensorFlow newer than the catalog, and the route question', () => {
  it('pip has a TF newer than the catalog: the scan, what still works, the route question and the plan are Chinese and fit 80 columns', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { builtinCatalog } = await import('../../src/catalog/load.js');
    const { compareDotted, majorMinor } = await import('../../src/version.js');
    const { installByHand } = await import('../helpers/laptop.js');
    const { tempDir } = await import('../helpers/tmp.js');
    const newest = [...builtinCatalog().tensorflow.linux].sort((a, b) => compareDotted(b.version, a.version))[0];
    const end = majorMinor(newest.version);
    const next = `${end.split('.')[0]}.${Number(end.split('.')[1]) + 1}.0`;
    const site = await tempDir('cw-site-');
    await mkdir(path.join(site, `tensorflow-${next}.dist-info`));
    await writeFile(path.join(site, `tensorflow-${next}.dist-info`, 'METADATA'), `Metadata-Version: 2.1\nName: tensorflow\nVersion: ${next}\n`);
    await mkdir(path.join(site, 'tensorflow'));
    await writeFile(path.join(site, 'tensorflow', '__init__.py'), `__version__ = "${next}"\n`);
    machine = await laptop(undefined, { pythonPath: site });
    await installByHand(machine, 'cuda_11.0.3_450.51.06_linux.run', '11.0', 'libcublas.so.11 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.11');
    const t = (term = await openTerminal([process.execPath, builtCli, '--lang', 'zh', ...machine.globals], { env: machine.env }));
    const screens: string[] = [];
    const seen = async (expected: string | RegExp) => {
      await t.waitFor(expected, 30_000);
      const s = (await execa('tmux', ['-L', t.name, 'capture-pane', '-p', '-J', '-t', t.name], { reject: false })).stdout;
      screens.push(s);
      return s;
    };
    expect((await seen('修复')).replace(/\s+/g, '')).toContain(`TensorFlow${next}`);
    await t.keys('Enter');
    expect(await seen('仍然可行的办法')).toContain(`tensorflow[and-cuda]==${next}`);
    await t.keys('Enter');
    expect(await seen(`TensorFlow ${newest.version} 的 CUDA 和 cuDNN 从哪里来？`)).toMatch(/❯ .*推荐/);
    await t.keys('Down');
    await seen(/❯ 装进虚拟环境的 pip 包/);
    await t.keys('Down');
    await seen(/❯ 系统级 CUDA 工具包/);
    await t.keys('Enter');
    expect(await seen('开始吗？')).toContain(`TensorFlow ${newest.version} 的安装计划`);
    await t.keys('C-c');
    await t.waitFor('现在停止吗？');
    await t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    const english = screens.flatMap((s) => englishIn(s));
    const wide = screens.flatMap((s) => s.split('\n').filter((l) => columns(l) > 80));
    expect({ english: [...new Set(english)], wide: [...new Set(wide)] }).toEqual({ english: [], wide: [] });
  });
});

describe('the wizard in Chinese when it needs the user', () => {
  /** Moves the picker down until `focused` is the focused line. */
  async function pick(t: Terminal, focused: RegExp): Promise<void> {
    for (let i = 0; i < 40 && !focused.test(await t.screen()); i++) {
      const before = await t.screen();
      await t.keys('Down');
      // The next frame, looked for when the wizard has written to the pane.
      await t.waitForChange(before);
    }
    expect(await t.screen()).toMatch(focused);
  }

  it('TF 2.4 waits for the login-only cuDNN and refuses a cuDNN 7 archive, in Chinese, within 80 columns', async () => {
    const { mkdir, rm } = await import('node:fs/promises');
    const { buildCudnnArchive } = await import('../helpers/cudnn-archive.js');
    machine = await laptop({ version: '11.0.3', runPath: 'compute/cuda/11.0.3/local_installers/cuda_11.0.3_450.51.06_linux.run' });
    await rm(machine.archive);
    const elsewhere = path.join(machine.home, 'elsewhere');
    await mkdir(elsewhere);
    const wrong = await buildCudnnArchive(elsewhere, { era: 'linux-cuda-folder' });
    const t = (term = await openTerminal([process.execPath, builtCli, '--lang', 'zh', ...machine.globals], { env: machine.env }));
    const screens: string[] = [];
    const seen = async (expected: string | RegExp, timeoutMs = 30_000) => {
      await t.waitFor(expected, timeoutMs);
      const s = (await execa('tmux', ['-L', t.name, 'capture-pane', '-p', '-J', '-t', t.name], { reject: false })).stdout;
      screens.push(s);
      return s;
    };
    await seen('为某个 TensorFlow 版本全新安装');
    await t.keys('Down');
    await seen(/❯ 为某个 TensorFlow 版本全新安装/);
    await t.keys('Enter');
    await seen('选择 TensorFlow 版本');
    await pick(t, /❯ TensorFlow 2\.4\.0 /);
    await t.keys('Enter');
    await seen('开始吗？');
    await t.keys('Enter');
    const wait = await seen('压缩包路径：', 60_000);
    expect(wait).toContain('cudnn-11.0-linux-x64-v8.0.5.39.tgz');
    expect(wait).toMatch(/登录/);
    await t.type(wrong.file);
    await seen('elsewhere/');
    await t.keys('Enter');
    const refused = await seen(/q\s*退出/, 30_000);
    expect(refused).toMatch(/cuDNN 7\.6\.5/);
    const english = screens.flatMap((s) => englishIn(s));
    const wide = screens.flatMap((s) => s.split('\n').filter((l) => columns(l) > 80));
    expect({ english: [...new Set(english)], wide: [...new Set(wide)] }).toEqual({ english: [], wide: [] });
  });

  it('the CUDA installer fails: the failure, the log tail and what to do are Chinese (exit 1)', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu') });
    const t = (term = await openTerminal([process.execPath, builtCli, '--lang', 'zh', ...machine.globals], { env: { ...machine.env, CUDA_FIXTURE_FAIL: 'exit:1' } }));
    await t.waitFor('为某个 TensorFlow 版本全新安装', 30_000);
    await t.keys('Down');
    await t.waitFor(/❯ 为某个 TensorFlow 版本全新安装/);
    await t.keys('Enter');
    await t.waitFor('选择 TensorFlow 版本');
    await t.keys('Enter');
    await t.waitFor('开始吗？', 30_000);
    await t.keys('Enter');
    await t.waitFor(/q\s*退出/, 60_000);
    // The whole run, its history included: the failed step has scrolled above the 24 rows.
    const all = (await execa('tmux', ['-L', t.name, 'capture-pane', '-p', '-J', '-S', '-200', '-t', t.name])).stdout;
    expect(all).toContain('Installation failed');
    expect(all).toMatch(/✗ 安装 CUDA 工具包/);
    await t.keys('q');
    expect(await t.exitCode()).toBe(1);
    expect([...new Set(englishIn(all))]).toEqual([]);
  });
});
