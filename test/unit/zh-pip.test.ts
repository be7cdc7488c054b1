// The pip route with --lang zh: the CLI on a laptop with an RTX 2060 (fixture nvidia-smi on PATH, the
// driver's libcuda.so.1 on LD_LIBRARY_PATH) and a python3 whose `-m venv` makes a real venv holding
// the fixture pip, run to success, to a refusal and to each failure a user meets, its output passed
// through the English finder. Each run is also made in English, whose output has a sentence the
// finder sees, so the check can fail. Paths the CLI does not reach easily (an edited activate block,
// a Python that is no venv's, a venv that cannot be made) call the modules on real files.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realHost, type Host } from '../../src/host.js';
import { setLang } from '../../src/i18n/localized.js';
import { applyWheelLibraryFix, createVenv, FIX_BEGIN, planWheelLibraryFix, probePipCuda, undoWheelLibraryFix } from '../../src/pip/index.js';
import { pipInstallTensorflow } from '../../src/pip/install.js';
import { builtinCatalog } from '../../src/catalog/load.js';
import { importTensorflow } from '../../src/verify/tensorflow.js';
import { machineFs } from '../../src/probe/machine-fs.js';
import { probePython } from '../../src/probe/python.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { seedLaptop } from '../fixtures/seed-laptop.js';
import { fixtureVenv } from '../fixtures/venv/fixture-venv.js';
import { pipLaptop } from '../helpers/pip-laptop.js';

const CHINESE = /[\u4e00-\u9fff]/;

async function zhPipLaptop() {
  const { home, env, globals: dirs } = await pipLaptop('cw-zh-pip-');
  const host: Host = { ...realHost(env), home };
  const globals = [...dirs, '--no-color'];
  const cli = (lang: 'zh' | 'en', ...args: string[]) => runCli([...args, ...globals, '--lang', lang], { host });
  return { home, host, cli };
}

type ZhPipLaptop = Awaited<ReturnType<typeof zhPipLaptop>>;

/** The same command in zh and in en, each with its own fresh venv (made by `venv`, or left to cudawiz). */
async function both(l: ZhPipLaptop, args: (venv: string) => string[], venv: (dir: string) => Promise<string> = async (d) => d) {
  const zh = await l.cli('zh', ...args(await venv(path.join(l.home, 'zh', 'venv'))));
  const en = await l.cli('en', ...args(await venv(path.join(l.home, 'en', 'venv'))));
  return { zh, en, zhOut: zh.stdout + zh.stderr, enOut: en.stdout + en.stderr };
}

function expectChineseOnly(r: Awaited<ReturnType<typeof both>>, ignore: (run: string) => boolean = () => false) {
  expect(r.zh.code).toBe(r.en.code);
  expect(r.zhOut).toMatch(CHINESE);
  expect(englishIn(r.zhOut).filter((run) => !ignore(run)), r.zhOut).toEqual([]);
  expect(englishIn(r.enOut).length, r.enOut).toBeGreaterThan(0);
  expect(r.enOut).not.toMatch(CHINESE);
}

