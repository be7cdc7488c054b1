// The WSL and GPU area with --lang zh: `cudawiz requirements` (the table, --gpu verdicts, native Windows'
// alternatives, the catalog's notes), the catalog overlay's errors, `cudawiz doctor` inside WSL fixture
// machines, the WSL probe's problems, the WSL2 route, and the version picker's and nvidia-smi's words.
// Each output is Chinese with no English sentence (test/helpers/english-runs.ts), and the same run in
// English has one, so the check can fail.
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { gpuSupport } from '../../src/catalog/gpu-support.js';
import { tfChoicesFor } from '../../src/catalog/tf-choices.js';
import { wslRouteSteps } from '../../src/doctor/wsl-route.js';
import { setLang, type Lang } from '../../src/i18n/localized.js';
import { probeGpu } from '../../src/probe/gpu.js';
import { machineFs } from '../../src/probe/machine-fs.js';
import { probeWsl } from '../../src/probe/wsl.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine, type FixtureMachine } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const CHINESE = /[\u4e00-\u9fff]/;

afterEach(() => setLang('en'));

/** What a function says in each language (the language set for the call, English again after). */
async function inBoth<T>(say: () => T | Promise<T>): Promise<{ zh: T; en: T }> {
  const inLang = async (lang: Lang) => {
    setLang(lang);
    try {
      return await say();
    } finally {
      setLang('en');
    }
  };
  return { zh: await inLang('zh'), en: await inLang('en') };
}

function expectChineseOnly(zh: string, en: string): void {
  expect(zh).toMatch(CHINESE);
  expect(englishIn(zh)).toEqual([]);
  expect(englishIn(en).length).toBeGreaterThan(0);
  expect(en).not.toMatch(CHINESE);
}

async function cliBoth(argv: string[], host?: FixtureMachine['host']) {
  const zh = await runCli([...argv, '--lang', 'zh', '--no-color'], host ? { host } : {});
  const en = await runCli([...argv, '--lang', 'en', '--no-color'], host ? { host } : {});
  return { zh, en, zhText: zh.stdout + zh.stderr, enText: en.stdout + en.stderr };
}

describe('cudawiz requirements with --lang zh', () => {
  const runs: [string, string[]][] = [
    ['the table, the CUDA installer and the cuDNN archive (TF 2.3)', ['requirements', '--tf', '2.3']],
    ['a GPU that runs only through the PTX JIT (TF 2.3 on 8.9)', ['requirements', '--tf', '2.3', '--gpu', '8.9']],
    ['a GPU too old for the wheels (TF 2.3 on 3.0)', ['requirements', '--tf', '2.3', '--gpu', '3.0']],
    ['a GPU below its CUDA (TF 2.16 on a Kepler 3.5)', ['requirements', '--tf', '2.16', '--gpu', '3.5']],
    ['a known failure (TF 2.16 on Blackwell 12.0) and the and-cuda note', ['requirements', '--tf', '2.16', '--gpu', '12.0']],
    ['a patch release that takes its minor line\'s row (2.3.1), on an inferred architecture list (1.13)', ['requirements', '--tf', '1.13.2', '--gpu', '5.0']],
    ['native Windows past its last GPU release: the alternatives and the WSL2 notes', ['requirements', '--tf', '2.15', '--os', 'windows', '--gpu', 'RTX 3060']],
  ];
  for (const [name, argv] of runs) {
    it(`${name}: Chinese, no English sentence`, async () => {
      const { zh, en, zhText, enText } = await cliBoth(argv);
      expect(zh.code).toBe(0);
      expect(en.code).toBe(0);
      expectChineseOnly(zhText, enText);
    });
  }

  it('lines the table up by terminal columns: two per Chinese character', async () => {
    const { zh } = await cliBoth(['requirements', '--tf', '2.3']);
    const lines = zh.stdout.split('\n');
    const valueAt = (label: string) => {
      const line = lines.find((l) => l.startsWith(`  ${label}`))!;
      const value = line.slice(2 + label.length).search(/\S/);
      return [...label].reduce((n, ch) => n + (CHINESE.test(ch) || /[：]/.test(ch) ? 2 : 1), 2) + value;
    };
    expect(new Set(['pip 包', 'Python', 'NVIDIA 显卡驱动', '显卡计算能力'].map(valueAt)).size).toBe(1);
    expect(valueAt('CUDA 安装程序：')).toBe(19);
    expect(valueAt('cuDNN 压缩包：')).toBe(19);
    expect(lines.find((l) => l.includes('https://developer.download.nvidia.com/compute/cuda/'))!.search(/\S/)).toBe(19);
  });

  // The third field: the English sentence (the finder's rule sees no run of three plain words in "needs a GPU name or a …").
  const errors: [string, string[], string][] = [
    ['a GPU name the catalog does not know', ['requirements', '--tf', '2.3', '--gpu', 'Voodoo 5 6000'], 'the catalog cannot tell its compute capability from that name'],
    ['an empty --gpu', ['requirements', '--tf', '2.3', '--gpu', ' '], '--gpu needs a GPU name or a compute capability.'],
  ];
  for (const [name, argv, english] of errors) {
    it(`${name}: a usage error in Chinese`, async () => {
      const { zh, en, zhText, enText } = await cliBoth(argv);
      expect(zh.code).not.toBe(0);
      expect(en.code).toBe(zh.code);
      expect(zhText).toMatch(CHINESE);
      expect(englishIn(zhText)).toEqual([]);
      expect(enText).toContain(english);
      expect(enText).not.toMatch(CHINESE);
    });
  }
});

