// explain's words: what each line of a TensorFlow (or pip) log means, and its fix. English and Chinese;
// TF's and pip's own log lines stay as they print them, file names, commands and versions untouched.
import { localized } from './localized.js';

const en = {
  libraryName: {
    cudart: 'CUDA runtime',
    cublas: 'cuBLAS',
    cublaslt: 'cuBLASLt',
    cufft: 'cuFFT',
    curand: 'cuRAND',
    cusolver: 'cuSOLVER',
    cusparse: 'cuSPARSE',
    nvrtc: 'NVRTC runtime compiler',
    nvjitlink: 'nvJitLink',
  } as Record<string, string>,
  installCudaUnknown: 'Install the CUDA toolkit your TensorFlow was built for (cudawiz requirements --tf YOUR_TF)',
  installCuda: (cuda: string, tf: string | undefined) => `Install CUDA ${cuda}${tf ? ` (cudawiz install --tf ${tf})` : ''}`,
  putDirOn: (dir: string, where: string) => `put ${dir} on ${where}`,
  putFolderOn: (where: string) => `put its library folder on ${where}`,
  installCudnn: (cudnnMajor: string, cuda: string | undefined, archive: string | undefined, tf: string | undefined) =>
    `Install cuDNN ${cudnnMajor}${cuda ? ` for CUDA ${cuda}` : ''}${archive ? ` (${archive})` : ''}` +
    `${cuda ? ` into the CUDA ${cuda} folder` : ''}${tf ? ` (cudawiz install --tf ${tf} --cudnn-archive FILE)` : ''}`,
  sideBySide: 'other CUDA versions beside it are fine, nothing to uninstall',
  driverFixWindows: 'Install or update the NVIDIA display driver (https://www.nvidia.com/Download/index.aspx); nvcuda.dll comes with it, never with the CUDA toolkit.',
  driverFixLinux:
    'Install or update the NVIDIA driver (your distribution’s nvidia-driver package or https://www.nvidia.com/Download/index.aspx); libcuda.so.1 comes with it. In a container, start it with --gpus all; under WSL2, install the Windows driver, not a Linux one.',
  driverFixWsl: (libDir: string) =>
    `Install or update the NVIDIA driver on Windows (https://www.nvidia.com/Download/index.aspx) and never a Linux one inside WSL: WSL lends the Windows driver's libcuda.so.1 to Linux through ${libDir}. If that folder is empty, run \`wsl --update\` and \`wsl --shutdown\` in PowerShell.`,
  driverFixWsl1:
    'This log is from WSL 1, which has no GPU access: convert the distribution to WSL 2 (in PowerShell: wsl --set-version DISTRO 2) and keep the NVIDIA driver on Windows, never a Linux one inside WSL.',
  depIsDriver: (file: string, dep: string) => `${file} was found, but the NVIDIA driver's ${dep} it needs could not be loaded.`,
  depComesWith: (cuda: string) => ` (it comes with ${cuda})`,
  depMeaning: (file: string, dep: string, from: string) => `${file} was found, but a library it needs, ${dep}, could not be loaded${from}.`,
  depFix: (dep: string, where: string, orInstall: string | undefined, sideBySide: string) =>
    `Make ${dep} findable: put the folder that holds it on ${where}${orInstall ? `, or install ${orInstall}` : ''} — ${sideBySide}.`,
  toolkitMeaning: (file: string, what: string, cuda: string, only: boolean) =>
    `TensorFlow could not load ${file}, the ${what} library of ${cuda}${only ? ' (no other CUDA version ships this file name)' : ''}.`,
  toolkitMeaningUnmapped: (file: string, what: string) => `TensorFlow could not load ${file}, a ${what} library the catalog does not map to a CUDA version.`,
  toolkitFix: (install: string, folder: string, sideBySide: string) => `${install}; if it is installed, ${folder} — ${sideBySide}.`,
  cuptiMeaning: (file: string, cuda: string) => `${file} is CUDA ${cuda}'s CUPTI profiler library; TensorFlow needs it only for profiling.`,
  cuptiFix: (cuda: string, where: string) => `Nothing to do unless you profile; then put CUDA ${cuda}'s extras/CUPTI/lib64 folder on ${where}.`,
  cudnnMeaning: (file: string, which: string) => `TensorFlow could not load ${file}, a ${which} library (cuDNN is a separate download from the CUDA toolkit).`,
  cudnnFixMajor: (install: string, cudnnMajor: string) => `${install} — it must be cuDNN ${cudnnMajor}.x; a different major does not satisfy this file name.`,
  cudnnFixUnknown: (where: string) => `Install the cuDNN your TensorFlow was built with (cudawiz requirements --tf YOUR_TF) and put its library folder on ${where}.`,
  driverLibraryMeaning: (file: string) => `${file} belongs to the NVIDIA display driver, which TensorFlow could not load.`,
  tensorrtMeaning: (file: string, m: string) => `${file} is TensorRT ${m}, used only by TF-TRT model optimisation; TensorFlow runs on the GPU without it.`,
  tensorrtFix: (m: string) => 'Nothing to do unless you use TF-TRT; then install TensorRT ' + m + '.',
  otherMeaning: (file: string) => `TensorFlow could not load ${file}.`,
  otherFix: (file: string, where: string) => `Find which package provides ${file} and put its folder on ${where}.`,
  zlib32Meaning: 'A zlibwapi.dll was found but it is the 32-bit one; cuDNN 8.3 and later on Windows need the 64-bit zlibwapi.dll.',
  zlibMeaning: 'cuDNN 8.3 and later on Windows need zlibwapi.dll (zlib) and could not find it on PATH.',
  zlibFix: 'Put the 64-bit zlibwapi.dll (zlib123dllx64.zip from http://www.winimage.com/zLibDll/) in the CUDA bin folder, or use the cuDNN 8.1 that TF 2.5–2.10 were tested with.',
  cudnnPartZlibMeaning: (file: string, code: string) =>
    `${file} is there, but Windows could not load it (error ${code}: a DLL it depends on is missing). With cuDNN 8.3 to 8.x on Windows that DLL is zlibwapi.dll (zlib), which the cuDNN zip does not include.`,
  cudnnPart32Meaning: (file: string) => `${file} found a zlibwapi.dll, but a 32-bit one (error 193); cuDNN needs the 64-bit zlibwapi.dll.`,
  cudnnPartMixedMeaning: (file: string) =>
    `${file} loaded but a function it needs is missing (error 127): parts of two different cuDNN versions are mixed, usually an older cudnn64_8.dll earlier on PATH.`,
  cudnnPartMixedFix: 'Keep one cuDNN 8: remove the other copy’s folder from PATH (or copy every DLL of one cuDNN zip into the CUDA bin folder), then open a new terminal.',
  zlibOrTestedFix: (tested: string | undefined, range: string | undefined, tf: string | undefined) =>
    `Put the 64-bit zlibwapi.dll (zlib123dllx64.zip from http://www.winimage.com/zLibDll/) in the CUDA bin folder${
      tested ? `, or use cuDNN ${tested}, the one TensorFlow ${range} were tested with on Windows, which needs no zlib${tf ? ` (cudawiz install --tf ${tf})` : ''}` : ''
    }.`,
  msvcMeaning: (file: string) => `${file} is part of the Microsoft Visual C++ runtime; TensorFlow 2.1 and later will not import without msvcp140_1.dll.`,
  msvcFix: 'Install the Microsoft Visual C++ Redistributable for Visual Studio 2015–2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe',
  mismatchMeaning: (compiled: string, loaded: string, older: boolean) =>
    `TensorFlow was built with cuDNN ${compiled} but loaded cuDNN ${loaded}; it needs the same major and an equal or newer minor${older ? ' (this one is older)' : ''}.`,
  mismatchFix: (want: string, m: string, where: string) =>
    `Install cuDNN ${want} or a newer ${m}.x, and make sure no older copy (conda env, another toolkit's folder) comes first on ${where}.`,
  driverOldTarget: (min: string, cuda: string, osName: string) => ` to ${min} or newer (CUDA ${cuda}'s minimum on ${osName})`,
  driverOldSupports: (cuda: string) => ` to one that supports CUDA ${cuda}`,
  driverOldMeaning: (cuda: string | undefined) =>
    `The NVIDIA driver is older than the CUDA${cuda ? ` ${cuda}` : ''} runtime TensorFlow loaded (nvidia-smi's "CUDA Version" is the newest it supports).`,
  driverOldFix: (target: string, showMin: boolean) => `Update the NVIDIA driver${target}${showMin ? ' (cudawiz requirements --tf YOUR_TF shows the minimum)' : ''}; the toolkit can stay.`,
  driverOldFixWsl: (target: string, showMin: boolean) =>
    `Update the NVIDIA driver on Windows${target}${showMin ? ' (cudawiz requirements --tf YOUR_TF shows the minimum)' : ''}, never a Linux one inside WSL; the toolkit can stay.`,
  runtimeMeaning: (file: string) =>
    `TensorFlow could not load the CUDA runtime (${file}), so it runs on the CPU. Despite its words, this line is printed when the runtime library is missing, not the driver.`,
  runtimeMeaningWsl: (file: string) =>
    `TensorFlow could not load the CUDA runtime (${file}), so it runs on the CPU. Inside WSL the driver is Windows' and is not what is missing: this line means the runtime library is not installed or not on the loader path.`,
  runtimeFixLinux: (andCuda: string) =>
    `Install the CUDA runtime TensorFlow needs. TensorFlow 2.14 and later: pip install "${andCuda}" in its virtual environment (CUDA and cuDNN come as pip wheels). Older: install the toolkit it was built for (cudawiz install --tf YOUR_TF).`,
  runtimeFixWsl: (andCuda: string) =>
    `Do not install a Linux NVIDIA driver in WSL. Install the CUDA runtime: TensorFlow 2.14 and later, pip install "${andCuda}" in its virtual environment (CUDA and cuDNN come as pip wheels); older TensorFlow, the CUDA toolkit without its driver (cudawiz install --tf YOUR_TF inside WSL).`,
  runtimeFixWindows: (last: string) =>
    `TensorFlow ${last} and older: install the CUDA toolkit it was built for (cudawiz install --tf YOUR_TF). Newer TensorFlow has no GPU build for native Windows: use WSL2, or pip install "tensorflow<2.11".`,
  someMissingMeaning: 'TensorFlow skipped the GPU because some CUDA/cuDNN libraries did not load; the log does not name them here.',
  someMissingFix: 'Run cudawiz doctor, which checks each library TensorFlow loads, or run again with TF_CPP_MIN_LOG_LEVEL=0 so TensorFlow names the missing files, and explain that log.',
  kernelGpu: (name: string, cc: string) => `${name} (compute capability ${cc})`,
  kernelThisGpu: 'this GPU',
  kernelUse: (tf: string, cc: string) => `Use TensorFlow ${tf}, the newest line with machine code for compute capability ${cc} (cudawiz requirements --tf ${tf})`,
  kernelUseUnknown: 'Use a TensorFlow release built for this GPU (cudawiz requirements shows which TF runs it natively)',
  kernelMeaning: (which: string) =>
    `This TensorFlow build has no machine code or compatible PTX for ${which}: the GPU is newer or older than the architectures the wheel was compiled for.`,
  kernelFix: (use: string) => `${use}, or build TensorFlow from source with TF_CUDA_COMPUTE_CAPABILITIES set to it.`,
  windowsNoGpuMeaning: (tf: string | undefined, last: string) =>
    tf
      ? `TensorFlow ${tf} lists no GPU and prints no CUDA error: after ${last} TensorFlow has no GPU build for native Windows, so it never looks for CUDA.`
      : `TensorFlow lists no GPU and prints no CUDA error. If this is TensorFlow 2.11 or newer, that is expected: after ${last} TensorFlow has no GPU build for native Windows, so it never looks for CUDA.`,
  windowsNoGpuFix: (tf: string | undefined, last: string) =>
    `Use WSL2: install Ubuntu under WSL2 and run cudawiz there (cudawiz doctor${tf ? ` --tf ${tf}` : ''} on Windows lists the steps); TensorFlow there uses this Windows driver. Or stay native with TensorFlow ${last}: pip install "tensorflow<2.11" (cudawiz install --tf ${last}).`,
  noGpuListedMeaning: (tf: string | undefined) =>
    `TensorFlow${tf ? ` ${tf}` : ''} lists no GPU, and this log prints no reason (its CUDA messages may be hidden, or a CPU-only package is installed).`,
  noGpuListedFix: 'Run again with TF_CPP_MIN_LOG_LEVEL=0 so TensorFlow says which library it could not load, and explain that log; or run cudawiz doctor.',
  gpuEndedMeaning: (asked: string) =>
    `pip has no ${asked} to give: the tensorflow-gpu package ended. Since TensorFlow 2.1 the plain tensorflow package carries the GPU support, and the last tensorflow-gpu uploads only raise an error.`,
  gpuOldOnlyMeaning: (asked: string, py: string) => `pip found no ${asked} for this Python: that release has wheels only for Python ${py}.`,
  gpuFixLinux: (req: string, extra: string) => `Install ${req} instead${extra}.`,
  gpuFixWindowsNative: (req: string, tf: string) => `Install ${req} instead (cudawiz install --tf ${tf} sets up its CUDA and cuDNN).`,
  gpuFixWindowsNew: (tf: string | undefined, last: string) =>
    `On native Windows the GPU ends at TensorFlow ${last}: pip install "tensorflow<2.11" (cudawiz install --tf ${last}); for ${tf ? `TensorFlow ${tf}` : 'a newer TensorFlow'} use WSL2 and pip install "tensorflow[and-cuda]${tf ? `==${tf}` : ''}" there.`,
  gpuFixAny: (linux: string, last: string) => `Linux and WSL2: pip install "${linux}". Native Windows: pip install "tensorflow<2.11" (TensorFlow ${last} is its last GPU release).`,
  gpuFixOld: (py: string, asked: string) => `Make a virtual environment with 64-bit Python ${py}, then pip install ${asked} there.`,
  andCudaExtra: ' (CUDA and cuDNN come as pip wheels)',
  toolkitExtra: (tf: string) => ` and set up its CUDA and cuDNN with cudawiz install --tf ${tf}`,
  pythonMeaning: (pkg: string, py: string | undefined, supportedBy: string | undefined) =>
    `pip found no ${pkg} wheel for ${py ? `Python ${py}` : 'this Python'}: TensorFlow publishes wheels only for 64-bit CPython, in a range of versions per release${
      supportedBy === undefined ? '' : supportedBy ? ` (Python ${py} is supported by TensorFlow ${supportedBy})` : ` (no TensorFlow release in the catalog supports Python ${py})`
    }.`,
  pythonMeaningAsked: (tf: string, range: string, py: string | undefined) =>
    `TensorFlow ${tf} has no wheel for ${py ? `Python ${py}` : 'this Python'}: it was released for Python ${range} only.`,
  pythonFix: (ranges: string) => `Use a 64-bit Python in the range of the TensorFlow you want, in a virtual environment: ${ranges} (cudawiz requirements --tf V shows each release's range).`,
  pythonFixAsked: (range: string, tf: string) => `Make a virtual environment with 64-bit Python ${range}, then pip install "tensorflow==${tf}" there; or pick a TensorFlow this Python supports.`,
  wheelMeaning: (wheel: string, py: string, platform: string) =>
    `${wheel} is built for ${py} on ${platform}; the Python running pip is another version, another OS, or 32-bit.`,
  wheelFix: (py: string) =>
    `Use a 64-bit ${py} (python -c "import struct; print(struct.calcsize('P') * 8)" prints 64), or let pip choose the wheel: pip install tensorflow==V.`,
  bits32Meaning: 'This Python is 32-bit; TensorFlow publishes 64-bit wheels only, so pip finds none (or refuses the one you pass).',
  bits32Fix: 'Install the 64-bit Python (python.org: "Windows installer (64-bit)"), make a virtual environment with it, and pip install there.',
  anyCpython: 'CPython',
  nothingRecognised: (source: string) => `Nothing recognised in ${source}: no missing CUDA/cuDNN library, version mismatch or driver message.`,
  captureHint: '  Capture the whole output of the failing run (python your_script.py > tf.log 2>&1) and explain that file.',
  logFrom: (os: string | null) => `TensorFlow log${os ? ` from ${os}` : ''}`,
  asksFor: (asks: string[]) => `: it asks for ${asks.join(' and ')}`,
  loggedGpu: (name: string, cc: string) => `GPU: ${name} (compute capability ${cc})`,
  noProblem: 'No problem in this log: TensorFlow opened its GPU libraries.',
  /** With what follows it: a space after an ASCII colon, none after a full-width one. */
  fixLabel: 'fix: ',
  sameAsAbove: 'the same as above',
  standardInput: 'standard input',
  noLog: 'No log given.',
  noLogFix: 'Pass the log file (cudawiz explain tf.log) or pipe it in: python train.py 2>&1 | cudawiz explain -',
  cannotRead: (file: string, why: string) => `Cannot read the log "${file}": ${why}.`,
  cannotReadFix: 'Pass the path of a saved TensorFlow log, or - to read it from standard input.',
  whyMissing: 'no such file',
  whyFolder: 'it is a folder',
  whyDenied: 'permission denied',
  badOs: (v: string) => `--os must be windows, linux or wsl, not "${v}".`,
};