describe('cudawiz install --route pip with --lang zh (the Linux laptop)', () => {
  it('the plan (--dry-run): step titles and reasons in Chinese', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.16.1', '--route', 'pip', '--venv', venv, '--dry-run']);
    expect(r.zh.code).toBe(0);
    expect(r.zhOut).toContain('创建虚拟环境');
    expect(r.zhOut).toContain('除非把 site-packages/nvidia/*/lib 加到 LD_LIBRARY_PATH 上');
    expect(r.enOut).toContain('Create the virtual environment');
    expectChineseOnly(r);
  });

  it('a whole install of TF 2.16.1 with --yes: venv, pip, the loader-path change and why, verify', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.16.1', '--route', 'pip', '--venv', venv, '--yes']);
    expect(r.zh.code, r.zhOut).toBe(0);
    expect(r.zhOut).toMatch(/已把 12 个目录加到 .*bin\/activate/);
    expect(r.zhOut).toContain('TensorFlow 2.16.1：1 块显卡');
    expect(r.zhOut).toContain('验证：不激活虚拟环境、直接运行它的 python 时，TensorFlow 能看到显卡');
    expect(r.enOut).toContain("Verify: TensorFlow sees the GPU from the venv's python, not activated: TensorFlow 2.16.1: 1 GPU(s)");
    expectChineseOnly(r);
  });

  it('without consent (--configure-env no): the lines to add, then verify fails and names the fix', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.16.1', '--route', 'pip', '--venv', venv, '--yes', '--configure-env', 'no']);
    expect(r.zh.code).toBe(1);
    expect(r.zhOut).toContain('保持原样（--configure-env no）');
    expect(r.zhOut).toContain('能导入，但看不到显卡');
    expect(r.zhOut).toContain('pip 包目录不在加载路径上：cudawiz install --tf 2.16.1 --route pip --venv');
    // The activate block's first line is printed as it will be written (the marker undo looks for), so it stays English.
    expectChineseOnly(r, (run) => run.includes(FIX_BEGIN));
  });

  it('pip failing (no such release on the index): its own ERROR lines quoted, the fix in Chinese', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.15', '--route', 'pip', '--venv', venv, '--yes'], fixtureVenv);
    expect(r.zh.code).toBe(1);
    expect(r.zhOut).toContain('pip 无法安装 tensorflow[and-cuda]==2.15');
    expect(r.zhOut).toContain('"ERROR: Could not find a version');
    expect(r.zhOut).toContain('这个 Python 的版本可能不在 TensorFlow 2.15 支持的范围内');
    expect(r.enOut).toContain('This Python may be outside the range TensorFlow 2.15 supports');
    expectChineseOnly(r);
  });

  it('--venv naming a folder that is something else', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.16.1', '--route', 'pip', '--venv', venv, '--yes'], async (dir) => {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'notes.txt'), 'mine\n');
      return dir;
    });
    expect(r.zh.code).toBe(2);
    expect(r.zhOut).toContain('已存在，但不是 Python 虚拟环境（里面没有 pyvenv.cfg）');
    expectChineseOnly(r);
  });

  it('a TensorFlow older than tensorflow[and-cuda]: refused, the toolkit route named', async () => {
    const l = await zhPipLaptop();
    const r = await both(l, (venv) => ['install', '--tf', '2.10', '--route', 'pip', '--venv', venv, '--dry-run']);
    expect(r.zh.code).toBe(2);
    expect(r.zhOut).toContain('改用工具包方式：cudawiz install --tf 2.10');
    expectChineseOnly(r);
  });

  it('native Windows (the seed laptop): refused, WSL2 named', async () => {
    const w = await seedLaptop();
    const zh = await runCli(['install', '--tf', '2.16', '--route', 'pip', '--dry-run', '--lang', 'zh', '--no-color'], { host: w.host });
    const en = await runCli(['install', '--tf', '2.16', '--route', 'pip', '--dry-run', '--lang', 'en', '--no-color'], { host: w.host });
    const r = { zh, en, zhOut: zh.stdout + zh.stderr, enOut: en.stdout + en.stderr };
    expect(r.zhOut).toContain('pip 方式（tensorflow[and-cuda]）只适用于 Linux 和 WSL2');
    expect(r.zhOut).toContain('或者在 WSL2 里运行 cudawiz');
    expectChineseOnly(r);
  });
});