describe('the catalog overlay going wrong, with --lang zh', () => {
  const overlays: [string, (dir: string) => Promise<string>][] = [
    ['a file that is not there', async (dir) => path.join(dir, 'missing.json')],
    ['a file that is not JSON', async (dir) => {
      const file = path.join(dir, 'broken.json');
      await writeFile(file, '{ "cuda": [ \n');
      return file;
    }],
    // The parser's own English ("Expected property name or '}' in JSON …") is quoted, as it wrote it.
    ['a file with a bare key', async (dir) => {
      const file = path.join(dir, 'bare.json');
      await writeFile(file, '{ cuda: 1 }');
      return file;
    }],
    ['a bad sha256 and a field of the wrong type', async (dir) => {
      const file = path.join(dir, 'bad.json');
      await writeFile(file, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { sha256: 'ABC', file: 7 } } }] }));
      return file;
    }],
  ];
  for (const [name, make] of overlays) {
    it(`${name}: the error and its fix in Chinese`, async () => {
      const file = await make(await tempDir('cw-zh-overlay-'));
      const { zh, en, zhText, enText } = await cliBoth(['install', '--tf', '2.3', '--dry-run', '--catalog', file]);
      expect(zh.code).not.toBe(0);
      expect(en.code).toBe(zh.code);
      expectChineseOnly(zhText, enText);
    });
  }
});

// ---------------------------------------------------------------- WSL
const WSL2_KERNEL = 'Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 12.2.0, GNU ld (GNU Binutils) 2.40) #1 SMP Fri Mar 29 23:14:13 UTC 2024';
const WSL1_KERNEL = 'Linux version 4.4.0-18985-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1-Microsoft Fri Sep 13 14:26:00 PST 2019';
const WSL_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/lib/wsl/lib', WSL_DISTRO_NAME: 'Ubuntu', WSL_INTEROP: '/run/WSL/1_interop' };

/** A WSL distribution as a fixture root: the kernel's marker, and what Windows lends it (or fails to). */
async function wslMachine(spec: { wsl1?: boolean; libcuda?: boolean; smi?: 'crashes' | 'none'; ldConf?: boolean; strayLinuxLibcuda?: boolean; windowsVer?: string }): Promise<FixtureMachine> {
  const m = await fixtureMachine('linux', { ...WSL_ENV, ...(spec.wsl1 ? { WSL_INTEROP: '' } : {}) });
  const kernel = spec.wsl1 ? WSL1_KERNEL : WSL2_KERNEL;
  await m.file('/proc/version', `${kernel}\n`);
  await m.file('/proc/sys/kernel/osrelease', `${/^Linux version (\S+)/.exec(kernel)![1]}\n`);
  if (spec.libcuda) await m.file('/usr/lib/wsl/lib/libcuda.so.1', "the Windows driver's libcuda");
  // The nvidia-smi some Windows drivers ship, which segfaults inside WSL (microsoft/WSL#11277).
  if (spec.smi === 'crashes') await m.script('/usr/lib/wsl/lib/nvidia-smi', 'echo "Segmentation fault" >&2\nexit 139');
  if (spec.windowsVer) await m.script('/mnt/c/Windows/System32/cmd.exe', `printf '\\r\\nMicrosoft Windows [Version ${spec.windowsVer}]\\r\\n'`);
  if (spec.ldConf) await m.file('/etc/ld.so.conf.d/ld.wsl.conf', '/usr/lib/wsl/lib\n');
  if (spec.strayLinuxLibcuda) await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'a Linux driver package copy');
  return m;
}

