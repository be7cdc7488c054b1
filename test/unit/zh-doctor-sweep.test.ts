// `doctor --lang zh` swept over every fixture machine the suite has (each nvidia-smi capture, WSL 1 and 2,
// the Python stand-ins, the conda env, the seed's Windows laptop in its states), plus the headless
// reporter's frame, the verify layers and the cuDNN access line: Chinese all the way, no English
// sentence (test/helpers/english-runs.ts), Chinese punctuation around our own joins, and the English
// output as the existing tests pin it.
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { createOutput } from '../../src/io/output.js';
import { realHost, type Host } from '../../src/host.js';
import { plainReporter } from '../../src/io/reporters.js';
import { setLang } from '../../src/i18n/localized.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { pipInstallTensorflow } from '../../src/pip/install.js';
import { checkLibraryFiles } from '../../src/verify/layers.js';
import { verifyManifest } from '../../src/verify/index.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { tempDir } from '../helpers/tmp.js';
import { condaOnOldDriver, windowsConda } from '../fixtures/conda-env.js';
import { TOOLKIT_LIBRARIES, fixtureMachine, hostPython, type FixtureMachine } from '../fixtures/machine.js';
import { seedLaptop } from '../fixtures/seed-laptop.js';
import { WSL1_KERNEL, wslMachine } from '../fixtures/wsl-machine.js';
import { fixtureVenv } from '../fixtures/venv/fixture-venv.js';

const fixtures = path.join(repoRoot, 'test/fixtures');
const answerQuery = path.join(fixtures, 'nvidia-smi/answer-query.sh');
const HAS_CHINESE = /[\u4e00-\u9fff]/;

/** A Linux box with one of the nvidia-smi captures installed. */
async function smiBox(fixture: string, at = '/usr/bin/nvidia-smi'): Promise<FixtureMachine> {
  const m = await fixtureMachine('linux', { PATH: '/usr/local/bin:/usr/bin:/bin' });
  await m.nvidiaSmi(at, fixture);
  return m;
}

/** The RTX 2060 laptop's nvidia-smi and a python3 that runs with one of the Python stand-ins on its path. */
async function pythonBox(fixture: string): Promise<FixtureMachine> {
  const m = await smiBox('rtx2060-laptop');
  await m.script('/usr/bin/python3', `PYTHONPATH="${path.join(fixtures, 'python', fixture)}" exec "${await hostPython()}" "$@"`);
  return m;
}

/** doctor-stories' Linux box: CUDA 10.1 and 11.2 side by side, LD_LIBRARY_PATH on 11.2 (10.1 off the path, 11.2 shadowing cuFFT). */
async function sideBySide(): Promise<FixtureMachine> {
  const m = await fixtureMachine('linux', { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', LD_LIBRARY_PATH: '/usr/local/cuda-11.2/lib64' });
  await m.nvidiaSmi('/usr/bin/nvidia-smi', 'two-gpus');
  await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
  await m.script('/sbin/ldconfig', `printf '\\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\\n'`);
  await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.linux['10.1']], cudnn: '7.6.5' });
  await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']], cudnn: '8.1.0' });
  await m.link('/usr/local/cuda', 'cuda-11.2');
  // A toolkit folder nobody can enter (a self-referencing link: ELOOP), and an interrupted cudawiz copy.
  await m.link('/usr/local/cuda-11.4', 'cuda-11.4');
  await m.file('/usr/local/cuda-10.1/.cudawiz/manifest.json', JSON.stringify({ state: 'copying' }));
  return m;
}

/** A CUDA 10.1 that holds only nvcc and cudart, and no driver. */
async function partialToolkit(): Promise<FixtureMachine> {
  const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
  await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: ['libcudart.so.10.1'] });
  return m;
}


async function doctor(m: FixtureMachine, args: string[], lang: 'zh' | 'en'): Promise<string> {
  const r = await runCli(['doctor', ...args, '--lang', lang, '--no-color'], { host: m.host });
  return r.stdout + r.stderr;
}

