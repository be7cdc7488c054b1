// The driver's and the loader's own words: nvidia-smi's failures, cuInit's errors, TensorFlow's
// cuda_diagnostics lines and NVML's version mismatch. Each pattern names where its text comes from;
// the fixture logs in test/fixtures/logs quote real ones with their sources.
import { explainText as T } from '../i18n/doctor.js';
import { WSL_LIBRARY_DIR } from '../platform.js';
import { logLines, type ExplainFinding, type FixContext } from './explain-finding.js';
import { loggedDriverVersions, logHidesGpus, WSL_GPU_BLOCKED } from './log-signals.js';

/** The driver fix for this log: Windows', Linux', or — inside WSL — always the Windows driver, never a Linux one. */
export function driverFix(ctx: Pick<FixContext, 'os' | 'wsl' | 'wsl1'>): string {
  if (ctx.wsl1) return T.driverFixWsl1;
  if (ctx.wsl) return T.driverFixWsl(WSL_LIBRARY_DIR);
  return ctx.os === 'windows' ? T.driverFixWindows : T.driverFixLinux;
}

// nvidia-smi, when the kernel module is not loaded (its user-space part is there: nvidia-smi itself ran).
const SMI_NO_DRIVER = /NVIDIA-SMI has failed because it couldn.t communicate with the NVIDIA driver/;
// TF's cuda_diagnostics.cc when /proc/driver/nvidia/version is absent (no kernel module), TF 1.x to 2.18+.
// TF 1.x's older wording (deepmedic/deepmedic#128, TF 1.9): "no NVIDIA GPU device is present: /dev/nvidia0 does not exist".
const KERNEL_NOT_RUNNING =
  /kernel driver does not appear to be running on this host|\/proc\/driver\/nvidia\/version does not exist|no NVIDIA GPU device is present: \/dev\/nvidia0 does not exist/;
// nvidia-smi after the user-space driver was upgraded and the old module is still loaded; TF's own
// cuda_diagnostics check of the same; cuInit's CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803).
const MISMATCH =
  /Failed to initialize NVML: Driver\/library version mismatch|kernel version \S+ does not match DSO version|CUDA_ERROR_SYSTEM_DRIVER_MISMATCH|system has unsupported display driver \/ cuda driver combination/;
// CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804): a cuda-compat libcuda on a GPU without forward compatibility.
const COMPAT = /CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE|forward compatibility was attempted on non supported HW/;
// cuInit's CUDA_ERROR_NO_DEVICE (100) and the runtime's cudaErrorNoDevice: the driver offers this process no GPU.
const NO_DEVICE = /CUDA_ERROR_NO_DEVICE|no CUDA-capable device is detected/;
// nvidia-smi when the module is loaded but holds no GPU.
const SMI_NO_DEVICES = /^No devices were found$/;
// cuInit's CUDA_ERROR_UNKNOWN (999).
const INIT_UNKNOWN = /failed call to cuInit: CUDA_ERROR_UNKNOWN|cuInit[^\n]*CUDA_ERROR_UNKNOWN/;
/** libcuda itself did not load: then "kernel driver does not appear to be running" only repeats that there is no driver. */
const LIBCUDA_MISSING = /libcuda\.so(?:\.\d+)*'?;?\s*dlerror: libcuda|libcuda\.so(?:\.\d+)*: cannot open shared object file|Couldn.t open CUDA library libcuda|UNKNOWN ERROR \(303\)/;

function firstLine(lines: string[], re: RegExp): string | undefined {
  return lines.find((l) => re.test(l));
}

function moduleFix(ctx: FixContext): string {
  if (ctx.wsl || ctx.wsl1) return driverFix(ctx);
  return ctx.os === 'windows' ? T.moduleFixWindows : T.moduleFixLinux;
}

/** The driver findings of a log, driver first: each cause once, with the line that shows it. */
export function driverFindings(ctx: FixContext, text: string): ExplainFinding[] {
  const lines = logLines(text);
  const out: ExplainFinding[] = [];
  const versions = loggedDriverVersions(text);
  const libcudaMissing = LIBCUDA_MISSING.test(text);

  const blocked = firstLine(lines, WSL_GPU_BLOCKED);
  if (blocked) out.push({ id: 'wsl-gpu-blocked', severity: 'error', line: blocked, meaning: T.wslBlockedMeaning, fix: T.wslBlockedFix });

  const mismatch = firstLine(lines, MISMATCH);
  if (mismatch) {
    out.push({
      id: 'driver-library-mismatch',
      severity: 'error',
      line: mismatch,
      meaning: ctx.wsl ? T.mismatchDriverMeaningWsl : T.mismatchDriverMeaning(versions.library, versions.kernel),
      fix: ctx.wsl ? T.mismatchDriverFixWsl : ctx.os === 'windows' ? T.mismatchDriverFixWindows : T.mismatchDriverFixLinux,
    });
  }

  // nvidia-smi's own words say the module is not loaded; TF's say so only when libcuda itself loaded.
  const notLoaded = firstLine(lines, SMI_NO_DRIVER) ?? (libcudaMissing || mismatch ? undefined : firstLine(lines, KERNEL_NOT_RUNNING));
  if (notLoaded) {
    out.push({
      id: 'driver-module-not-loaded',
      severity: 'error',
      line: notLoaded,
      meaning: ctx.wsl ? T.moduleMeaningWsl : T.moduleMeaning(versions.library, KERNEL_NOT_RUNNING.test(text)),
      fix: moduleFix(ctx),
    });
  }

  // A stale module gives the same COMPAT error: the mismatch already says what to do.
  const compat = mismatch ? undefined : firstLine(lines, COMPAT);
  if (compat) out.push({ id: 'driver-compat-unsupported', severity: 'error', line: compat, meaning: T.compatMeaning, fix: ctx.wsl ? T.compatFixWsl : T.compatFix });

  const smiEmpty = firstLine(lines, SMI_NO_DEVICES);
  if (smiEmpty && !notLoaded) {
    out.push({ id: 'driver-sees-no-gpu', severity: 'error', line: smiEmpty, meaning: T.noGpuByDriverMeaning, fix: ctx.wsl ? T.noGpuByDriverFixWsl : T.noGpuByDriverFix });
  }

  const unknown = firstLine(lines, INIT_UNKNOWN);
  if (unknown && !notLoaded && !mismatch) {
    out.push({ id: 'cuda-init-unknown', severity: 'error', line: unknown, meaning: T.initUnknownMeaning, fix: ctx.wsl ? T.initUnknownFixWsl : T.initUnknownFix });
  }

  // No device: the module or the GPU itself explains it when either is already named.
  const noDevice = firstLine(lines, NO_DEVICE);
  if (noDevice && !notLoaded && !mismatch && !smiEmpty && !compat) {
    const hidden = logHidesGpus(text);
    out.push({
      id: 'no-cuda-device',
      severity: 'error',
      line: noDevice,
      meaning: hidden ? T.noDeviceHiddenMeaning(hidden) : T.noDeviceMeaning,
      fix: hidden ? T.noDeviceHiddenFix : ctx.wsl ? T.noDeviceFixWsl : T.noDeviceFix,
    });
  }
  return out;
}
