// The words of every layer a user meets below and around TensorFlow (issue 26, part 5): nvidia-smi's
// failures, cuInit's errors, TensorFlow's cuda_diagnostics lines, NVML's version mismatch, TF's build
// info and native-Windows warning, and conda's and Poetry's errors. Each fixture log quotes real lines,
// with its source on its first line; a log with several causes lists them in the order to fix them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { explainLog, type ExplainOptions } from '../../src/doctor/explain.js';
import { repoRoot, runCli } from '../helpers/cli.js';

const logs = path.join(repoRoot, 'test', 'fixtures', 'logs');
const log = (name: string) => readFileSync(path.join(logs, name), 'utf8');
const catalog = builtinCatalog();
const explain = (name: string, options: ExplainOptions = {}) => explainLog(catalog, log(name), options);
const ids = (name: string, options: ExplainOptions = {}) => explain(name, options).findings.map((f) => f.id);

describe("the driver's own words", () => {
  it("nvidia-smi's \"couldn't communicate with the NVIDIA driver\" (tensorflow#40920): the kernel module, with the distro fix", () => {
    const e = explain('linux-tf-nvidia-smi-no-driver.log');
    // cuInit's CUDA_ERROR_NO_DEVICE on the same box is the same cause: one finding.
    expect(e.findings.map((f) => f.id)).toEqual(['driver-module-not-loaded']);
    expect(e.findings[0].line).toMatch(/^> NVIDIA-SMI has failed because it couldn't communicate/);
    expect(e.findings[0].meaning).toContain('its kernel module is not loaded');
    const fix = e.findings[0].fix;
    for (const step of ['dkms status', 'linux-headers-$(uname -r)', 'sudo modprobe nvidia', 'Secure Boot', 'sudo dmesg | grep NVRM', 'reboot', '--dkms']) expect(fix).toContain(step);
    expect(fix).toContain('never reinstall a package-managed driver from nvidia.com');
  });

  it("issue 26's Debian 12 box (driver 535.261.03 user space, no module): nvidia-smi's words and the library's file name give the version", () => {
    const text = [
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
      '$ ls /usr/lib/x86_64-linux-gnu/libcuda.so.*',
      '/usr/lib/x86_64-linux-gnu/libcuda.so.1  /usr/lib/x86_64-linux-gnu/libcuda.so.535.261.03',
    ].join('\n');
    const e = explainLog(catalog, text);
    expect(e.findings.map((f) => f.id)).toEqual(['driver-module-not-loaded']);
    expect(e.findings[0].meaning).toContain('user-space libraries are installed (version 535.261.03), but its kernel module is not loaded');
  });

  it("TF's \"kernel driver does not appear to be running on this host … /proc/driver/nvidia/version does not exist\" (tensorflow#255) names the kernel driver", () => {
    const e = explain('linux-tf210-kernel-driver-not-running.log');
    expect(e.findings.map((f) => f.id)).toEqual(['driver-module-not-loaded']);
    expect(e.findings[0].meaning).toContain('(/proc/driver/nvidia/version does not exist)');
    expect(e.findings[0].line).toContain('kernel driver does not appear to be running on this host');
  });

  it('the same TF line after libcuda itself failed to load is no driver at all, not a module to load', () => {
    const noLibcuda = [
      // tensorflow/tensorflow#45930-era wording: the dso_loader line, TF's 303 and the diagnostics line, as TF 2.4 prints them.
      "2021-04-07 18:48:07.783485: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory",
      '2021-04-07 18:48:07.783530: W tensorflow/stream_executor/cuda/cuda_driver.cc:326] failed call to cuInit: UNKNOWN ERROR (303)',
      '2021-04-07 18:48:07.783580: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:156] kernel driver does not appear to be running on this host (frostpunk): /proc/driver/nvidia/version does not exist',
    ].join('\n');
    expect(explainLog(catalog, noLibcuda).findings.map((f) => f.id)).toEqual(['missing-driver']);
  });

  it('NVML\'s "Driver/library version mismatch" with TF\'s kernel/DSO check (tensorflow#4349): the versions, reboot, and the COMPAT error folded in', () => {
    const e = explain('linux-nvml-mismatch-compat.log');
    expect(e.findings.map((f) => f.id)).toEqual(['driver-library-mismatch']);
    // TF prints 470.57.02 as "470.57.2": explain gives it back as NVIDIA writes it.
    expect(e.findings[0].meaning).toContain('user-space libraries (470.57.02) and its loaded kernel module (460.91.03)');
    expect(e.findings[0].fix).toMatch(/^Reboot, which loads the new module\. Without a reboot: .*sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia/);
    expect(explain('linux-nvml-library-version.log').findings[0].meaning).toContain('(550.144)');
    const old = explain('linux-tf1-kernel-dso-mismatch.log'); // "375.66.0" is driver 375.66
    expect(old.findings.map((f) => f.id)).toEqual(['driver-library-mismatch']);
    expect(old.findings[0].meaning).toContain('(375.66) and its loaded kernel module (384.130)');
  });

  it('CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (libopenshot#955): the cuda-compat libcuda, remove it from the loader path', () => {
    const e = explain('linux-cuinit-compat-not-supported.log');
    expect(e.findings.map((f) => f.id)).toEqual(['driver-compat-unsupported']);
    expect(e.findings[0].meaning).toContain('forward-compatibility copy of libcuda');
    expect(e.findings[0].fix).toContain('remove the compat folder');
  });

  it('CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803) reads as the same mismatch', () => {
    // The runtime's text for error 803, as NVIDIA/nvidia-docker#1256 quotes it.
    const e = explainLog(catalog, 'CUDA: Check failed: e == cudaSuccess (803 vs. 0) : system has unsupported display driver / cuda driver combination');
    expect(e.findings.map((f) => f.id)).toEqual(['driver-library-mismatch']);
  });

  it('nvidia-smi\'s "No devices were found" (open-gpu-kernel-modules#862): the driver holds no GPU, dmesg says why', () => {
    const e = explain('linux-nvidia-smi-no-devices.log');
    expect(e.findings.map((f) => f.id)).toEqual(['driver-sees-no-gpu']);
    expect(e.findings[0].fix).toContain('sudo dmesg | grep NVRM');
  });

  it('CUDA_ERROR_NO_DEVICE alone: CUDA_VISIBLE_DEVICES, nvidia-smi, --gpus all; and named when the script hides the GPUs (numba#5793)', () => {
    const plain = explainLog(catalog, '2023-11-28 16:42:02.591947: E tensorflow/stream_executor/cuda/cuda_driver.cc:328] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected');
    expect(plain.findings.map((f) => f.id)).toEqual(['no-cuda-device']);
    expect(plain.findings[0].fix).toContain('CUDA_VISIBLE_DEVICES');
    const hidden = explain('linux-tf-visible-devices-minus-one.log');
    expect(hidden.findings[0].meaning).toContain('the script hides them all: CUDA_VISIBLE_DEVICES=-1');
  });

  it('CUDA_ERROR_UNKNOWN from cuInit (tensorflow#7653\'s title): nvidia_uvm after suspend, /dev/nvidia-uvm', () => {
    const e = explainLog(catalog, 'failed call to cuInit: CUDA_ERROR_UNKNOWN');
    expect(e.findings.map((f) => f.id)).toEqual(['cuda-init-unknown']);
    expect(e.findings[0].fix).toContain('sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm');
  });

  it('NVML\'s "GPU access blocked by the operating system" (microsoft/WSL#9166) is WSL\'s own: WSL\'s nvidia-smi, WDDM not TCC, wsl --update', () => {
    const e = explain('wsl-nvml-gpu-access-blocked.log');
    expect(e.wsl).toBe(true);
    expect(e.findings.map((f) => f.id)).toEqual(['wsl-gpu-blocked']);
    expect(e.findings[0].fix).toContain('/usr/lib/wsl/lib/nvidia-smi');
    expect(e.findings[0].fix).toContain('WDDM mode, not TCC');
  });

  it('inside WSL the same words get the Windows driver, never a Linux one', () => {
    const module = explain('linux-tf-nvidia-smi-no-driver.log', { os: 'linux', wsl: true });
    expect(module.findings[0].fix).toMatch(/on Windows .* never a Linux one inside WSL/);
    const mismatch = explain('linux-nvml-library-version.log', { os: 'linux', wsl: true });
    expect(mismatch.findings[0].meaning).toContain('a Linux NVIDIA driver was installed inside WSL');
    expect(mismatch.findings[0].fix).toContain('keep only the Windows driver');
  });
});

describe('several causes in one log: all of them, driver first', () => {
  it('a missing CUDA runtime and a dead kernel driver (two real logs of one session): both, the driver first', () => {
    // linux-tf213-no-cuda-drivers.log (TF 2.13, no libcudart) followed by the kernel-driver lines of tensorflow#255.
    const e = explainLog(catalog, `${log('linux-tf213-no-cuda-drivers.log')}\n${log('linux-tf210-kernel-driver-not-running.log')}`);
    expect(e.findings.map((f) => f.id)).toEqual(['driver-module-not-loaded', 'missing-cuda-runtime']);
  });

  it('a missing cuDNN, a mismatched driver and a pip error keep the fix order: driver, package, library', () => {
    const text = [log('linux-tf114-dlopen-libcudnn7.log'), log('pip-tensorflow-gpu-none.log'), log('linux-nvml-library-version.log')].join('\n');
    expect(explainLog(catalog, text).findings.map((f) => f.id)).toEqual(['driver-library-mismatch', 'pip-tensorflow-gpu-ended', 'missing-cudnn']);
  });
});

describe("TensorFlow's own build info and its native-Windows warning", () => {
  it('tf.sysconfig.get_build_info() (tensorflow-feedstock#157): the CUDA and cuDNN it was built with, and its architectures', () => {
    const e = explain('linux-tf-build-info-cuda112.log');
    expect(e).toMatchObject({ cuda: '11.2', cudnn: '8' });
    expect(e.findings.map((f) => f.id)).toEqual(['tf-build-info']);
    expect(e.findings[0].meaning).toBe('TensorFlow was built with CUDA 11.2 and cuDNN 8, with machine code for compute capability 3.5, 5.0, 6.0, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, PTX 8.6.');
  });

  it("a CPU-only build ({'is_cuda_build': False, …}, as TF 2.21 reports on native Windows) never looks for a GPU", () => {
    const linux = explainLog(catalog, "TensorFlow version: 2.21.0\nBUILD_INFO={'is_cuda_build': False, 'is_rocm_build': False, 'is_tensorrt_build': False}", { os: 'linux' });
    expect(linux.findings.map((f) => f.id)).toEqual(['tf-built-without-cuda']);
    expect(linux.findings[0].fix).toBe('In its environment, uninstall tensorflow-cpu (or tensorflow-intel) and pip install "tensorflow[and-cuda]==2.21.0".');
    const win = explainLog(catalog, "BUILD_INFO={'is_cuda_build': False, 'is_rocm_build': False}", { os: 'windows' });
    expect(win.findings[0].fix).toMatch(/^Use WSL2/);
  });

  it('Windows builds write "64_112" and "64_8": CUDA 11.2, cuDNN 8', () => {
    const e = explainLog(catalog, "OrderedDict([('cuda_version', '64_112'), ('cudnn_version', '64_8'), ('is_cuda_build', True)])");
    expect(e).toMatchObject({ cuda: '11.2', cudnn: '8' });
  });

  it("TF's own \"GPU support is not available on native Windows\" warning is the platform, from Windows", () => {
    const e = explain('windows-tf-native-gpu-warning.log');
    expect(e.os).toBe('windows');
    expect(e.findings.map((f) => f.id)).toEqual(['windows-no-native-gpu']);
    expect(e.findings[0].meaning).toContain('says so itself: after 2.10 it has no GPU build for native Windows');
  });
});

describe('conda and Poetry when they cannot find or install a TensorFlow', () => {
  it('PackagesNotFoundError for tensorflow-gpu: per platform (win-64 → TF 2.10 or WSL2; osx-64 → no CUDA build)', () => {
    const win = explain('conda-tensorflow-gpu-not-found-win.log');
    expect(win.findings.map((f) => f.id)).toEqual(['conda-package-not-found']);
    expect(win.findings[0].meaning).toContain('no tensorflow-gpu==2.2.0 for win-64');
    expect(win.findings[0].fix).toContain('pip install "tensorflow<2.11"');
    const mac = explain('conda-tensorflow-gpu-not-found-osx.log');
    expect(mac.findings[0].fix).toMatch(/^macOS has no CUDA GPU build of TensorFlow/);
    const linux = explainLog(catalog, log('conda-tensorflow-gpu-not-found-osx.log').replace(/osx-64/g, 'linux-64'));
    expect(linux.findings[0].fix).toContain('pip install "tensorflow[and-cuda]"');
  });

  it('a PackagesNotFoundError about another package is not ours', () => {
    expect(explainLog(catalog, 'PackagesNotFoundError: The following packages are not available from current channels:\n\n  - tenserflow-widgets\n').findings).toEqual([]);
  });

  it('UnsatisfiableError with "Your python: python=3.8" (tensorflow#43531): the Python, and the ranges of the newest TF lines', () => {
    const e = explain('conda-tensorflow-python38-unsatisfiable.log');
    expect(e.findings.map((f) => f.id)).toEqual(['conda-unsatisfiable']);
    expect(e.findings[0].meaning).toBe("conda has no TensorFlow build for this environment's Python 3.8.");
    expect(e.findings[0].fix).toMatch(/TensorFlow 2\.\d+: Python 3\.\d+–3\.\d+/);
  });

  it("Poetry's Python range (poetry#8764): narrow the project's python to its own floor and the package's ceiling", () => {
    const e = explain('poetry-tensorflow-python-range.log');
    expect(e.findings.map((f) => f.id)).toEqual(['poetry-python-range']);
    expect(e.findings[0].fix).toContain('to ">=3.10,<3.12"');
  });

  it("Poetry's SolverProblemError (poetry#174) and \"Unable to find installation candidates\" (poetry#4605)", () => {
    expect(ids('poetry-tensorflow-no-version.log')).toEqual(['poetry-no-version']);
    const c = explain('poetry-tensorflow-no-candidates.log');
    expect(c.findings.map((f) => f.id)).toEqual(['poetry-no-candidates']);
    expect(c.findings[0].meaning).toBe('Poetry locked tensorflow 2.0.2, but PyPI has no file of it for this platform or Python.');
  });

  it('pip asked for a TensorFlow release that pip does not list: the newest it does', () => {
    // pip ≥ 20's wording (as in pip-tensorflow-213-python312.log), asking for a release TensorFlow never published.
    const e = explainLog(catalog, 'ERROR: Could not find a version that satisfies the requirement tensorflow==2.99.0 (from versions: 2.16.1, 2.16.2, 2.17.0, 2.17.1)');
    expect(e.findings.map((f) => f.id)).toEqual(['pip-no-such-version']);
    expect(e.findings[0].fix).toContain('pip install "tensorflow==2.17.1"');
  });
});

describe('the command', () => {
  it('explain --json on the kernel-driver log names the kernel driver and exits 1', async () => {
    const r = await runCli(['explain', path.join(logs, 'linux-tf210-kernel-driver-not-running.log'), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { id: string }) => f.id)).toEqual(['driver-module-not-loaded']);
  });

  it('every fixture log of this issue names its source on its first line', () => {
    const mine = readdirSync(logs).filter((f) => /^(linux-(tf-nvidia|tf210-kernel|nvml|tf1-kernel|cuinit|nvidia-smi|tf-visible|tf-build)|conda-|poetry-|windows-tf-native|wsl-nvml)/.test(f));
    expect(mine.length).toBeGreaterThanOrEqual(16);
    for (const f of mine) expect(log(f).split('\n')[0], f).toMatch(/^# source: https:\/\/github\.com\/|^# source: the warning TensorFlow/);
  });
});

describe('explain has one direction of imports', () => {
  it("the rule modules (explain-driver, -pip, -installers, -build-info, -finding) never import explain.ts", () => {
    const dir = path.join(repoRoot, 'src', 'doctor');
    for (const f of readdirSync(dir).filter((n) => /^explain-.*\.ts$/.test(n))) {
      expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toMatch(/from '\.\/explain\.js'/);
    }
  });
});