describe('doctor --lang zh on every fixture machine', () => {
  const machines: [string, () => Promise<FixtureMachine>, string[][]][] = [
    ['nvidia-smi printing garbage', () => smiBox('garbage'), [[], ['--tf', '2.3']]],
    ['nvidia-smi that cannot reach the driver', () => smiBox('no-driver'), [[], ['--tf', '2.3']]],
    ['an R470 driver without the compute_cap field', () => smiBox('r470-old-driver'), [[], ['--tf', '2.15']]],
    ['three GTX 680 on driver 331', () => smiBox('gtx680-driver-331'), [['--tf', '2.3'], ['--tf', '2.4']]],
    ['a Tesla K80 on driver 410', () => smiBox('tesla-k80-driver-410'), [['--tf', '2.3'], ['--tf', '2.15']]],
    ['a TITAN V beside an RTX 5880 Ada', () => smiBox('two-gpus'), [['--tf', '2.3'], ['--tf', '2.18']]],
    ["WSL2's nvidia-smi capture", () => smiBox('wsl2', '/usr/lib/wsl/lib/nvidia-smi'), [['--tf', '2.16']]],
    ['WSL 2 on Windows 11 with driver 555.99', () => wslMachine({ driver: '555.99', windowsVer: '10.0.22631.3880' }), [[], ['--tf', '2.3']]],
    ['WSL 2 on a Windows too old for CUDA', () => wslMachine({ driver: '555.99', windowsVer: '10.0.19041.1' }), [['--tf', '2.16']]],
    ['WSL 1 with no driver', () => wslMachine({ kernel: WSL1_KERNEL, ldConf: false }), [[], ['--tf', '2.16']]],
    ['WSL 2 with a Linux driver inside and no ld.wsl.conf', () => wslMachine({ driver: '555.99', ldConf: false, strayLinuxLibcuda: true }), [['--tf', '2.16']]],
    ['Python with a TF 2.3 that sees no GPU', () => pythonBox('tf-no-gpu'), [[], ['--tf', '2.3']]],
    ['Python with a slow-importing TF 2.3', () => pythonBox('tf23-slow-import'), [[]]],
    ['Python 3.10', () => pythonBox('py310'), [['--tf', '2.3'], ['--tf', '2.10']]],
    ['a conda env whose CUDA 10.1 is too new for driver 410.72', () => condaOnOldDriver(), [[], ['--tf', '2.1'], ['--tf', '1.15']]],
    ['a CONDA_PREFIX without conda-meta', () => fixtureMachine('linux', { PATH: '/usr/bin:/bin', CONDA_PREFIX: '/opt/gone' }), [[]]],
    ["the seed's Windows laptop", () => seedLaptop(), [['--tf', '2.10'], ['--tf', '2.15'], ['--tf', '2.1']]],
    ["the seed's laptop with 11.0's bin first on PATH", () => seedLaptop({ fixed: true, cuda110First: true }), [[]]],
    ['a bare Windows box', () => fixtureMachine('windows', { Path: 'C:\\Windows\\System32', SystemRoot: 'C:\\Windows' }), [['--tf', '2.3']]],
    ['CUDA 10.1 and 11.2 side by side, an unreadable and a half-copied toolkit', sideBySide, [[], ['--tf', '2.3']]],
    ['a partial CUDA 10.1', partialToolkit, [[], ['--tf', '2.3']]],
    ['a conda env on Windows', windowsConda, [['--tf', '2.3']]],
    ['a TensorFlow newer than the catalog', () => fixtureMachine('linux', { PATH: '/usr/bin:/bin' }), [['--tf', '2.22']]],
  ];
  for (const [story, machine, argsets] of machines) {
    it(`${story}: Chinese, no English sentence (and the English report has its sentences)`, async () => {
      const m = await machine();
      for (const args of argsets) {
        const zh = await doctor(m, args, 'zh');
        expect(zh, args.join(' ')).toMatch(HAS_CHINESE);
        expect(englishIn(zh), args.join(' ')).toEqual([]);
        // Our own joins read as Chinese: no ASCII list comma or semicolon right after a Chinese word.
        expect(zh.split('\n').filter((l) => /[\u4e00-\u9fff][,;] /.test(l)), args.join(' ')).toEqual([]);
        expect(englishIn(await doctor(m, args, 'en')).length, args.join(' ')).toBeGreaterThan(0);
      }
    });
  }
});