describe('the WSL probe with --lang zh', () => {
  it('WSL 1 on an old Windows without a Windows driver: every problem and fix in Chinese', async () => {
    const m = await wslMachine({ wsl1: true });
    const { zh, en } = await inBoth(() => probeWsl(m.host, { fsRoot: m.root }));
    expect(zh.problems.map((p) => p.id)).toEqual(['wsl1', 'windows-too-old', 'no-wsl-libcuda']);
    expect(en.problems.map((p) => p.id)).toEqual(zh.problems.map((p) => p.id));
    const say = (w: typeof zh) => [...w.problems.flatMap((p) => [p.message, p.fix]), w.driverFix].join('\n');
    expectChineseOnly(say(zh), say(en));
    expect(zh.problems[0].fix).toContain('wsl --set-version Ubuntu 2');
  });

  it("a crashing nvidia-smi, a Linux driver inside WSL, and WSL's folder off the loader path", async () => {
    const m = await wslMachine({ libcuda: true, smi: 'crashes', strayLinuxLibcuda: true, windowsVer: '10.0.22631.3880' });
    const { zh, en } = await inBoth(() => probeWsl(m.host, { fsRoot: m.root }));
    expect(zh.problems.map((p) => p.id)).toEqual(['nvidia-smi-failed', 'linux-driver-inside-wsl', 'wsl-lib-not-on-loader-path']);
    const say = (w: typeof zh) => w.problems.flatMap((p) => [p.message, p.fix]).join('\n');
    expectChineseOnly(say(zh), say(en));
    // Commands, paths and ids stay as they are.
    expect(zh.problems[0].message).toContain('退出码 139');
    expect(zh.problems[1].fix).toContain('sudo apt remove --purge "nvidia-driver-*" "libnvidia-compute-*"');
    expect(zh.problems[2].fix).toContain('echo /usr/lib/wsl/lib | sudo tee /etc/ld.so.conf.d/ld.wsl.conf && sudo ldconfig');
  });

  it('cudawiz doctor inside that WSL 1 distribution prints the WSL problems in Chinese', async () => {
    const m = await wslMachine({ wsl1: true });
    const { zh, en } = await cliBoth(['doctor', '--tf', '2.16'], m.host);
    expect(zh.code).toBe(en.code);
    expect(zh.stdout).toContain('Ubuntu 运行在 WSL 1 下');
    expect(zh.stdout).toContain('缺少 /usr/lib/wsl/lib/libcuda.so.1');
    expect(zh.stdout).toContain('请把 Windows 升级到 Windows 10 21H2');
    expect(en.stdout).toContain('Ubuntu runs under WSL 1, which has no GPU access');
    const wslLines = (text: string) => text.split('\n').filter((l) => /WSL|Windows/.test(l)).join('\n');
    expectChineseOnly(wslLines(zh.stdout), wslLines(en.stdout));
  });
});

describe('the WSL2 route with --lang zh', () => {
  for (const tf of ['2.16', '2.12']) {
    it(`TF ${tf}: every step in Chinese, its commands as they are`, async () => {
      const { zh, en } = await inBoth(() => wslRouteSteps(catalog, tf));
      expect(zh.length).toBe(en.length);
      expectChineseOnly(zh.join('\n'), en.join('\n'));
      for (const command of ['wsl --install -d Ubuntu', 'wsl --set-version Ubuntu 2', 'python3 -m venv ~/tf && source ~/tf/bin/activate', 'nvidia-smi']) {
        expect(zh.join('\n')).toContain(command);
      }
      expect(zh.join('\n')).toContain(tf === '2.16' ? 'pip install "tensorflow[and-cuda]==2.16.1"' : 'cudawiz install --tf 2.12.0');
    });
  }
});

describe('the version picker, the GPU verdicts and nvidia-smi with --lang zh', () => {
  it("native Windows' picker: the lines past its last GPU release say why in Chinese", async () => {
    const { zh, en } = await inBoth(() => tfChoicesFor(catalog, 'windows', { computeCapability: '3.0' }));
    const say = (c: typeof zh) => c.flatMap((x) => [x.blocked ?? '', x.note ?? '']).filter(Boolean).join('\n');
    expectChineseOnly(say(zh), say(en));
  });

  it('a verdict for every kind of answer, including a value that is no compute capability', async () => {
    const asks: [string, string][] = [['8.6', '2.3'], ['8.9', '2.3'], ['3.0', '2.3'], ['3.5', '2.16'], ['7.5', '0.9'], ['eight', '2.3']];
    const { zh, en } = await inBoth(() => asks.map(([cc, tf]) => gpuSupport(catalog, { computeCapability: cc }, { tf })));
    expect(zh.map((s) => s.verdict)).toEqual(en.map((s) => s.verdict));
    const say = (all: typeof zh) => all.flatMap((s) => [s.reason, s.suggestion ?? '']).join('\n');
    expectChineseOnly(say(zh), say(en));
  });

  it("an nvidia-smi that prints nothing, and one that cannot be run: the doctor's evidence in Chinese", async () => {
    const silent = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await silent.script('/usr/bin/nvidia-smi', 'exit 3');
    const broken = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    // Executable, but no interpreter can run it.
    await broken.file('/usr/bin/nvidia-smi', '#!/nonexistent/interpreter\n');
    await chmod(broken.hostPath('/usr/bin/nvidia-smi'), 0o755);
    const { zh, en } = await inBoth(async () => [
      (await probeGpu(silent.host, machineFs('linux', silent.root), catalog)).evidence ?? '',
      (await probeGpu(broken.host, machineFs('linux', broken.root), catalog)).evidence ?? '',
    ]);
    expect(zh[0]).toContain('什么也没输出（退出码 3）');
    expect(en[0]).toContain('printed nothing (exit 3)');
    expect(zh.join('\n')).toMatch(CHINESE);
    expect(englishIn(zh.join('\n'))).toEqual([]);
    expect(englishIn(en.join('\n')).length).toBeGreaterThan(0);
  });
});
