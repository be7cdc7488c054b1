// What a pasted log says about where it came from, beside its errors: WSL, Windows, the TensorFlow
// version, the Python that ran pip (version, 32-bit). Pure text matching; each pattern names its source.
import { WSL_LIBRARY_DIR } from '../platform.js';

/** WSL's driver folder (/usr/lib/wsl/lib) or a WSL kernel ("5.15.90.1-microsoft-standard-WSL2", WSL1's "4.4.0-19041-Microsoft"). */
const WSL_PATH = new RegExp(`${WSL_LIBRARY_DIR.replace(/\//g, '\\/')}\\b|/usr/lib/wsl/`);
// Each version starts where a run of name characters starts: a long run of digits is one pass, not n².
const WSL_KERNEL = /(?<![\w.+-])\d+\.\d+\.\d+[\w.+]*-microsoft(?:-standard)?(?:-WSL2)?\b|(?<![\w.+-])\d+\.\d+\.\d+-\d+-Microsoft\b/i;

/** WSL 1's kernel release: "4.4.0-<Windows build>-Microsoft" (WSL 1 has no GPU at all). */
export function logSaysWsl1(text: string): boolean {
  return /(?<![\w.+-])\d+\.\d+\.\d+-\d+-Microsoft\b/.test(text);
}

/** NVML's words inside WSL when the Windows side keeps the GPU from it (microsoft/WSL#9166, #11865). */
export const WSL_GPU_BLOCKED = /Failed to initialize NVML: GPU access blocked by the operating system/;

export function logSaysWsl(text: string): boolean {
  return WSL_PATH.test(text) || WSL_KERNEL.test(text) || WSL_GPU_BLOCKED.test(text);
}

/** A Windows path (C:\Users\…), a win_amd64 wheel, or Python's "on win32" banner. */
export function logSaysWindows(text: string): boolean {
  return /\b[A-Z]:\\(?:Users|Program Files|Python|ProgramData|Windows|tools|Anaconda|Miniconda)/i.test(text) || /win_amd64|\bon win32\b/.test(text);
}

/** The TensorFlow version the log names: printed (tf.__version__ with a label), pip's lines, a wheel's name. */
export function loggedTfVersion(text: string): string | undefined {
  const patterns = [
    /TensorFlow(?: version| Version|\.__version__)?:?\s+v?(\d+\.\d+\.\d+)\b/,
    /\btf\.__version__\)?\s*[:=]?\s*['"]?(\d+\.\d+\.\d+)/,
    /\btensorflow(?:-intel|-cpu|-gpu)?(?:\[and-cuda\])?==(\d+\.\d+(?:\.\d+)?)\b/,
    /Successfully installed .*?\btensorflow(?:-intel)?-(\d+\.\d+\.\d+)\b/,
    /\btensorflow(?:_intel|_gpu|_cpu)?-(\d+\.\d+\.\d+)-cp\d+/,
    /Name: tensorflow(?:-intel|-cpu|-gpu)?\s*\r?\nVersion: (\d+\.\d+\.\d+)/,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return m[1];
  }
  return undefined;
}

/** "pip 24.2 from … (python 3.13)", a "Python 3.13.0" banner, site-packages of python3.12, Python312\, a cp311 wheel tag. */
export function loggedPythonVersion(text: string): string | undefined {
  const patterns = [
    /\(python (\d\.\d+)\)/i,
    /^Python (\d\.\d+)(?:\.\d+)?\b/m,
    /Python version:?\s+(\d\.\d+)/i,
    /python(\d\.\d+)[\\/](?:site|dist)-packages/i,
    /\\Python(\d)(\d{1,2})(?:-32)?\\/i,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return m[2] ? `${m[1]}.${m[2]}` : m[1];
  }
  return undefined;
}

/** Python's banner "[MSC v.1916 32 bit (Intel)]", "Python 3.8.10 (32-bit)", or a "Python39-32" folder. */
export function logSays32BitPython(text: string): boolean {
  return /\[MSC v\.\d+ 32 bit \((?:Intel|ARM)\)\]|Python \d\.\d+(?:\.\d+)? \(32-bit\)|\\Python\d+-32\\/.test(text);
}

/**
 * TensorFlow listed no GPU: `print(tf.config.list_physical_devices('GPU'))` → `[]`, "Num GPUs Available:  0"
 * (TF's install-guide check), or only the CPU device listed.
 */
export function logListsNoGpu(text: string): boolean {
  return (
    /Num GPUs Available:?\s+0\b/.test(text) ||
    /^\s*(?:>>>\s*)?\[\]\s*$/m.test(text) ||
    /\bGPUs?(?: Available)?:?\s+\[\]/i.test(text) ||
    /^\s*\[PhysicalDevice\(name='\/physical_device:CPU:0', device_type='CPU'\)\]\s*$/m.test(text)
  );
}

/** TF prints driver versions without leading zeros ("535.261.3" for 535.261.03): give them back as NVIDIA writes them. */
function driverVersionText(v: string): string {
  const [maj, min, patch] = v.split('.');
  if (patch === undefined) return v;
  // "375.66.0" is driver 375.66 (two parts); "470.57.2" is 470.57.02.
  return patch === '0' ? `${maj}.${min}` : `${maj}.${min}.${patch.padStart(2, '0')}`;
}

/**
 * The driver versions a log names: its user-space library (TF's cuda_diagnostics "libcuda reported version is:",
 * nvidia-smi's "NVML library version:", nvidia-smi's table "Driver Version:") and its kernel module
 * ("kernel reported version is:", "kernel version X does not match DSO version Y").
 */
export function loggedDriverVersions(text: string): { library?: string; kernel?: string } {
  const mismatch = /kernel version (\d+\.\d+(?:\.\d+)?) does not match DSO version (\d+\.\d+(?:\.\d+)?)/.exec(text);
  const library =
    mismatch?.[2] ??
    /libcuda reported version is:?\s*(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ??
    /NVML library version:?\s*(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ??
    /Driver Version:?\s*(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ??
    // The user-space library's own file name, as `ls` or ldconfig -p prints it: libcuda.so.535.261.03.
    /libcuda\.so\.(\d{3}\.\d+(?:\.\d+)?)\b/.exec(text)?.[1];
  const kernel = mismatch?.[1] ?? /kernel reported version is:?\s*(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
  return { library: library ? driverVersionText(library) : undefined, kernel: kernel ? driverVersionText(kernel) : undefined };
}

/** The script hides every GPU: CUDA_VISIBLE_DEVICES set to -1 or "" (os.environ[...] = "-1", export CUDA_VISIBLE_DEVICES=-1). */
export function logHidesGpus(text: string): string | undefined {
  const m = /CUDA_VISIBLE_DEVICES['"]?\]?\s*=\s*(['"]?)(-1|)\1(?=\s|$|[;,)])/m.exec(text);
  return m ? `CUDA_VISIBLE_DEVICES=${m[2] === '' ? '""' : m[2]}` : undefined;
}