/** A laptop (RTX 2060, the driver's libcuda on LD_LIBRARY_PATH) with a real venv holding pip's TF and its nvidia wheels (the fixture pip). */
async function pipVenv(tf: string, systemCudart = false): Promise<{ host: Host; python: string; globals: string[] }> {
  const home = await tempDir('cw-zh-doctor-pip-');
  const bin = path.join(home, 'bin');
  const driver = path.join(home, 'driver-lib');
  await Promise.all([mkdir(bin), mkdir(driver)]);
  await copyFile(path.join(fixtures, 'nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(answerQuery, path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driver, 'libcuda.so.1'), 'fixture driver library');
  let ld = driver;
  if (systemCudart) {
    // A system toolkit's libcudart.so.12 first on LD_LIBRARY_PATH wins over the wheel's.
    const system = path.join(home, 'usr/local/cuda-12.5/lib64');
    await mkdir(system, { recursive: true });
    await writeFile(path.join(system, 'libcudart.so.12'), "a system toolkit's copy");
    ld = `${system}:${driver}`;
  }
  const host: Host = { ...realHost({ PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, LD_LIBRARY_PATH: ld }), home };
  const venv = await fixtureVenv(path.join(home, 'tf'));
  await pipInstallTensorflow(host, { venv, catalog: builtinCatalog(), tf });
  return { host, python: path.join(venv, 'bin', 'python'), globals: ['--cuda-root', path.join(home, 'cuda-root')] };
}

describe("doctor --lang zh on pip's tensorflow[and-cuda] in a venv", () => {
  const venvs: [string, () => ReturnType<typeof pipVenv>, string[], string[]][] = [
    ['TF 2.16.1, its wheel folders off the loader path', () => pipVenv('2.16'), ['pip 的 nvidia-cudnn 包里的 cuDNN 8.9.7.29（需要 8.9）', 'CUDA 12.3.101、cuDNN 8.9.7.29 来自 pip 的 nvidia-* 包'], ["cuDNN 8.9.7.29 in pip's nvidia-cudnn wheel (needs 8.9)", 'TensorFlow 2.16.1 will not find its pip-installed CUDA libraries: 12 wheel folder(s) are not on LD_LIBRARY_PATH']],
    ['TF 2.18, its wheels found through RUNPATH', () => pipVenv('2.18'), ['没有需要修复的问题。'], ['Nothing to fix.']],
    ["TF 2.18 with a system libcudart.so.12 before the wheels'", () => pipVenv('2.18', true), ['（系统，来自 LD_LIBRARY_PATH）'], ['TensorFlow loads libcudart.so.12 from the system, not from the pip wheels in']],
  ];
  for (const [story, make, zhSays, enSays] of venvs) {
    it(`${story}: Chinese, no English sentence; English as plan-pip pins it`, async () => {
      const v = await make();
      const run = async (lang: string) => {
        const r = await runCli(['doctor', '--python', v.python, ...v.globals, '--lang', lang, '--no-color'], { host: v.host });
        return r.stdout + r.stderr;
      };
      const zh = await run('zh');
      expect(zh).toMatch(HAS_CHINESE);
      expect(englishIn(zh)).toEqual([]);
      expect(zh.split('\n').filter((l) => /[\u4e00-\u9fff][,;] /.test(l))).toEqual([]);
      for (const line of zhSays) expect(zh).toContain(line);
      const en = await run('en');
      for (const line of enSays) expect(en).toContain(line);
    });
  }
});

describe('the leftovers, one by one', () => {
  it("the share block's WSL line says Windows 显卡驱动 and 无, not 'Windows driver none'; English as doctor-wsl pins it", async () => {
    const wsl1 = await wslMachine({ kernel: WSL1_KERNEL, ldConf: false });
    const zh = await doctor(wsl1, [], 'zh');
    expect(zh).toContain('wsl: 1，Windows 18985，Windows 显卡驱动 无');
    expect(zh).not.toMatch(/Windows driver|\bnone\b/);
    expect(await doctor(wsl1, [], 'en')).toContain('wsl: 1, Windows 18985, Windows driver none');
    const wsl2 = await wslMachine({ driver: '555.99', windowsVer: '10.0.22631.3880' });
    expect(await doctor(wsl2, [], 'zh')).toContain('wsl: 2，Windows 10.0.22631.3880，Windows 显卡驱动 555.99');
    expect(await doctor(wsl2, [], 'en')).toContain('wsl: 2, Windows 10.0.22631.3880, Windows driver 555.99');
  });

  it('the share block: 64 位, 计算能力, 无 and Chinese separators; the English block keeps 64-bit, (cc 7.5) and none', async () => {
    const seed = await seedLaptop();
    const zh = await doctor(seed, [], 'zh');
    expect(zh).toContain('gpus: 0: NVIDIA GeForce RTX 2060（计算能力 7.5）');
    expect(zh).toContain('python: 3.8.5 64 位（C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python38\\python.exe）');
    const en = await doctor(seed, [], 'en');
    expect(en).toMatch(/```\ncudawiz \d+\.\d+\.\d+ doctor\nos: windows\ngpus: 0: NVIDIA GeForce RTX 2060 \(cc 7\.5\)\n/);
    expect(en).toContain('python: 3.8.5 64-bit (C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python38\\python.exe)');
    const gone = await fixtureMachine('linux', { PATH: '/usr/bin:/bin', CONDA_PREFIX: '/opt/gone' });
    expect(await doctor(gone, [], 'zh')).toContain('conda: cuda 无，cudnn 无（/opt/gone）');
    expect(await doctor(gone, [], 'en')).toContain('conda: cuda none, cudnn none (/opt/gone)');
    const fixed = await seedLaptop({ fixed: true });
    expect(await doctor(fixed, [], 'zh')).toMatch(/toolkits: 10\.1\.243 \S.*v10\.1；11\.0\.228 /);
  });

  it('a partial toolkit reads as a note after its description, and the LD_LIBRARY_PATH line says （空）', async () => {
    const m = await partialToolkit();
    expect(await doctor(m, [], 'zh')).toContain('版本取自 version.txt（不完整：缺少 cuBLAS、cuFFT、cuRAND、cuSOLVER、cuSPARSE）');
    expect(await doctor(m, [], 'en')).toContain('version from version.txt is partial: no cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE');
    expect(await doctor(m, ['--tf', '2.3'], 'zh')).toContain('LD_LIBRARY_PATH=（空）');
    expect(await doctor(m, ['--tf', '2.3'], 'en')).toContain('LD_LIBRARY_PATH=(empty)');
  });

  it("WSL's Windows build source is said in Chinese words, not as the probe's raw id", async () => {
    const zh = await doctor(await wslMachine({ kernel: WSL1_KERNEL, ldConf: false }), [], 'zh');
    expect(zh).toContain('Windows 内部版本 18985（根据内核版本号推断）');
    expect(zh).not.toContain('kernel release');
    // cmd.exe's ver shows in the evidence of a failing wsl finding only; the table word is checked at the source.
    const { doctorText } = await import('../../src/i18n/doctor.js');
    setLang('zh');
    try {
      expect(doctorText.wslWindows('10.0.22631.3880', 'cmd.exe ver')).toBe('Windows 10.0.22631.3880（取自 cmd.exe 的 ver 命令）');
    } finally {
      setLang('en');
    }
    expect(doctorText.wslWindows('10.0.22631.3880', 'cmd.exe ver')).toBe('Windows 10.0.22631.3880 (from cmd.exe ver)');
  });

  it('lists read 、 in Chinese (files, GPUs, capabilities), and nvidia-smi is quoted as it wrote', async () => {
    const gtx = await doctor(await smiBox('gtx680-driver-331'), ['--tf', '2.3'], 'zh');
    expect(gtx).toContain('TensorFlow 2.3 不能在 GeForce GTX 680、GeForce GTX 680、GeForce GTX 680 上运行（计算能力 3.0、3.0、3.0）');
    expect(gtx).toContain('GPU 0：TensorFlow 2.3 不能在计算能力 3.0 上运行。');
    expect(gtx).toContain('6 个 CUDA 10.1 动态链接库哪里都找不到：libcudart.so.10.1、libcublas.so.10、');
    const noDriver = await smiBox('no-driver');
    expect(await doctor(noDriver, [], 'zh')).toContain('/usr/bin/nvidia-smi 的输出："NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver.');
    expect(await doctor(noDriver, [], 'en')).toContain("/usr/bin/nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
    const garbage = await doctor(await smiBox('garbage'), [], 'zh');
    expect(garbage).toContain('/usr/bin/nvidia-smi 的输出："GPU 0: NVIDIA GeForce RTX 2060 (UUID: GPU-<uuid>) ### output truncated"');
  });

  it("a library's folders and how they are reached read with full-width punctuation (conda env, PATH)", async () => {
    const conda = await doctor(await condaOnOldDriver(), ['--tf', '2.1'], 'zh');
    expect(conda).toContain('conda 环境 tf（/home/me/miniconda3/envs/tf）自带 CUDA 10.1.243（cudatoolkit）和 cuDNN 7.6.5（cudnn）');
    expect(conda).toContain('libcudnn.so.7：生效：/home/me/miniconda3/envs/tf/lib（conda 环境）；/usr/local/cuda-10.0/lib64（ld 缓存）');
    const en = await doctor(await condaOnOldDriver(), ['--tf', '2.1'], 'en');
    expect(en).toContain('libcudnn.so.7: wins: /home/me/miniconda3/envs/tf/lib (conda env); /usr/local/cuda-10.0/lib64 (ld cache)');
    const seed = await doctor(await seedLaptop({ fixed: true, cuda110First: true }), [], 'zh');
    expect(seed).toContain('生效：C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.0\\bin（PATH）');
    expect(seed).toContain('Microsoft C++ 运行库：msvcp140.dll、msvcp140_1.dll');
  });

  it("native Windows' ways out read 标题：说明, and a TF past the catalog ends its headline with the source", async () => {
    const zh = await doctor(await seedLaptop(), ['--tf', '2.15'], 'zh');
    expect(zh).toMatch(/^ {4}改用 WSL2：/m);
    expect(await doctor(await seedLaptop(), ['--tf', '2.15'], 'en')).toMatch(/^ {4}\S.*WSL2: /m);
    const beyond = await doctor(await fixtureMachine('linux', { PATH: '/usr/bin:/bin' }), ['--tf', '2.22'], 'zh');
    expect(beyond).toMatch(/TensorFlow 2\.22 是之后发布的（来自 --tf）。/);
    expect(await doctor(await fixtureMachine('linux', { PATH: '/usr/bin:/bin' }), ['--tf', '2.22'], 'en')).toContain("cudawiz's catalog ends at 2.21; TensorFlow 2.22 came later. (from --tf)");
  });

  it("requirements' public cuDNN line joins its clauses with a full-width comma", async () => {
    const zh = await runCli(['requirements', '--tf', '2.15', '--lang', 'zh', '--no-color']);
    expect(zh.stdout).toContain('有公开下载，无需登录，下载时按其 sha256 校验');
    const en = await runCli(['requirements', '--tf', '2.15', '--no-color']);
    expect(en.stdout).toContain('a public copy, no login needed, checked against its sha256 as it downloads');
  });

  it("explain's Python ranges read 2.21：Python …；2.20：…", async () => {
    const log = path.join(fixtures, 'logs', 'pip-tensorflow-python313.log');
    const zh = await runCli(['explain', log, '--lang', 'zh', '--no-color']);
    expect(zh.stdout).toMatch(/TensorFlow 2\.\d+：Python 3\.\d+–3\.\d+；2\.\d+：Python /);
    expect(englishIn(zh.stdout)).toEqual([]);
    const en = await runCli(['explain', log, '--no-color']);
    expect(en.stdout).toMatch(/TensorFlow 2\.\d+: Python 3\.\d+–3\.\d+; 2\.\d+: Python /);
  });
});

/** The plain reporter writing into a real Output over in-memory streams. */
function reporterLines(): { report: ReturnType<typeof plainReporter>; text: () => string } {
  const stdout = new PassThrough();
  let buf = '';
  stdout.on('data', (c) => (buf += String(c)));
  const out = createOutput({ stdout, stderr: new PassThrough(), json: false, color: false, unicode: true });
  return { report: plainReporter(out), text: () => buf };
}

const EVENTS: RunnerEvent[] = [
  { type: 'plan', steps: [{ id: 'a', title: 'STEP-A', done: true, reason: 'REASON' }, { id: 'b', title: 'STEP-B', done: false }] },
  { type: 'progress', id: 'b', progress: { bytes: 50, total: 100, unit: 'files' } },
  { type: 'step-done', id: 'a', summary: 'SUMMARY' },
  { type: 'step-failed', id: 'b', message: 'MESSAGE', fix: 'FIX', logFile: '/tmp/x.log' },
  { type: 'result', ok: false, exitCode: 1 },
];

describe('the headless reporter and the verify layers', () => {
  afterEach(() => setLang('en'));

  it("frames a step's words in Chinese punctuation (已完成, progress, summary, failure, 日志); English as before", () => {
    setLang('zh');
    const zh = reporterLines();
    for (const e of EVENTS) zh.report(e);
    expect(zh.text().split('\n')).toEqual([
      '计划：',
      '  – STEP-A（已完成：REASON）',
      '  • STEP-B',
      '    STEP-B：50%（50/100 个文件）',
      '✓ STEP-A：SUMMARY',
      '✗ STEP-B：MESSAGE',
      '    → FIX',
      '    日志：/tmp/x.log',
      '已中止。',
      '',
    ]);
    setLang('en');
    const en = reporterLines();
    for (const e of EVENTS) en.report(e);
    expect(en.text().split('\n')).toEqual([
      'Plan:',
      '  – STEP-A  (already done: REASON)',
      '  • STEP-B',
      '    STEP-B: 50% (50/100 files)',
      '✓ STEP-A: SUMMARY',
      '✗ STEP-B: MESSAGE',
      '    → FIX',
      '    log: /tmp/x.log',
      'Stopped.',
      '',
    ]);
  });

  it("the manifest layer's failures and a library link that loops are Chinese under zh", async () => {
    const toolkit = await tempDir('cw-verify-zh-');
    await mkdir(path.join(toolkit, '.cudawiz'), { recursive: true });
    await mkdir(path.join(toolkit, 'lib64'), { recursive: true });
    await symlink('libcudnn.so.7', path.join(toolkit, 'lib64', 'libcudnn.so.7'));
    const manifest = (state: string) => JSON.stringify({
      tool: 'cudawiz', schema: 1, what: 'cudnn', state, os: 'linux', toolkitDir: toolkit,
      archive: { file: 'cudnn-10.1-linux-x64-v7.6.5.32.tgz', format: 'tar.gz', layout: 'cuda-folder', version: '7.6.5' },
      startedAt: '2026-01-01T00:00:00.000Z', createdDirs: [],
      files: [{ path: 'lib64/libcudnn.so.7', source: 'cuda/lib64/libcudnn.so.7', type: 'symlink', linkTarget: 'libcudnn.so.7' }],
    });
    const layer = async (state: string, lang: 'zh' | 'en') => {
      await writeFile(path.join(toolkit, '.cudawiz', 'manifest.json'), manifest(state));
      setLang(lang);
      const l = await verifyManifest(toolkit);
      setLang('en');
      return `${l.title}\n${l.evidence.join('\n')}\n${l.fix ?? ''}`;
    };
    for (const state of ['copying', 'complete']) {
      const zh = await layer(state, 'zh');
      expect(zh, state).toMatch(HAS_CHINESE);
      expect(englishIn(zh), state).toEqual([]);
      expect(englishIn(await layer(state, 'en')).length, state).toBeGreaterThan(0);
    }
    expect(await layer('complete', 'zh')).toContain('libcudnn.so.7 是一个循环链接');
    setLang('zh');
    const missing = await checkLibraryFiles([path.join(toolkit, 'lib64', 'libcudart.so.10.1')]);
    expect(missing[0].problem).toMatch(HAS_CHINESE);
  });
});
