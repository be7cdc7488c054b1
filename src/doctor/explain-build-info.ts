// TensorFlow's own account of its build: tf.sysconfig.get_build_info() (an OrderedDict before TF 2.?,
// a dict since; Windows builds write versions as "64_112"), and the warning TF ≥ 2.11 prints on native
// Windows. Sources: conda-forge/tensorflow-feedstock#157 (a Linux CUDA 11.2 build's OrderedDict), a TF 2.21
// native-Windows report ({'is_cuda_build': False, …}), and TF's native-Windows warning as users paste it.
import { explainText as T } from '../i18n/doctor.js';
import { compareDotted, majorMinor } from '../version.js';
import { logLines, type ExplainFinding, type FixContext } from './explain-finding.js';

export interface BuildInfo {
  line: string;
  /** "11.2"; from Windows' "64_112" too. */
  cuda?: string;
  /** "8"; from Windows' "64_8" too. */
  cudnn?: string;
  cudaBuild?: boolean;
  /** ["sm_35", …, "compute_80"] */
  capabilities: string[];
}

/** "11.2" → "11.2"; Windows' "64_112" → "11.2", "64_101" → "10.1"; "64_8" → "8". */
function buildVersion(v: string): string {
  const win = /^64_(\d+)$/.exec(v);
  if (!win) return v;
  const digits = win[1];
  return digits.length >= 3 ? `${digits.slice(0, -1)}.${digits.slice(-1)}` : digits;
}

const field = (text: string, key: string) => new RegExp(`['"]${key}['"]\\s*[:,]\\s*(?:'([^']*)'|"([^"]*)"|(True|False))`).exec(text);

/** The build info a log prints (its dict or OrderedDict), or undefined. */
export function loggedBuildInfo(text: string): BuildInfo | undefined {
  const line = logLines(text).find((l) => /['"](?:is_cuda_build|cuda_version|cpu_compiler)['"]\s*[:,]/.test(l));
  if (!line) return undefined;
  const value = (key: string) => {
    const m = field(text, key);
    return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
  };
  const cuda = value('cuda_version');
  const cudnn = value('cudnn_version');
  const isCuda = value('is_cuda_build');
  const caps = /['"]cuda_compute_capabilities['"]\s*[:,]\s*\[([^\]]*)\]/.exec(text)?.[1] ?? '';
  return {
    line,
    cuda: cuda ? buildVersion(cuda) : undefined,
    cudnn: cudnn ? buildVersion(cudnn) : undefined,
    cudaBuild: isCuda === undefined ? undefined : isCuda === 'True',
    capabilities: [...caps.matchAll(/['"]((?:sm|compute)_\d+)['"]/g)].map((m) => m[1]),
  };
}

// TF ≥ 2.11 on native Windows (tensorflow/python/…): "TensorFlow GPU support is not available on native Windows for TensorFlow >= 2.11".
const NATIVE_WINDOWS = /GPU support is not available on native Windows for (?:TensorFlow|TF) >= 2\.11/;

export function logSaysNativeWindowsCpu(text: string): boolean {
  return NATIVE_WINDOWS.test(text);
}

// tf.test.is_built_with_cuda() answered False: on its line ("Is TensorFlow built with CUDA?: False", "…()) # false")
// or on the line after the call (the interactive prompt). Sources: tensorflow/tensorflow#62080, #68236, #60156.
const BUILT_WITH_CUDA_CALL = /is_buil[dt]_with_cuda\(\)/;
const BUILT_WITH_CUDA_FALSE = /is_buil[dt]_with_cuda\(\)\)?\s*(?:#\s*)?[:=]?\s*False\b|built with CUDA\??:?\s*False\b/i;

/** The line where TensorFlow says it has no CUDA build, or undefined. */
function cpuBuildAnswer(lines: string[]): string | undefined {
  for (let i = 0; i < lines.length; i++) {
    if (BUILT_WITH_CUDA_FALSE.test(lines[i])) return lines[i];
    if (BUILT_WITH_CUDA_CALL.test(lines[i]) && /^False$/.test(lines[i + 1] ?? '')) return lines[i];
  }
  return undefined;
}

/** What to do about a CPU-only TensorFlow: by the log's OS, or both ways when nothing says it. */
function cpuBuildFix(ctx: FixContext, last: string): string {
  const andCuda = ctx.tf ? `tensorflow[and-cuda]==${ctx.tf}` : 'tensorflow[and-cuda]';
  if (ctx.os === 'windows' && !ctx.wsl) return T.windowsNoGpuFix(ctx.tf, last);
  if (ctx.osKnown || ctx.wsl) return T.cpuBuildFixLinux(andCuda);
  return T.gpuFixEither(T.pipInstall(andCuda), T.pipInstall('tensorflow<2.11'), last);
}

export function buildInfoFindings(ctx: FixContext, text: string): ExplainFinding[] {
  const out: ExplainFinding[] = [];
  const last = ctx.catalog.tensorflow.windowsNativeGpuLast;
  const lines = logLines(text);
  const warning = lines.find((l) => NATIVE_WINDOWS.test(l));
  if (warning) out.push({ id: 'windows-no-native-gpu', severity: 'error', line: warning, meaning: T.windowsWarningMeaning(ctx.tf, last), fix: T.windowsNoGpuFix(ctx.tf, last) });
  const info = loggedBuildInfo(text);
  const answer = warning || info?.cudaBuild === false ? undefined : cpuBuildAnswer(lines);
  if (answer) {
    // Native Windows, TF past its last GPU release (or unsaid): the platform, as the empty GPU list says too.
    const nativeWindows = ctx.os === 'windows' && !ctx.wsl;
    const pastLast = !ctx.tf || compareDotted(majorMinor(ctx.tf), last) > 0;
    if (nativeWindows && pastLast) out.push({ id: 'windows-no-native-gpu', severity: 'error', line: answer, meaning: T.windowsNoGpuMeaning(ctx.tf, last), fix: T.windowsNoGpuFix(ctx.tf, last) });
    else out.push({ id: 'tf-built-without-cuda', severity: 'error', line: answer, meaning: T.cpuBuildAnswerMeaning(ctx.tf), fix: cpuBuildFix(ctx, last) });
  }
  if (!info) return out;
  if (info.cudaBuild === false) {
    if (!warning) {
      const fix = ctx.os === 'windows' && !ctx.wsl ? T.windowsNoGpuFix(ctx.tf, last) : T.cpuBuildFixLinux(ctx.tf ? `tensorflow[and-cuda]==${ctx.tf}` : 'tensorflow[and-cuda]');
      out.push({ id: 'tf-built-without-cuda', severity: 'error', line: info.line, meaning: T.cpuBuildMeaning(ctx.tf), fix });
    }
    return out;
  }
  if (info.cuda || info.cudnn) {
    const caps = info.capabilities.map((c) => `${c.startsWith('compute') ? 'PTX ' : ''}${c.replace(/^(?:sm|compute)_(\d+)(\d)$/, '$1.$2')}`);
    out.push({ id: 'tf-build-info', severity: 'info', line: info.line, meaning: T.buildInfoMeaning(ctx.tf, info.cuda, info.cudnn, caps), fix: T.buildInfoFix });
  }
  return out;
}
