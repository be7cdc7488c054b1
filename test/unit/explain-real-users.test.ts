// What real users paste into explain (issue 19): WSL2's misleading "cuda drivers" line, cuDNN 8's
// sub-libraries without zlib, pip's own errors, and native Windows TF ≥ 2.11 that simply lists no GPU.
// Every wording is a fixture with its source on its first line.
import { readFileSync } from 'node:fs';
import { mkdir as mkdirAsync, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { EXPLAIN_IDS, explainLog, type ExplainOptions } from '../../src/doctor/explain.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const logs = path.join(repoRoot, 'test', 'fixtures', 'logs');
const log = (name: string) => readFileSync(path.join(logs, name), 'utf8');
const catalog = builtinCatalog();
const explain = (name: string, options: ExplainOptions = {}) => explainLog(catalog, log(name), options);
const ids = (name: string, options: ExplainOptions = {}) => explain(name, options).findings.map((f) => f.id);

describe('WSL2: "Could not find cuda drivers" means the CUDA runtime, and the driver is Windows\'', () => {
  it('reads TF 2.15 in WSL (#70960) with --os wsl: the runtime is missing, install [and-cuda], never a Linux driver', () => {
    const e = explain('wsl-tf215-no-cuda-drivers.log', { os: 'linux', wsl: true });
    expect(e).toMatchObject({ os: 'linux', wsl: true });
    expect(e.findings.map((f) => f.id)).toEqual(['missing-cuda-runtime']);
    expect(e.findings[0].meaning).toContain('Inside WSL the driver is Windows\'');
    expect(e.findings[0].fix).toMatch(/^Do not install a Linux NVIDIA driver in WSL\. Install the CUDA runtime: .*pip install "tensorflow\[and-cuda\]"/);
  });

  it('knows WSL from the log itself: a WSL2 kernel string (4.19.121-microsoft-standard) or WSL 1\'s 4.4.0-20150-Microsoft', () => {
    const wsl2 = explain('wsl2-kernel-no-cuda-drivers.log');
    expect(wsl2).toMatchObject({ os: 'linux', wsl: true });
    expect(wsl2.findings.map((f) => f.id)).toEqual(['missing-cuda-runtime']); // the "[]" is explained by the runtime line
    const wsl1 = explain('wsl1-kernel-libcuda.log');
    expect(wsl1.wsl).toBe(true);
    expect(wsl1.findings[0]).toMatchObject({ id: 'missing-driver', library: 'libcuda.so.1' });
    expect(wsl1.findings[0].fix).toMatch(/^This log is from WSL 1, which has no GPU access: convert the distribution to WSL 2 \(in PowerShell: wsl --set-version DISTRO 2\)/);
    // WSL 2's kernel gets the Windows-driver fix with WSL's driver folder.
    const libcuda = "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory";
    const wsl2Driver = explainLog(catalog, `Linux version 5.15.90.1-microsoft-standard-WSL2 (oe-user@oe-host)\n${libcuda}`);
    expect(wsl2Driver.findings[0].fix).toMatch(/^Install or update the NVIDIA driver on Windows .* never a Linux one inside WSL: .* \/usr\/lib\/wsl\/lib/);
  });

  it('knows WSL from a /usr/lib/wsl path in the log', () => {
    const line = "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory; LD_LIBRARY_PATH: /usr/lib/wsl/lib:/usr/local/cuda/lib64";
    const e = explainLog(catalog, line);
    expect(e.wsl).toBe(true);
    expect(e.findings[0].fix).toContain('on Windows');
  });

  it('the same line outside WSL still names the runtime, and says so for every TF phrasing (tsl, external/local_tsl)', () => {
    for (const name of ['linux-tf213-no-cuda-drivers.log', 'wsl-tf215-no-cuda-drivers.log']) {
      const e = explain(name);
      expect(e.wsl).toBe(false);
      expect(e.findings[0]).toMatchObject({ id: 'missing-cuda-runtime' });
      expect(e.findings[0].meaning).toContain('not the driver');
    }
  });

  it('`explain --os wsl` and an explain run inside WSL (its kernel release says microsoft) both read the log as WSL\'s', async () => {
    const flag = await runCli(['explain', path.join(logs, 'linux-tf213-no-cuda-drivers.log'), '--os', 'wsl', '--json']);
    expect(JSON.parse(flag.stdout)).toMatchObject({ os: 'linux', wsl: true, findings: [{ id: 'missing-cuda-runtime' }] });
    const root = await tempDir();
    await mkdirAsync(path.join(root, 'proc/sys/kernel'), { recursive: true });
    await writeFile(path.join(root, 'proc/sys/kernel/osrelease'), '5.15.90.1-microsoft-standard-WSL2\n');
    const inside = await runCli(['explain', path.join(logs, 'linux-tf213-no-cuda-drivers.log')], { host: { os: 'linux', fsRoot: root, env: { PATH: '/usr/bin' } } });
    expect(inside.stdout).toContain('TensorFlow log from WSL');
    expect(inside.stdout).toContain('Do not install a Linux NVIDIA driver in WSL');
    const bad = await runCli(['explain', path.join(logs, 'linux-tf213-no-cuda-drivers.log'), '--os', 'macos']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--os must be windows, linux or wsl, not "macos".');
  });
});

describe('cuDNN 8.3+ on Windows without zlib: cudnn_cnn_infer64_8.dll / cudnn_ops_infer64_8.dll, error 126', () => {
  it('names zlibwapi.dll and the cuDNN 8.1 TF 2.5–2.10 were tested with, for both twins, once each', () => {
    for (const [name, file] of [['windows-cudnn-cnn-infer-126.log', 'cudnn_cnn_infer64_8.dll'], ['windows-cudnn-ops-infer-126.log', 'cudnn_ops_infer64_8.dll']]) {
      const e = explain(name);
      expect(e).toMatchObject({ os: 'windows', cudnn: '8' });
      expect(e.findings).toHaveLength(1); // "Please make sure … is in your library path!" is the same problem
      expect(e.findings[0]).toMatchObject({ id: 'cudnn-part-needs-zlib', library: file });
      expect(e.findings[0].meaning).toContain('error 126');
      expect(e.findings[0].meaning).toContain('zlibwapi.dll');
      expect(e.findings[0].fix).toContain('64-bit zlibwapi.dll');
      expect(e.findings[0].fix).toContain('cuDNN 8.1, the one TensorFlow 2.5–2.10 were tested with on Windows, which needs no zlib (cudawiz install --tf 2.10)');
    }
  });

  it('tells error 127 (two cuDNN copies mixed) from a missing dependency', () => {
    expect(ids('windows-cudnn-cnn-infer-127.log')).toEqual(['cudnn-parts-mixed']);
    expect(explain('windows-cudnn-cnn-infer-127.log').findings[0].fix).toContain('Keep one cuDNN 8');
  });

  it('a cuDNN part that is not there at all ("Could not locate …") is a missing cuDNN file, not zlib', () => {
    const e = explainLog(catalog, 'Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!');
    expect(e.findings.map((f) => [f.id, f.library])).toEqual([['missing-cudnn', 'cudnn_ops_infer64_8.dll']]);
  });
});

describe("pip's own errors", () => {
  it('tensorflow-gpu==2.5.1 with no match: the package ended, install tensorflow==2.5.1 (and its CUDA)', () => {
    const e = explain('pip-tensorflow-gpu-none.log');
    expect(e.findings.map((f) => f.id)).toEqual(['pip-tensorflow-gpu-ended']);
    expect(e.findings[0].meaning).toContain('pip has no tensorflow-gpu==2.5.1 to give: the tensorflow-gpu package ended');
    expect(e.findings[0].fix).toBe('Install "tensorflow==2.5.1" instead and set up its CUDA and cuDNN with cudawiz install --tf 2.5.');
  });

  it('per OS: Linux TF ≥ 2.14 gets [and-cuda]; native Windows TF ≥ 2.11 gets TF 2.10 or WSL2; old pip wording without a version', () => {
    const linux = explainLog(catalog, 'ERROR: No matching distribution found for tensorflow-gpu==2.15.0', { os: 'linux' });
    // The catalog's spec for 2.15 is the one that installs: 2.15.0.post1 (2.15.0's [and-cuda] pins cannot resolve).
    expect(linux.findings[0].fix).toBe('Install "tensorflow[and-cuda]==2.15.0.post1" instead (CUDA and cuDNN come as pip wheels).');
    const win = explainLog(catalog, 'ERROR: No matching distribution found for tensorflow-gpu==2.12.0', { os: 'windows' });
    expect(win.findings[0].fix).toContain('On native Windows the GPU ends at TensorFlow 2.10: pip install "tensorflow<2.11"');
    expect(win.findings[0].fix).toContain('pip install "tensorflow[and-cuda]==2.12.0" there');
    const old = explain('pip-tensorflow-gpu-old-pip-windows.log');
    expect(old.findings.map((f) => f.id)).toEqual(['pip-tensorflow-gpu-ended']);
    expect(old.findings[0].fix).toContain('Native Windows: pip install "tensorflow<2.11"');
  });

  it('the tensorflow-gpu placeholder\'s own exception is the same class', () => {
    expect(ids('pip-tensorflow-gpu-removed.log')).toEqual(['pip-tensorflow-gpu-ended']);
  });

  it('tensorflow-gpu==1.15 with no match is a Python outside 1.15\'s range, from the catalog', () => {
    const e = explainLog(catalog, 'ERROR: No matching distribution found for tensorflow-gpu==1.15.0', { os: 'linux' });
    expect(e.findings[0].meaning).toMatch(/that release has wheels only for Python 3\.\d–3\.7/);
  });

  it('tensorflow on Python 3.13 (#85298): names the Python from pip --version and which TF lines support it', () => {
    const e = explain('pip-tensorflow-python313.log');
    expect(e.findings.map((f) => f.id)).toEqual(['pip-python-unsupported']);
    expect(e.findings[0].meaning).toContain('pip found no tensorflow wheel for Python 3.13');
    expect(e.findings[0].meaning).toMatch(/Python 3\.13 is supported by TensorFlow 2\.20–2\.\d+/);
    expect(e.findings[0].fix).toMatch(/^Use a 64-bit Python .*TensorFlow 2\.\d+: Python 3\.\d+–3\.\d+; /);
  });

  it('tensorflow==2.13.0 on Python 3.12 (from versions: 2.16.0rc0 …): 2.13 was released for Python 3.8–3.11', () => {
    const e = explain('pip-tensorflow-213-python312.log');
    expect(e.findings[0]).toMatchObject({ id: 'pip-python-unsupported' });
    expect(e.findings[0].meaning).toBe('TensorFlow 2.13.0 has no wheel for this Python: it was released for Python 3.8–3.11 only.');
  });

  it('"is not a supported wheel on this platform": the wheel\'s own tags; with a 32-bit Python banner, the 32-bit class', () => {
    const wheel = explain('pip-unsupported-wheel.log');
    expect(wheel.findings.map((f) => f.id)).toEqual(['pip-wheel-unsupported']);
    expect(wheel.findings[0].meaning).toBe('tensorflow_gpu-1.13.1-cp35-cp35m-win_amd64.whl is built for CPython 3.5 on win_amd64; the Python running pip is another version, another OS, or 32-bit.');
    const bits = explain('pip-unsupported-wheel-32bit.log');
    expect(bits.findings.map((f) => f.id)).toEqual(['pip-32bit-python']);
    expect(bits.findings[0].fix).toContain('64-bit Python');
  });

  it('pip output that installed fine is still nothing recognised', () => {
    expect(explain('unrelated-pip.log').findings).toEqual([]);
  });
});

describe('native Windows TF ≥ 2.11: no GPU, no error', () => {
  it('"GPU Available:  []" with TF 2.16.1 from a Windows prompt: the platform, with WSL2 and TF 2.10 as routes', () => {
    const e = explain('windows-tf216-empty-list.log');
    expect(e).toMatchObject({ os: 'windows', tensorflow: '2.16.1' });
    expect(e.findings.map((f) => f.id)).toEqual(['windows-no-native-gpu']);
    expect(e.findings[0].meaning).toContain('TensorFlow 2.16.1 lists no GPU and prints no CUDA error: after 2.10');
    expect(e.findings[0].fix).toMatch(/^Use WSL2: .* Or stay native with TensorFlow 2\.10: pip install "tensorflow<2\.11"/);
  });

  it('"Num GPUs Available:  0" on TF 2.12 and a bare "[]" on TF 2.11 (version unknown) read the same on Windows', () => {
    expect(ids('windows-tf212-num-gpus-0.log', { os: 'windows' })).toEqual(['windows-no-native-gpu']);
    const unknown = explain('windows-tf211-is-built-with-cuda.log', { os: 'windows' });
    expect(unknown.findings.map((f) => f.id)).toEqual(['windows-no-native-gpu']);
    expect(unknown.findings[0].meaning).toContain('If this is TensorFlow 2.11 or newer');
  });

  it('TF 2.10 on Windows listing no GPU is not the platform: it asks for the hidden reason', () => {
    const e = explainLog(catalog, 'TensorFlow version: 2.10.1\nNum GPUs Available:  0', { os: 'windows' });
    expect(e.findings.map((f) => f.id)).toEqual(['no-gpu-listed']);
  });
});

// ------------------------------------------------------------------ every rule, inside WSL
const SAMPLES: Record<(typeof EXPLAIN_IDS)[number], string> = {
  'missing-toolkit-library': log('linux-tf21-libcudart101.log'),
  'missing-cupti': log('tf1-couldnt-open.log'),
  'missing-cudnn': log('linux-tf114-dlopen-libcudnn7.log'),
  'missing-driver': log('linux-cudnn8-part-needs-libcuda.log'),
  'missing-tensorrt': "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file or directory",
  'missing-library': "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libfoo.so.1'; dlerror: libfoo.so.1: cannot open shared object file: No such file or directory",
  'missing-dependency': log('linux-cusolver-needs-nvjitlink.log'),
  'missing-zlib': log('windows-zlibwapi.log'),
  'cudnn-part-needs-zlib': log('windows-cudnn-cnn-infer-126.log'),
  'cudnn-parts-mixed': log('windows-cudnn-cnn-infer-127.log'),
  'missing-msvc-runtime': log('windows-msvcp140_1.log'),
  'cudnn-mismatch': log('cudnn-mismatch-xla.log'),
  'driver-too-old': log('linux-driver-insufficient.log'),
  'missing-cuda-runtime': log('wsl-tf215-no-cuda-drivers.log'),
  'some-libraries-missing': log('linux-cannot-dlopen-unnamed.log'),
  'no-code-for-gpu': log('linux-tf23-gtx960m-kernel-image.log'),
  'windows-no-native-gpu': log('windows-tf216-empty-list.log'),
  'no-gpu-listed': log('windows-tf212-num-gpus-0.log'),
  'pip-tensorflow-gpu-ended': log('pip-tensorflow-gpu-none.log'),
  'pip-python-unsupported': log('pip-tensorflow-python313.log'),
  'pip-wheel-unsupported': log('pip-unsupported-wheel.log'),
  'pip-32bit-python': log('pip-unsupported-wheel-32bit.log'),
  // pip ≥ 20's wording, asking for a release TensorFlow never published.
  'pip-no-such-version': 'ERROR: Could not find a version that satisfies the requirement tensorflow==2.99.0 (from versions: 2.16.1, 2.17.0)',
  'driver-module-not-loaded': log('linux-tf210-kernel-driver-not-running.log'),
  'driver-library-mismatch': log('linux-nvml-mismatch-compat.log'),
  'driver-compat-unsupported': log('linux-cuinit-compat-not-supported.log'),
  'driver-sees-no-gpu': log('linux-nvidia-smi-no-devices.log'),
  'cuda-init-unknown': 'failed call to cuInit: CUDA_ERROR_UNKNOWN', // tensorflow/tensorflow#7653's title
  'no-cuda-device': log('linux-tf-visible-devices-minus-one.log'),
  'tf-built-without-cuda': "BUILD_INFO={'is_cuda_build': False, 'is_rocm_build': False, 'is_tensorrt_build': False, ...}",
  'tf-build-info': log('linux-tf-build-info-cuda112.log'),
  'conda-package-not-found': log('conda-tensorflow-gpu-not-found-win.log'),
  'conda-unsatisfiable': log('conda-tensorflow-python38-unsatisfiable.log'),
  'poetry-python-range': log('poetry-tensorflow-python-range.log'),
  'poetry-no-version': log('poetry-tensorflow-no-version.log'),
  'poetry-no-candidates': log('poetry-tensorflow-no-candidates.log'),
  'wsl-gpu-blocked': log('wsl-nvml-gpu-access-blocked.log'),
};

/** Advice to put a driver into Linux: the distribution's package, a container flag, or "install the driver" not said of Windows. */
function linuxDriverAdvice(fix: string): string[] {
  const bad: string[] = [];
  if (/nvidia-driver|distribution|--gpus all|apt(?:-get)? install[^.]*nvidia/i.test(fix)) bad.push(fix);
  for (const sentence of fix.split(/(?<=[.;])\s+/)) {
    if (/driver/i.test(sentence) && !/Windows|never|Do not|without/i.test(sentence)) bad.push(sentence);
  }
  return bad;
}

describe('explain never advises a Linux driver on WSL', () => {
  it('walks every rule: each id has a real sample, and inside WSL no fix of any of them names a Linux driver', () => {
    const seen = new Set<string>();
    for (const [id, text] of Object.entries(SAMPLES)) {
      const plain = explainLog(catalog, text);
      seen.add(plain.findings.find((f) => f.id === id)?.id ?? `${id}: not produced`);
      const inWsl = explainLog(catalog, text, { os: 'linux', wsl: true });
      expect(inWsl.findings.length, id).toBeGreaterThan(0);
      for (const f of inWsl.findings) expect(linuxDriverAdvice(f.fix), `${f.id} from the ${id} sample`).toEqual([]);
    }
    expect([...seen].sort()).toEqual([...EXPLAIN_IDS].sort());
  });

  it('the check itself catches the old advice', () => {
    expect(linuxDriverAdvice('Install or update the NVIDIA driver (your distribution’s nvidia-driver package); libcuda.so.1 comes with it.')).not.toEqual([]);
  });
});

describe('#40 item 8: the two reports with no library error, from real users', () => {
  it('TF 2.14 on a Windows prompt (#62080): is_built_with_cuda() False and [] → the platform, WSL2 or TF 2.10', () => {
    const e = explain('windows-tf214-built-without-cuda.log');
    expect(e).toMatchObject({ os: 'windows', tensorflow: '2.14.0' });
    expect(e.findings.map((f) => f.id)).toEqual(['windows-no-native-gpu']);
    expect(e.findings[0].fix).toMatch(/^Use WSL2: .* Or stay native with TensorFlow 2\.10: pip install "tensorflow<2\.11" \(cudawiz install --tf 2\.10\)\.$/);
  });

  it('"Is TensorFlow built with CUDA?: False" with no OS in the output (#68236): a CPU-only build, both ways forward', () => {
    const e = explain('tf216-built-with-cuda-false.log');
    expect(e.os).toBeNull();
    expect(e.findings.map((f) => f.id)).toEqual(['tf-built-without-cuda']);
    expect(e.findings[0].meaning).toContain('is_built_with_cuda() is False');
    expect(e.findings[0].fix).toBe(
      'Linux and WSL2: pip install "tensorflow[and-cuda]==2.16.1". Native Windows: pip install "tensorflow<2.11" — TensorFlow 2.10 is the last GPU release there (cudawiz install --tf 2.10); for a newer one use WSL2.',
    );
    // The same output said to come from Linux: the Linux way alone.
    expect(explain('tf216-built-with-cuda-false.log', { os: 'linux' }).findings[0].fix).toContain('pip install "tensorflow[and-cuda]==2.16.1"');
    // The bare prompt of #60156 ("False" on the line after the call) reads the same.
    expect(ids('windows-tf211-is-built-with-cuda.log')).toEqual(['tf-built-without-cuda']);
  });

  it('tensorflow-gpu==2.11 on Windows (#62073): the last GPU release natively, or WSL2 with [and-cuda]', () => {
    const e = explain('pip-tensorflow-gpu-211-windows.log');
    expect(e.os).toBe('windows');
    expect(e.findings.map((f) => f.id)).toEqual(['pip-tensorflow-gpu-ended']);
    expect(e.findings[0].fix).toMatch(/^On native Windows the GPU ends at TensorFlow 2\.10: pip install "tensorflow<2\.11"/);
  });

  it('tensorflow-gpu==2.11 / ==2.15 with no OS in sight: Linux\'s tensorflow (with [and-cuda] where it exists) or the last tensorflow-gpu pip listed', () => {
    const e = explain('pip-tensorflow-gpu-211-colab.log');
    expect(e.findings[0].fix).toBe(
      'Linux and WSL2: pip install "tensorflow==2.11" and set up its CUDA and cuDNN with cudawiz install --tf 2.11. Native Windows: pip install "tensorflow-gpu==2.10.1" — TensorFlow 2.10 is the last GPU release there (cudawiz install --tf 2.10); for a newer one use WSL2.',
    );
    const newer = explainLog(catalog, 'ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.15 (from versions: 2.10.0, 2.10.1, 2.11.0, 2.12.0)\nERROR: No matching distribution found for tensorflow-gpu==2.15');
    expect(newer.findings[0].fix).toMatch(/^Linux and WSL2: pip install "tensorflow\[and-cuda\]==2\.15\.0\.post1"\. Native Windows: pip install "tensorflow-gpu==2\.10\.1"/);
  });
});