describe('the pip modules with the language set to zh (real files, real processes)', () => {
  afterEach(() => setLang('en'));

  /** What a function says (its error's message and fix, or its value) in one language. */
  async function say(lang: 'zh' | 'en', f: () => unknown): Promise<string> {
    setLang(lang);
    try {
      const v = await f();
      return typeof v === 'string' ? v : JSON.stringify(v, null, 1);
    } catch (e) {
      const err = e as { message: string; fix?: string };
      return [err.message, err.fix ?? ''].join('\n');
    } finally {
      setLang('en');
    }
  }

  /** Chinese with no English run in zh; in en, a run the finder sees (or, where the finder reads the sentence as a command, the English itself). */
  async function sayBoth(f: () => unknown, english?: string) {
    const zh = await say('zh', f);
    const en = await say('en', f);
    expect(zh).toMatch(CHINESE);
    expect(englishIn(zh), zh).toEqual([]);
    if (english) expect(en).toBe(english);
    else expect(englishIn(en).length, en).toBeGreaterThan(0);
    return { zh, en };
  }

  it('an activate block edited since it was added: undo leaves it and says how to remove it by hand', async () => {
    const l = await zhPipLaptop();
    const venv = await fixtureVenv(path.join(l.home, 'tf'));
    const python = path.join(venv, 'bin', 'python');
    await pipInstallTensorflow(l.host, { venv, catalog: builtinCatalog(), tf: '2.16' });
    const plan = planWheelLibraryFix(await probePipCuda(l.host, python));
    await applyWheelLibraryFix(plan, { consent: true });
    const activate = path.join(venv, 'bin', 'activate');
    await writeFile(activate, (await readFile(activate, 'utf8')).replace('unset _cudawiz_dir', 'unset _cudawiz_dir  # mine'));
    const { zh } = await sayBoth(() => undoWheelLibraryFix(venv));
    expect(zh).toContain('里 cudawiz 加的那段在添加后被改动过');
  });

  it('the fix without consent, and a Python that is no venv\'s', async () => {
    const l = await zhPipLaptop();
    const venv = await fixtureVenv(path.join(l.home, 'tf'));
    await pipInstallTensorflow(l.host, { venv, catalog: builtinCatalog(), tf: '2.16' });
    const facts = await probePipCuda(l.host, path.join(venv, 'bin', 'python'));
    const consent = await sayBoth(() => applyWheelLibraryFix(planWheelLibraryFix(facts), { consent: false }));
    expect(consent.zh).toContain('需要你同意');
    const notVenv = await sayBoth(() => planWheelLibraryFix({ ...facts, venv: undefined }).blocker);
    expect(notVenv.zh).toContain('不是虚拟环境里的 Python');
    // The reasons it is needed: the TF 2.16 fact and the libraries its log could not load.
    const log = "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file";
    const why = await sayBoth(() => planWheelLibraryFix(facts, { importLog: log }).why.join('\n'));
    expect(why.zh).toContain('TensorFlow 加载不了 libcudnn.so.8');
  });

  it('a venv that cannot be made, no Python on PATH, a Python whose answer makes no sense', async () => {
    const l = await zhPipLaptop();
    const failing = path.join(l.home, 'bin', 'python-without-venv');
    await writeFile(failing, '#!/bin/sh\nexit 1\n');
    await chmod(failing, 0o755);
    const venv = await sayBoth(() => createVenv(l.host, { dir: path.join(l.home, 'never'), python: failing }));
    expect(venv.zh).toContain('创建虚拟环境：退出码 1');
    // No python3 or python on this PATH.
    const bare: Host = { ...realHost({ HOME: l.home, PATH: path.join(l.home, 'empty-bin') }), home: l.home };
    // The finder reads "python found on PATH" as a command line, so the English is checked as it is.
    const probe = await sayBoth(async () => (await probePython(bare, machineFs('linux'))).evidence, 'none of python3, python found on PATH');
    expect(probe.zh).toContain('PATH 上没有找到 python3、python 中的任何一个');
    const odd = path.join(l.home, 'bin', 'python-that-says-nonsense');
    await writeFile(odd, '#!/bin/sh\necho nonsense\n');
    await chmod(odd, 0o755);
    const tf = await sayBoth(async () => (await importTensorflow(l.host, odd)).error);
    expect(tf.zh).toContain('的输出无法识别：nonsense');
  });
});
