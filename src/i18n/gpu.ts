// What cudawiz says about a GPU and the probes around it: whether a TensorFlow's wheels run on a compute
// capability (natively, through the driver's PTX JIT, or not at all), the verdict lines of
// `cudawiz requirements --gpu`, what nvidia-smi failed to tell, and how a toolkit was found.
// Verdicts and ids stay English (they are the --json interface).
import { localized } from './localized.js';

type Verdict = 'native' | 'ptx-jit' | 'unsupported' | 'unknown';

const VIA_ZH: Record<string, string> = {
  'cuda-root': 'CUDA 安装目录',
  'user toolkits': '用户的工具包目录',
  'nvcc on PATH': 'PATH 上的 nvcc',
  'distro packages': '发行版的软件包（/usr）',
};

export const gpuText = localized({
  en: {
    // ---------------------------------------------------------------- src/catalog/gpu-support.ts
    notACc: (cc: string) => `"${cc}" is not a compute capability (expected e.g. 8.6).`,
    inferredSuffix: ' (its architecture list is inferred)',
    nativeSuggestion: (tf: string, cc: string, inferred: string) => `TensorFlow ${tf} has machine code for compute capability ${cc}${inferred}.`,
    cudaTooNew: (cuda: string, min: string, cc: string) => `CUDA ${cuda} needs compute capability ${min} or newer; this GPU is ${cc}.`,
    noBuildKnown: (tf: string) => `The catalog does not know which GPU architectures TensorFlow ${tf}'s wheels were built for.`,
    cudaPredatesGpu: (cuda: string, max: string) => ` CUDA ${cuda} predates this GPU (it compiles for up to ${max}), so its own libraries also rely on JIT and some operations may fail.`,
    ptxJit: (tf: string, cc: string, ptx: string, inferred: string, older: string) =>
      `TensorFlow ${tf} has no machine code for compute capability ${cc}; the driver compiles its compute ${ptx} PTX at first start, which can take 30 minutes or more ` +
      `(set CUDA_CACHE_MAXSIZE=2147483648 so the driver's cache keeps the result for later starts)${inferred}.${older}`,
    ptxNone: 'none',
    tooOld: (oldest: string, ptx: string) => `its oldest machine code is for ${oldest} and its PTX (${ptx}) is for newer GPUs`,
    noArch: (major: number, cc: string) => `it has no machine code for the ${major}.x architectures and no PTX at or below ${cc}`,
    willNotRun: (tf: string, cc: string, why: string, inferred: string) => `TensorFlow ${tf} will not run on compute capability ${cc}: ${why}${inferred}.`,

    // ---------------------------------------------------------------- src/commands/requirements.ts (--gpu)
    verdict: {
      native: 'runs natively',
      'ptx-jit': 'runs after a slow first-start JIT',
      unsupported: 'will not run',
      unknown: 'unknown',
    } as Record<Verdict, string>,
    verdictLine: (who: string, verdict: string) => `${who}: ${verdict}`,
    namedGpu: (name: string, cc: string) => `${name} (compute capability ${cc})`,
    bareCc: (cc: string) => `compute capability ${cc}`,
    unknownGpu: (value: string) => `Unknown GPU "${value}": the catalog cannot tell its compute capability from that name.`,
    unknownGpuFix:
      'Pass the compute capability instead, e.g. --gpu 8.6: nvidia-smi --query-gpu=name,compute_cap --format=csv prints it (driver R510 or newer), and https://developer.nvidia.com/cuda-gpus lists every GPU\'s.',
    gpuNeedsValue: '--gpu needs a GPU name or a compute capability.',
    gpuNeedsValueFix: 'e.g. --gpu "RTX 4090" or --gpu 8.9',

    // ---------------------------------------------------------------- src/probe/gpu.ts
    smiCouldNotRun: (smi: string, why: string | undefined) => `${smi} could not be run: ${why ?? 'unknown reason'}`,
    smiPrintedNothing: (smi: string, code: number | null) => `${smi} printed nothing (exit ${code})`,

    // ---------------------------------------------------------------- how a toolkit was found (src/probe/toolkits.ts ids)
    toolkitVia: (via: string) => via,
  },
  zh: {
    notACc: (cc) => `“${cc}” 不是计算能力（应当形如 8.6）。`,
    inferredSuffix: '（它的架构列表是推断的）',
    nativeSuggestion: (tf, cc, inferred) => `TensorFlow ${tf} 带有计算能力 ${cc} 的机器码${inferred}。`,
    cudaTooNew: (cuda, min, cc) => `CUDA ${cuda} 要求显卡计算能力至少为 ${min}；这块显卡是 ${cc}。`,
    noBuildKnown: (tf) => `目录数据里没有 TensorFlow ${tf} 的 wheel 编译时支持的 GPU 架构。`,
    cudaPredatesGpu: (cuda, max) => `CUDA ${cuda} 早于这块显卡（它最高只编译到计算能力 ${max}），所以它自己的库也要靠 JIT，有些运算可能失败。`,
    ptxJit: (tf, cc, ptx, inferred, older) =>
      `TensorFlow ${tf} 没有计算能力 ${cc} 的机器码${inferred}；显卡驱动会在第一次启动时 JIT 编译它的 compute ${ptx} PTX，可能要 30 分钟以上` +
      `（设置环境变量 CUDA_CACHE_MAXSIZE=2147483648，让显卡驱动的缓存保留编译结果，之后启动就快了）。${older}`,
    ptxNone: '无',
    tooOld: (oldest, ptx) => `它最旧的机器码是计算能力 ${oldest} 的，而它的 PTX（${ptx}）只适用于更新的显卡`,
    noArch: (major, cc) => `它没有 ${major}.x 架构的机器码，也没有 ${cc} 及以下的 PTX`,
    willNotRun: (tf, cc, why, inferred) => `TensorFlow ${tf} 不能在计算能力 ${cc} 的显卡上运行：${why}${inferred}。`,

    verdict: {
      native: '可以直接运行',
      'ptx-jit': '可以运行，但第一次启动要做很慢的 JIT 编译',
      unsupported: '不能运行',
      unknown: '未知',
    },
    verdictLine: (who, verdict) => `${who}：${verdict}`,
    namedGpu: (name, cc) => `${name}（计算能力 ${cc}）`,
    bareCc: (cc) => `计算能力 ${cc}`,
    unknownGpu: (value) => `未知的显卡 “${value}”：目录数据无法从这个名称判断它的计算能力。`,
    unknownGpuFix:
      '请改为给出计算能力，例如 --gpu 8.6。查看方法：nvidia-smi --query-gpu=name,compute_cap --format=csv（需要 R510 或更新的显卡驱动）；https://developer.nvidia.com/cuda-gpus 列出了所有显卡的计算能力。',
    gpuNeedsValue: '--gpu 需要一个显卡名称或计算能力。',
    gpuNeedsValueFix: '例如 --gpu "RTX 4090" 或 --gpu 8.9',

    smiCouldNotRun: (smi, why) => `${smi} 无法运行：${why ?? '原因不明'}`,
    smiPrintedNothing: (smi, code) => `${smi} 什么也没输出（退出码 ${code}）`,

    toolkitVia: (via) => VIA_ZH[via] ?? via,
  },
});
