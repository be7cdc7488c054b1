// Strings of the catalog's answers (requirements, the plan's cuDNN reason, GPU verdicts), en + zh.
import { localized } from './localized.js';

export const catalogText = localized({
  en: {
    cudnnPublic: (version: string, cuda: string) => `cuDNN ${version} for CUDA ${cuda}: a public copy, no login needed`,
    cudnnVerified: 'checked against its sha256 as it downloads',
    cudnnUnverified: 'no source gives its sha256: downloaded only with --allow-unverified',
    cudnnCompatible: (tf: string, tested: string, picked: string) =>
      `TF ${tf} was tested with cuDNN ${tested}; ${picked} is compatible: same major, newer minor; no login needed`,
    cudnnAlternative: (version: string, file: string, page: string) => `the tested build, cuDNN ${version} (${file}), needs a free NVIDIA login at ${page}`,
    cudnnNoTestedBuild: (tested: string) => `the catalog has no cuDNN ${tested} build for this CUDA`,
    cudnnLogin: (version: string, cuda: string) => `cuDNN ${version} for CUDA ${cuda}: NVIDIA has no public copy of it; it needs a free NVIDIA login`,
    cudnnLoginWhere: (page: string, file: string) => `log in at ${page} and download ${file}`,
    cudnnFallback: (file: string, why: string) => `the public copy of ${file} could not be downloaded (${why}), so it comes through the login instead`,
    planCudnnPublic: (file: string) => `${file} (public copy, no login)`,
    planCudnnCompatible: (file: string, tested: string) => `${file} (public copy, no login; compatible with the tested cuDNN ${tested})`,
    planCudnnLogin: (file: string) => `${file} (behind a free NVIDIA login)`,
    andCudaWrongPython: (requirement: string, python: string, pythons: string) => `pip cannot install ${requirement} on Python ${python}: it resolves on Python ${pythons} only.`,
    andCudaWrongPythonFix: (pythons: string) => `Make the virtual environment with a Python in ${pythons} (e.g. python3.10 -m venv .venv) and pass it with --venv, or pick a TensorFlow this Python can take.`,
    ccMinTensorflow: (tf: string, tfLine: string, cuda: string, cudaMin: string) => `${tf} or newer (TensorFlow ${tfLine}'s wheels; CUDA ${cuda} itself goes down to ${cudaMin})`,
    gpuKnownFailure: (tf: string, cc: string, symptom: string) =>
      `TensorFlow ${tf}'s official wheels fail on compute capability ${cc}: the driver cannot JIT-compile their kernels (${symptom}, reported in TensorFlow's issues)`,
    gpuWorks: {
      'nvidia-ngc': "what works: NVIDIA's NGC TensorFlow container (nvcr.io/nvidia/tensorflow), built for this GPU",
      'source-build-cuda-12.8': 'or TensorFlow built from source with CUDA 12.8 or newer, which knows this architecture',
    } as Record<'nvidia-ngc' | 'source-build-cuda-12.8', string>,
    unknownTf: (asked: string, near: string) => `Unknown TensorFlow version "${asked}". Nearest known: ${near}.`,
    unknownTfFix: (example: string) => `Pass one of the known versions, e.g. --tf ${example}`,
  },
  zh: {
    cudnnPublic: (version, cuda) => `cuDNN ${version}（对应 CUDA ${cuda}）：有公开下载，无需登录`,
    cudnnVerified: '下载时按其 sha256 校验',
    cudnnUnverified: '没有来源给出它的 sha256：只有加 --allow-unverified 才会下载',
    cudnnCompatible: (tf, tested, picked) => `TF ${tf} 测试用的是 cuDNN ${tested}；${picked} 与之兼容：主版本相同、次版本更新；无需登录`,
    cudnnAlternative: (version, file, page) => `经过测试的版本 cuDNN ${version}（${file}）需要在 ${page} 登录 NVIDIA 开发者账号（免费）`,
    cudnnNoTestedBuild: (tested) => `目录中没有这个 CUDA 对应的 cuDNN ${tested}`,
    cudnnLogin: (version, cuda) => `cuDNN ${version}（对应 CUDA ${cuda}）：NVIDIA 没有公开下载，需要登录 NVIDIA 开发者账号（免费）`,
    cudnnLoginWhere: (page, file) => `在 ${page} 登录后下载 ${file}`,
    cudnnFallback: (file, why) => `${file} 的公开下载失败（${why}），改为登录后下载`,
    planCudnnPublic: (file) => `${file}（公开下载，无需登录）`,
    planCudnnCompatible: (file, tested) => `${file}（公开下载，无需登录；与测试用的 cuDNN ${tested} 兼容）`,
    planCudnnLogin: (file) => `${file}（需要登录 NVIDIA 开发者账号，免费）`,
    andCudaWrongPython: (requirement, python, pythons) => `pip 无法在 Python ${python} 上安装 ${requirement}：它只能在 Python ${pythons} 上解析依赖。`,
    andCudaWrongPythonFix: (pythons) => `请用 ${pythons} 范围内的 Python 创建虚拟环境（例如 python3.10 -m venv .venv），再用 --venv 指定它；或换一个这个 Python 能装的 TensorFlow 版本。`,
    ccMinTensorflow: (tf, tfLine, cuda, cudaMin) => `${tf} 或更高（TensorFlow ${tfLine} 的 wheel；CUDA ${cuda} 本身最低支持 ${cudaMin}）`,
    gpuKnownFailure: (tf, cc, symptom) => `TensorFlow ${tf} 的官方 wheel 在计算能力 ${cc} 的显卡上无法运行：显卡驱动无法 JIT 编译其内核（${symptom}，见 TensorFlow 的 issue）`,
    gpuWorks: {
      'nvidia-ngc': '可行的办法：NVIDIA NGC 的 TensorFlow 容器（nvcr.io/nvidia/tensorflow），已为这款显卡编译',
      'source-build-cuda-12.8': '或用 CUDA 12.8 及以上版本从源码编译 TensorFlow，它认识这个架构',
    },
    unknownTf: (asked, near) => `未知的 TensorFlow 版本 "${asked}"。最接近的已知版本：${near}。`,
    unknownTfFix: (example) => `请给出一个已知版本，例如 --tf ${example}`,
  },
});