type ExplainStrings = typeof en;

const zh: ExplainStrings = {
  // Product names stay as NVIDIA writes them; only the two descriptive ones are translated.
  libraryName: { ...en.libraryName, cudart: 'CUDA 运行时', nvrtc: 'NVRTC 运行时编译器' },
  installCudaUnknown: '安装你的 TensorFlow 编译时所用的 CUDA Toolkit（cudawiz requirements --tf YOUR_TF）',
  installCuda: (cuda, tf) => `安装 CUDA ${cuda}${tf ? `（cudawiz install --tf ${tf}）` : ''}`,
  putDirOn: (dir, where) => `把 ${dir} 加入 ${where}`,
  putFolderOn: (where) => `把它的库目录加入 ${where}`,
  installCudnn: (cudnnMajor, cuda, archive, tf) =>
    `安装${cuda ? `适配 CUDA ${cuda} 的` : ''} cuDNN ${cudnnMajor}${archive ? `（${archive}）` : ''}` +
    `${cuda ? `，放进 CUDA ${cuda} 的目录` : ''}${tf ? `（cudawiz install --tf ${tf} --cudnn-archive FILE）` : ''}`,
  sideBySide: '旁边装着其他版本的 CUDA 没关系，不用卸载',
  driverFixWindows: '安装或更新 NVIDIA 显卡驱动（https://www.nvidia.com/Download/index.aspx）；nvcuda.dll 随显卡驱动提供，CUDA Toolkit 里没有。',
  driverFixLinux:
    '安装或更新 NVIDIA 显卡驱动（发行版的 nvidia-driver 软件包，或 https://www.nvidia.com/Download/index.aspx）；libcuda.so.1 随显卡驱动提供。在容器里要用 --gpus all 启动；在 WSL2 里要装 Windows 的显卡驱动，不要装 Linux 的。',
  driverFixWsl: (libDir) =>
    `在 Windows 上安装或更新 NVIDIA 显卡驱动（https://www.nvidia.com/Download/index.aspx），千万不要在 WSL 里装 Linux 显卡驱动：WSL 通过 ${libDir} 把 Windows 显卡驱动的 libcuda.so.1 借给 Linux。如果这个目录是空的，在 PowerShell 里运行 \`wsl --update\` 和 \`wsl --shutdown\`。`,
  driverFixWsl1: '这份日志来自 WSL 1，WSL 1 不能使用 GPU：把发行版转换成 WSL 2（在 PowerShell 里运行：wsl --set-version DISTRO 2），显卡驱动继续用 Windows 的，千万不要在 WSL 里装 Linux 显卡驱动。',
  depIsDriver: (file, dep) => `找到了 ${file}，但它依赖的 NVIDIA 显卡驱动库 ${dep} 加载失败。`,
  depComesWith: (cuda) => `（它随 ${cuda} 提供）`,
  depMeaning: (file, dep, from) => `找到了 ${file}，但它依赖的动态链接库 ${dep} 加载失败${from}。`,
  depFix: (dep, where, orInstall, sideBySide) => `让系统找得到 ${dep}：把它所在的目录加入 ${where}${orInstall ? `，或者安装 ${orInstall}` : ''}——${sideBySide}。`,
  toolkitMeaning: (file, what, cuda, only) => `TensorFlow 加载不了 ${file}，这是 ${cuda} 的 ${what}${/[\u4e00-\u9fff]$/.test(what) ? '' : ' '}动态链接库${only ? '（别的 CUDA 版本都没有这个文件名）' : ''}。`,
  toolkitMeaningUnmapped: (file, what) => `TensorFlow 加载不了 ${file}，这是一个 ${what} 动态链接库，目录数据里查不到它对应的 CUDA 版本。`,
  toolkitFix: (install, folder, sideBySide) => `${install}；如果已经装了，就${folder}——${sideBySide}。`,
  cuptiMeaning: (file, cuda) => `${file} 是 CUDA ${cuda} 的 CUPTI 性能分析库；只有做性能分析时 TensorFlow 才需要它。`,
  cuptiFix: (cuda, where) => `不做性能分析就不用管；要做的话，把 CUDA ${cuda} 的 extras/CUPTI/lib64 目录加入 ${where}。`,
  cudnnMeaning: (file, which) => `TensorFlow 加载不了 ${file}，这是 ${which} 的动态链接库（cuDNN 要和 CUDA Toolkit 分开下载）。`,
  cudnnFixMajor: (install, cudnnMajor) => `${install}——必须是 cuDNN ${cudnnMajor}.x；主版本号不同的 cuDNN 不能满足这个文件名。`,
  cudnnFixUnknown: (where) => `安装你的 TensorFlow 编译时所用的 cuDNN（cudawiz requirements --tf YOUR_TF），并把它的库目录加入 ${where}。`,
  driverLibraryMeaning: (file) => `${file} 属于 NVIDIA 显卡驱动，TensorFlow 加载不了它。`,
  tensorrtMeaning: (file, m) => `${file} 是 TensorRT ${m}，只有 TF-TRT 模型优化才用得到；没有它 TensorFlow 照样能用 GPU。`,
  tensorrtFix: (m) => `不用 TF-TRT 就不用管；要用的话，安装 TensorRT ${m}。`,
  otherMeaning: (file) => `TensorFlow 加载不了 ${file}。`,
  otherFix: (file, where) => `查一下哪个软件包提供 ${file}，把它所在的目录加入 ${where}。`,
  zlib32Meaning: '找到了一个 zlibwapi.dll，但它是 32 位的；Windows 上的 cuDNN 8.3 及以后版本需要 64 位的 zlibwapi.dll。',
  zlibMeaning: 'Windows 上的 cuDNN 8.3 及以后版本需要 zlibwapi.dll（zlib），但在 PATH 里找不到它。',
  zlibFix: '把 64 位的 zlibwapi.dll（http://www.winimage.com/zLibDll/ 上的 zlib123dllx64.zip）放进 CUDA 的 bin 目录，或者改用 TF 2.5–2.10 测试过的 cuDNN 8.1。',
  cudnnPartZlibMeaning: (file, code) =>
    `${file} 文件在，但 Windows 加载不了它（错误码 ${code}：它依赖的某个 DLL 缺失）。Windows 上的 cuDNN 8.3 到 8.x 缺的就是 zlibwapi.dll（zlib），cuDNN 的压缩包里不带它。`,
  cudnnPart32Meaning: (file) => `${file} 找到了一个 zlibwapi.dll，但它是 32 位的（错误码 193）；cuDNN 需要 64 位的 zlibwapi.dll。`,
  cudnnPartMixedMeaning: (file) => `${file} 加载了，但缺少它要调用的函数（错误码 127）：两个不同版本的 cuDNN 混在了一起，通常是 PATH 里更靠前的位置有一个旧的 cudnn64_8.dll。`,
  cudnnPartMixedFix: '只留一份 cuDNN 8：把另一份所在的目录从 PATH 里去掉（或者把同一个 cuDNN 压缩包里的所有 DLL 都复制到 CUDA 的 bin 目录），然后重新打开终端。',
  zlibOrTestedFix: (tested, range, tf) =>
    `把 64 位的 zlibwapi.dll（http://www.winimage.com/zLibDll/ 上的 zlib123dllx64.zip）放进 CUDA 的 bin 目录${
      tested ? `；或者改用 cuDNN ${tested}——TensorFlow ${range} 在 Windows 上测试的就是它，不需要 zlib${tf ? `（cudawiz install --tf ${tf}）` : ''}` : ''
    }。`,
  msvcMeaning: (file) => `${file} 属于 Microsoft Visual C++ 运行库；TensorFlow 2.1 及以后版本没有 msvcp140_1.dll 就无法 import。`,
  msvcFix: '安装 Microsoft Visual C++ Redistributable for Visual Studio 2015–2022（x64）：https://aka.ms/vs/17/release/vc_redist.x64.exe',
  mismatchMeaning: (compiled, loaded, older) =>
    `TensorFlow 编译时用的是 cuDNN ${compiled}，运行时却加载了 cuDNN ${loaded}；主版本号必须相同，次版本号要相同或更新${older ? '（这一份更旧）' : ''}。`,
  mismatchFix: (want, m, where) => `安装 cuDNN ${want} 或更新的 ${m}.x，并确保 ${where} 里没有更旧的副本（conda 环境、别的 CUDA 目录）排在前面。`,
  driverOldTarget: (min, cuda, osName) => `到 ${min} 或更新（CUDA ${cuda} 在 ${osName} 上的最低要求）`,
  driverOldSupports: (cuda) => `到支持 CUDA ${cuda} 的版本`,
  driverOldMeaning: (cuda) => `NVIDIA 显卡驱动比 TensorFlow 加载的 CUDA${cuda ? ` ${cuda}` : ''} 运行时旧（nvidia-smi 显示的 "CUDA Version" 是它支持的最高版本）。`,
  driverOldFix: (target, showMin) => `更新 NVIDIA 显卡驱动${target}${showMin ? '（cudawiz requirements --tf YOUR_TF 会显示最低版本）' : ''}；CUDA Toolkit 不用动。`,
  driverOldFixWsl: (target, showMin) =>
    `在 Windows 上更新 NVIDIA 显卡驱动${target}${showMin ? '（cudawiz requirements --tf YOUR_TF 会显示最低版本）' : ''}，千万不要在 WSL 里装 Linux 显卡驱动；CUDA Toolkit 不用动。`,
  runtimeMeaning: (file) => `TensorFlow 加载不了 CUDA 运行时（${file}），所以只能用 CPU。别被字面意思误导：这一行是在缺少运行时库时打印的，不是缺显卡驱动。`,
  runtimeMeaningWsl: (file) =>
    `TensorFlow 加载不了 CUDA 运行时（${file}），所以只能用 CPU。在 WSL 里显卡驱动来自 Windows，缺的不是它：这一行说明运行时库没装，或者不在加载路径上。`,
  runtimeFixLinux: (andCuda) =>
    `安装 TensorFlow 需要的 CUDA 运行时。TensorFlow 2.14 及以后：在它的虚拟环境里 pip install "${andCuda}"（CUDA 和 cuDNN 以 pip 包的形式安装）。更早的版本：安装它编译时所用的 CUDA Toolkit（cudawiz install --tf YOUR_TF）。`,
  runtimeFixWsl: (andCuda) =>
    `不要在 WSL 里装 Linux 显卡驱动。要装的是 CUDA 运行时：TensorFlow 2.14 及以后，在它的虚拟环境里 pip install "${andCuda}"（CUDA 和 cuDNN 以 pip 包的形式安装）；更早的 TensorFlow，安装不带驱动的 CUDA Toolkit（在 WSL 里运行 cudawiz install --tf YOUR_TF）。`,
  runtimeFixWindows: (last) =>
    `TensorFlow ${last} 及更早：安装它编译时所用的 CUDA Toolkit（cudawiz install --tf YOUR_TF）。更新的 TensorFlow 在原生 Windows 上没有 GPU 版本：改用 WSL2，或者 pip install "tensorflow<2.11"。`,
  someMissingMeaning: '有些 CUDA/cuDNN 动态链接库没加载上，TensorFlow 就跳过了 GPU；日志这里没说是哪些。',
  someMissingFix: '运行 cudawiz doctor，它会逐个检查 TensorFlow 要加载的库；或者设置环境变量 TF_CPP_MIN_LOG_LEVEL=0 再运行一次，让 TensorFlow 说出缺的文件，再用 explain 读那份日志。',
  kernelGpu: (name, cc) => `${name}（计算能力 ${cc}）`,
  kernelThisGpu: '这块 GPU',
  kernelUse: (tf, cc) => `改用 TensorFlow ${tf}，这是带有计算能力 ${cc} 机器码的最新版本线（cudawiz requirements --tf ${tf}）`,
  kernelUseUnknown: '改用为这块 GPU 编译过的 TensorFlow 版本（cudawiz requirements 会显示哪个版本能原生运行）',
  kernelMeaning: (which) => `这个 TensorFlow 版本没有适用于 ${which} 的机器码或兼容的 PTX：GPU 比 wheel 编译时支持的架构更新或更旧。`,
  kernelFix: (use) => `${use}，或者从源码编译 TensorFlow，把 TF_CUDA_COMPUTE_CAPABILITIES 设成它的计算能力。`,
  windowsNoGpuMeaning: (tf, last) =>
    tf
      ? `TensorFlow ${tf} 没有列出 GPU，也没有打印任何 CUDA 错误：${last} 之后的 TensorFlow 在原生 Windows 上没有 GPU 版本，根本不会去找 CUDA。`
      : `TensorFlow 没有列出 GPU，也没有打印任何 CUDA 错误。如果是 TensorFlow 2.11 或更新版本，这很正常：${last} 之后的 TensorFlow 在原生 Windows 上没有 GPU 版本，根本不会去找 CUDA。`,
  windowsNoGpuFix: (tf, last) =>
    `改用 WSL2：在 WSL2 里装 Ubuntu，然后在里面运行 cudawiz（在 Windows 上运行 cudawiz doctor${tf ? ` --tf ${tf}` : ''} 会列出步骤）；那里的 TensorFlow 用的就是这台 Windows 的显卡驱动。或者留在原生 Windows 上用 TensorFlow ${last}：pip install "tensorflow<2.11"（cudawiz install --tf ${last}）。`,
  noGpuListedMeaning: (tf) => `TensorFlow${tf ? ` ${tf}` : ''} 没有列出 GPU，日志里也没有原因（CUDA 相关的消息可能被屏蔽了，或者装的是只支持 CPU 的包）。`,
  noGpuListedFix: '设置环境变量 TF_CPP_MIN_LOG_LEVEL=0 再运行一次，让 TensorFlow 说出加载失败的库，再用 explain 读那份日志；或者运行 cudawiz doctor。',
  gpuEndedMeaning: (asked) => `pip 给不了 ${asked}：tensorflow-gpu 这个包已经停止发布了。从 TensorFlow 2.1 起，普通的 tensorflow 包就自带 GPU 支持，最后几个 tensorflow-gpu 版本安装时只会报错。`,
  gpuOldOnlyMeaning: (asked, py) => `pip 找不到适合这个 Python 的 ${asked}：那个版本只有 Python ${py} 的 wheel。`,
  gpuFixLinux: (req, extra) => `改为安装 ${req}${extra}。`,
  gpuFixWindowsNative: (req, tf) => `改为安装 ${req}（cudawiz install --tf ${tf} 会装好它需要的 CUDA 和 cuDNN）。`,
  gpuFixWindowsNew: (tf, last) =>
    `原生 Windows 上的 GPU 支持到 TensorFlow ${last} 为止：pip install "tensorflow<2.11"（cudawiz install --tf ${last}）；要用${tf ? ` TensorFlow ${tf}` : '更新的 TensorFlow'}，请改用 WSL2，并在里面 pip install "tensorflow[and-cuda]${tf ? `==${tf}` : ''}"。`,
  gpuFixAny: (linux, last) => `Linux 和 WSL2：pip install "${linux}"。原生 Windows：pip install "tensorflow<2.11"（TensorFlow ${last} 是最后一个支持 GPU 的版本）。`,
  gpuFixOld: (py, asked) => `用 64 位的 Python ${py} 建一个虚拟环境，然后在里面 pip install ${asked}。`,
  andCudaExtra: '（CUDA 和 cuDNN 以 pip 包的形式安装）',
  toolkitExtra: (tf) => `，再用 cudawiz install --tf ${tf} 装好它需要的 CUDA 和 cuDNN`,
  pythonMeaning: (pkg, py, supportedBy) =>
    `pip 找不到适合${py ? ` Python ${py} ` : '这个 Python '}的 ${pkg} wheel：TensorFlow 只为 64 位 CPython 发布 wheel，每个版本只支持一段 Python 版本${
      supportedBy === undefined ? '' : supportedBy ? `（支持 Python ${py} 的是 TensorFlow ${supportedBy}）` : `（目录数据里没有哪个 TensorFlow 版本支持 Python ${py}）`
    }。`,
  pythonMeaningAsked: (tf, range, py) => `TensorFlow ${tf} 没有适合${py ? ` Python ${py} ` : '这个 Python '}的 wheel：它只为 Python ${range} 发布过。`,
  pythonFix: (ranges) => `在虚拟环境里使用与目标 TensorFlow 匹配的 64 位 Python：${ranges}（cudawiz requirements --tf V 会显示每个版本支持的 Python）。`,
  pythonFixAsked: (range, tf) => `用 64 位的 Python ${range} 建一个虚拟环境，然后在里面 pip install "tensorflow==${tf}"；或者换一个这个 Python 支持的 TensorFlow 版本。`,
  wheelMeaning: (wheel, py, platform) => `${wheel} 是为 ${platform} 上的 ${py} 编译的；运行 pip 的 Python 版本不同、操作系统不同，或者是 32 位的。`,
  wheelFix: (py) => `使用 64 位的 ${py}（python -c "import struct; print(struct.calcsize('P') * 8)" 会输出 64），或者让 pip 自己选 wheel：pip install tensorflow==V。`,
  bits32Meaning: '这个 Python 是 32 位的；TensorFlow 只发布 64 位的 wheel，所以 pip 一个也找不到（或者拒绝你给的那个）。',
  bits32Fix: '安装 64 位的 Python（python.org 上的 "Windows installer (64-bit)"），用它建一个虚拟环境，再在里面 pip install。',
  anyCpython: 'CPython',
  nothingRecognised: (source) => `在 ${source} 里没有认出任何问题：没有缺失的 CUDA/cuDNN 动态链接库、版本不匹配或显卡驱动相关的消息。`,
  captureHint: '  把出错那次运行的完整输出保存下来（python your_script.py > tf.log 2>&1），再用 explain 读那个文件。',
  logFrom: (os) => `TensorFlow 日志${os ? `（来自 ${os}）` : ''}`,
  asksFor: (asks) => `：它要的是 ${asks.join(' 和 ')}`,
  loggedGpu: (name, cc) => `GPU：${name}（计算能力 ${cc}）`,
  noProblem: '这份日志没有问题：TensorFlow 打开了它的 GPU 动态链接库。',
  fixLabel: '解决：',
  sameAsAbove: '同上',
  standardInput: '标准输入',
  noLog: '没有给出日志。',
  noLogFix: '传入日志文件（cudawiz explain tf.log），或者用管道传入：python train.py 2>&1 | cudawiz explain -',
  cannotRead: (file, why) => `读不了日志 "${file}"：${why}。`,
  cannotReadFix: '传入一份保存好的 TensorFlow 日志的路径，或者用 - 从标准输入读取。',
  whyMissing: '文件不存在',
  whyFolder: '这是一个目录',
  whyDenied: '没有权限',
  badOs: (v) => `--os 只能是 windows、linux 或 wsl，不能是 "${v}"。`,
};

export const explainText = localized({ en, zh });
