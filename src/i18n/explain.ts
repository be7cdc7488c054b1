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
  installCudnn: (cudnnMajor: string, cuda: string | undefined, archive: string | undefined, tf: string | undefined, publicCopy: boolean) =>
    `Install cuDNN ${cudnnMajor}${cuda ? ` for CUDA ${cuda}` : ''}${archive ? ` (${archive}${publicCopy ? ', a public copy, no login needed' : ''})` : ''}` +
    `${cuda ? ` into the CUDA ${cuda} folder` : ''}${tf ? (publicCopy ? ` (cudawiz install --tf ${tf} downloads it)` : ` (cudawiz install --tf ${tf} --cudnn-archive FILE)`) : ''}`,
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
  cudnnFixForTf: (tf: string, cudnn: string, cuda: string, get: string) =>
    `TensorFlow ${tf} needs cuDNN ${cudnn} for CUDA ${cuda}. Run cudawiz repair --tf ${tf} to put it in place, or ${get}.`,
  cudnnFixAskTf: (cudnnMajor: string, lines: string) =>
    `Which cuDNN ${cudnnMajor}.x depends on your TensorFlow${lines ? ` (cuDNN ${cudnnMajor} serves TensorFlow ${lines})` : ''}: run cudawiz explain --tf YOUR_TF with this log for the exact archive, or cudawiz repair --tf YOUR_TF to install it.`,
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
    `The NVIDIA driver is older than the CUDA${cuda ? ` ${cuda}` : ''} runtime TensorFlow loaded (nvidia-smi's "CUDA Version" is the newest it supports). The runtime says the same when no NVIDIA driver is installed at all: if nvidia-smi is missing or fails, install the driver first.`,
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
  gpuFixEither: (linux: string, windows: string, last: string) =>
    `Linux and WSL2: ${linux}. Native Windows: ${windows} — TensorFlow ${last} is the last GPU release there (cudawiz install --tf ${last}); for a newer one use WSL2.`,
  pipInstall: (req: string) => `pip install "${req}"`,
  cpuBuildAnswerMeaning: (tf: string | undefined) =>
    `This TensorFlow${tf ? ` ${tf}` : ''} says it was built without CUDA (is_built_with_cuda() is False): it never looks for a GPU, so no library error follows. tensorflow-cpu, and tensorflow on native Windows after 2.10, are such builds.`,
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
  pastedText: 'the pasted text',
  noLog: 'No log given.',
  noLogFix: 'Pass the log file (cudawiz explain tf.log) or pipe it in: python train.py 2>&1 | cudawiz explain -',
  cannotRead: (file: string, why: string) => `Cannot read the log "${file}": ${why}.`,
  cannotReadFix: 'Pass the path of a saved TensorFlow log, or - to read it from standard input.',
  whyMissing: 'no such file',
  whyFolder: 'it is a folder',
  whyDenied: 'permission denied',
  badOs: (v: string) => `--os must be windows, linux or wsl, not "${v}".`,

  // ---- the driver's own words (explain-driver.ts)
  moduleMeaning: (version: string | undefined, procAbsent: boolean) =>
    `The NVIDIA driver's user-space libraries are installed${version ? ` (version ${version})` : ''}, but its kernel module is not loaded${procAbsent ? ' (/proc/driver/nvidia/version does not exist)' : ''}, so no program can reach the GPU. This is what a machine looks like after a kernel update whose driver module did not build.`,
  moduleMeaningWsl: 'nvidia-smi inside WSL could not reach the Windows driver that WSL lends to Linux.',
  moduleFixLinux:
    'Load the kernel module, and never reinstall a package-managed driver from nvidia.com over it: `dkms status` shows whether it was built for the running kernel; install the headers for it (Debian/Ubuntu: `sudo apt install linux-headers-$(uname -r)`), rebuild with `sudo dkms autoinstall`, then `sudo modprobe nvidia`. If modprobe says "Key was rejected by service", Secure Boot refuses the unsigned module: enrol its key (`sudo mokutil --import` the DKMS key, then reboot) or turn Secure Boot off. `sudo dmesg | grep NVRM` says why it did not load; a reboot often loads it. Installed with NVIDIA\'s .run file: run that installer again with `--dkms` for this kernel. In a container, the host must have the module loaded and start the container with `--gpus all`.',
  moduleFixWindows: 'The NVIDIA driver is not running: check the GPU in Device Manager (enabled, no warning sign), then reinstall the driver (https://www.nvidia.com/Download/index.aspx) and restart Windows.',
  mismatchDriverMeaning: (library: string | undefined, kernel: string | undefined) =>
    `The NVIDIA driver's user-space libraries${library ? ` (${library})` : ''} and its loaded kernel module${kernel ? ` (${kernel})` : ''} are different versions: the driver was upgraded (often by an automatic update) and the old module is still running.`,
  mismatchDriverMeaningWsl:
    'The driver libraries inside WSL do not match the Windows driver: usually a Linux NVIDIA driver was installed inside WSL, over the libraries WSL lends from Windows.',
  mismatchDriverFixLinux:
    'Reboot, which loads the new module. Without a reboot: stop every program that uses the GPU, then `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia` and `sudo modprobe nvidia`. If a CUDA forward-compatibility copy of libcuda (a compat folder, e.g. /usr/local/cuda-12.2/compat) comes first on LD_LIBRARY_PATH, remove it from there.',
  mismatchDriverFixWindows: 'Restart Windows; if it persists, reinstall the NVIDIA driver (https://www.nvidia.com/Download/index.aspx) with its "clean installation" option.',
  mismatchDriverFixWsl:
    'Remove the Linux driver packages from WSL (`sudo apt-get remove --purge "^nvidia-.*" "^libnvidia-.*"`) and keep only the Windows driver; then run `wsl --shutdown` in PowerShell and open WSL again.',
  compatMeaning:
    'CUDA loaded a forward-compatibility copy of libcuda (the cuda-compat package), which runs only on data-centre GPUs; this GPU does not support it. (Right after a driver upgrade, a stale kernel module says the same.)',
  compatFix:
    'Let the driver\'s own libcuda.so.1 load: remove the compat folder (e.g. /usr/local/cuda-12.2/compat) from LD_LIBRARY_PATH and /etc/ld.so.conf.d, or uninstall the cuda-compat package; if TensorFlow needs a newer CUDA than the driver supports, update the driver instead. If you just upgraded the driver, reboot.',
  compatFixWsl: 'Remove any cuda-compat copy of libcuda from LD_LIBRARY_PATH inside WSL, so WSL\'s own /usr/lib/wsl/lib/libcuda.so.1 loads; update the driver on Windows if TensorFlow needs a newer CUDA.',
  noGpuByDriverMeaning: 'The NVIDIA driver is loaded but found no GPU it can drive ("No devices were found").',
  noGpuByDriverFix:
    '`sudo dmesg | grep NVRM` says why: "fallen off the bus" (power, heat, seating: reseat the card, check its power cables), "probe routine failed" or nouveau holding the GPU (blacklist nouveau and reboot), or a GPU this driver branch no longer supports (install the branch that does). `lspci | grep -i nvidia` shows whether the machine sees the card at all (a VM needs the GPU passed through).',
  noGpuByDriverFixWsl: 'Make sure the GPU works on Windows (Device Manager, the NVIDIA driver there), update the Windows driver, then run `wsl --update` and `wsl --shutdown` in PowerShell.',
  initUnknownMeaning:
    'The NVIDIA driver could not start CUDA (CUDA_ERROR_UNKNOWN). On Linux this usually follows a suspend and resume (the nvidia_uvm module is left broken), a missing /dev/nvidia-uvm, or a container started without the GPU.',
  initUnknownFix:
    'Reload the unified-memory module: `sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm` (or reboot); `ls /dev/nvidia*` must list nvidia-uvm. In a container, start it with `--gpus all`.',
  initUnknownFixWsl: 'Run `wsl --shutdown` in PowerShell and open WSL again; if it persists, update the NVIDIA driver on Windows and run `wsl --update`.',
  noDeviceMeaning: 'The CUDA driver loaded but offers this program no GPU (CUDA_ERROR_NO_DEVICE).',
  noDeviceHiddenMeaning: (setting: string) => `The CUDA driver loaded but offers this program no GPU, because the script hides them all: ${setting}.`,
  noDeviceHiddenFix: 'Remove that setting (or set CUDA_VISIBLE_DEVICES to an index that nvidia-smi lists, e.g. 0).',
  noDeviceFix:
    'Check CUDA_VISIBLE_DEVICES (unset, or an index that nvidia-smi lists); run nvidia-smi: if it fails, explain its message too (cudawiz explain reads it). In a container, start it with `--gpus all`.',
  noDeviceFixWsl: 'Check CUDA_VISIBLE_DEVICES (unset, or 0); run nvidia-smi inside WSL: if it fails, update the NVIDIA driver on Windows and run `wsl --update` and `wsl --shutdown` in PowerShell.',
  wslBlockedMeaning:
    'Inside WSL, NVML could not reach the GPU through Windows ("GPU access blocked by the operating system"): the GPU is not shared with WSL, or the nvidia-smi that ran is a Linux package\'s, not WSL\'s.',
  wslBlockedFix:
    'Run WSL\'s own /usr/lib/wsl/lib/nvidia-smi and remove any Linux nvidia-utils package from WSL; on Windows, update the NVIDIA driver, and a data-centre GPU must be in WDDM mode, not TCC (WSL gets no TCC GPU); then run `wsl --update` and `wsl --shutdown` in PowerShell.',
  // ---- TensorFlow's build info (explain-build-info.ts)
  cpuBuildMeaning: (tf: string | undefined) =>
    `This TensorFlow${tf ? ` ${tf}` : ''} was built without CUDA (is_cuda_build: False): it never looks for a GPU. tensorflow-cpu, and tensorflow on native Windows after 2.10, are such builds.`,
  cpuBuildFixLinux: (req: string) => `In its environment, uninstall tensorflow-cpu (or tensorflow-intel) and pip install "${req}".`,
  buildInfoMeaning: (tf: string | undefined, cuda: string | undefined, cudnn: string | undefined, caps: string[]) =>
    `TensorFlow${tf ? ` ${tf}` : ''} was built with ${[cuda ? `CUDA ${cuda}` : '', cudnn ? `cuDNN ${cudnn}` : ''].filter(Boolean).join(' and ')}${
      caps.length ? `, with machine code for compute capability ${caps.join(', ')}` : ''
    }.`,
  buildInfoFix: 'Nothing to fix here: these are the versions to install (cudawiz requirements --tf YOUR_TF).',
  // ---- conda and Poetry (explain-installers.ts)
  condaMissingMeaning: (packages: string, platform: string | undefined) =>
    `conda's channels have no ${packages}${platform ? ` for ${platform}` : ''}: TensorFlow itself is published on PyPI (pip); conda's packages are rebuilt by others, later, and not for every platform and version.`,
  condaMissingFixLinux: (andCuda: string) =>
    `TensorFlow's own install guide uses pip, also inside a conda environment: conda activate YOUR_ENV, then pip install "${andCuda}" (CUDA and cuDNN come as pip wheels).`,
  condaMissingFixWindows: (last: string) =>
    `In the conda environment use pip: pip install "tensorflow<2.11" (TensorFlow ${last} is the last with a GPU on native Windows; cudawiz install --tf ${last} sets up its CUDA and cuDNN), or use WSL2 for a newer one.`,
  conda32Fix: 'This conda is 32-bit (win-32): TensorFlow has no 32-bit builds. Install the 64-bit Miniconda or Anaconda and make the environment there.',
  condaMacFix: 'macOS has no CUDA GPU build of TensorFlow: pip install tensorflow (CPU, or tensorflow-metal on Apple silicon), or use a Linux machine for CUDA.',
  condaPythonMeaning: (py: string) => `conda has no TensorFlow build for this environment's Python ${py}.`,
  condaUnsatMeaning: 'conda cannot find TensorFlow packages that fit together with what this environment already holds.',
  condaUnsatFix: (ranges: string) =>
    `Make a fresh environment with a Python in the range of the TensorFlow you want (${ranges}), e.g. conda create -n tf python=3.11, then pip install TensorFlow there.`,
  poetryRangeMeaning: (declared: string, pkg: string, needs: string | undefined) =>
    `Poetry refuses ${pkg}: the project allows Python ${declared}, but ${pkg} supports only Python ${needs ?? 'in a narrower range'}; Poetry wants every Python the project allows to be served.`,
  poetryRangeFix: (range: string | undefined, poetrySaysSo: boolean) =>
    `Narrow the python property in pyproject.toml${range ? ` to "${range}"` : ' to the range TensorFlow supports'}${poetrySaysSo ? ' (Poetry suggests it itself)' : ''}, then run poetry lock and poetry install again.`,
  windowsWarningMeaning: (tf: string | undefined, last: string) =>
    `TensorFlow${tf ? ` ${tf}` : ''} says so itself: after ${last} it has no GPU build for native Windows, so it never uses the GPU there, whatever CUDA and cuDNN are installed.`,
  poetryNoVersionMeaning: 'Poetry found no TensorFlow release that fits every constraint of the project (its Python range and the other packages).',
  poetryNoVersionFix: (ranges: string) => `Pin a TensorFlow release and a Python range that fit: ${ranges}; e.g. poetry add "tensorflow@~2.16" with python = ">=3.9,<3.13".`,
  poetryCandidatesMeaning: (pkg: string, v: string) => `Poetry locked ${pkg} ${v}, but PyPI has no file of it for this platform or Python.`,
  poetryCandidatesFix: (pkg: string) =>
    `Constrain ${pkg} in pyproject.toml to a release with a wheel for this platform and Python (pip download ${pkg}==V --no-deps shows whether one exists), or narrow the project's python range, then poetry lock again.`,
  noSuchVersionMeaning: (pkg: string, v: string, newest: string) =>
    `pip has no ${pkg} ${v} for this Python and platform: that release is not among those pip lists (the newest it lists is ${newest}).`,
  noSuchVersionFix: (pkg: string, newest: string) => `Ask for a release pip lists, e.g. pip install "${pkg}==${newest}" (cudawiz requirements --tf V shows each release's Python range).`,
};

type ExplainStrings = typeof en;

const zh: ExplainStrings = {
  // Product names stay as NVIDIA writes them; only the two descriptive ones are translated.
  libraryName: { ...en.libraryName, cudart: 'CUDA 运行时', nvrtc: 'NVRTC 运行时编译器' },
  installCudaUnknown: '安装你的 TensorFlow 编译时所用的 CUDA Toolkit（cudawiz requirements --tf YOUR_TF）',
  installCuda: (cuda, tf) => `安装 CUDA ${cuda}${tf ? `（cudawiz install --tf ${tf}）` : ''}`,
  putDirOn: (dir, where) => `把 ${dir} 加入 ${where}`,
  putFolderOn: (where) => `把它的库目录加入 ${where}`,
  installCudnn: (cudnnMajor, cuda, archive, tf, publicCopy) =>
    `安装${cuda ? `适配 CUDA ${cuda} 的` : ''} cuDNN ${cudnnMajor}${archive ? `（${archive}${publicCopy ? '，公开下载，不用登录' : ''}）` : ''}` +
    `${cuda ? `，放进 CUDA ${cuda} 的目录` : ''}${tf ? (publicCopy ? `（cudawiz install --tf ${tf} 会下载它）` : `（cudawiz install --tf ${tf} --cudnn-archive FILE）`) : ''}`,
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
  cudnnFixForTf: (tf, cudnn, cuda, get) => `TensorFlow ${tf} 需要适配 CUDA ${cuda} 的 cuDNN ${cudnn}。运行 cudawiz repair --tf ${tf} 把它装好，或者运行 ${get}。`,
  cudnnFixAskTf: (cudnnMajor, lines) =>
    `具体要哪个 cuDNN ${cudnnMajor}.x 取决于你的 TensorFlow${lines ? `（cuDNN ${cudnnMajor} 对应 TensorFlow ${lines}）` : ''}：运行 cudawiz explain --tf 你的TF版本 并传入这份日志，就能知道确切的压缩包；或者运行 cudawiz repair --tf 你的TF版本 直接安装。`,
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
  driverOldMeaning: (cuda) =>
    `NVIDIA 显卡驱动比 TensorFlow 加载的 CUDA${cuda ? ` ${cuda}` : ''} 运行时旧（nvidia-smi 显示的 "CUDA Version" 是它支持的最高版本）。完全没装 NVIDIA 显卡驱动时，运行时也会这么说：如果 nvidia-smi 不存在或者报错，先安装显卡驱动。`,
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
  gpuFixEither: (linux, windows, last) => `Linux 和 WSL2：${linux}。原生 Windows：${windows}——TensorFlow ${last} 是那里最后一个支持 GPU 的版本（cudawiz install --tf ${last}）；要用更新的版本请改用 WSL2。`,
  pipInstall: (req) => `pip install "${req}"`,
  cpuBuildAnswerMeaning: (tf) =>
    `这个 TensorFlow${tf ? ` ${tf}` : ''} 自己说编译时没有带 CUDA（is_built_with_cuda() 是 False）：它根本不会去找 GPU，所以也不会有任何动态链接库报错。tensorflow-cpu，以及 2.10 之后原生 Windows 上的 tensorflow，都是这种版本。`,
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
  pastedText: '粘贴的文字',
  noLog: '没有给出日志。',
  noLogFix: '传入日志文件（cudawiz explain tf.log），或者用管道传入：python train.py 2>&1 | cudawiz explain -',
  cannotRead: (file, why) => `读不了日志 "${file}"：${why}。`,
  cannotReadFix: '传入一份保存好的 TensorFlow 日志的路径，或者用 - 从标准输入读取。',
  whyMissing: '文件不存在',
  whyFolder: '这是一个目录',
  whyDenied: '没有权限',
  badOs: (v) => `--os 只能是 windows、linux 或 wsl，不能是 "${v}"。`,

  moduleMeaning: (version, procAbsent) =>
    `NVIDIA 显卡驱动的用户态库装好了${version ? `（版本 ${version}）` : ''}，但它的内核模块没有加载${procAbsent ? '（/proc/driver/nvidia/version 不存在）' : ''}，所以没有程序能用上 GPU。内核更新后驱动模块没编译成功，机器就是这个样子。`,
  moduleMeaningWsl: 'WSL 里的 nvidia-smi 连不上 Windows 显卡驱动（WSL 把它借给 Linux 用）。',
  moduleFixLinux:
    '加载内核模块；千万不要用 nvidia.com 的安装包覆盖软件包管理器装的驱动：`dkms status` 会显示模块是否为当前内核编译过；安装当前内核的头文件（Debian/Ubuntu：`sudo apt install linux-headers-$(uname -r)`），用 `sudo dkms autoinstall` 重新编译，再运行 `sudo modprobe nvidia`。如果 modprobe 提示 "Key was rejected by service"，说明安全启动（Secure Boot）拒绝了未签名的模块：登记它的密钥（用 `sudo mokutil --import` 导入 DKMS 的密钥，然后重启），或者关闭安全启动。`sudo dmesg | grep NVRM` 会说明模块为什么没加载；重启往往就能加载上。如果驱动是用 NVIDIA 的 .run 文件装的：带上 `--dkms` 再运行一次那个安装程序，为这个内核编译。在容器里：宿主机必须已加载模块，并用 `--gpus all` 启动容器。',
  moduleFixWindows: 'NVIDIA 显卡驱动没有运行：在设备管理器里检查这块 GPU（已启用，没有警告标志），然后重新安装显卡驱动（https://www.nvidia.com/Download/index.aspx）并重启 Windows。',
  mismatchDriverMeaning: (library, kernel) =>
    `NVIDIA 显卡驱动的用户态库${library ? `（${library}）` : ''}和已加载的内核模块${kernel ? `（${kernel}）` : ''}版本不一致：驱动升级了（常常是自动更新），旧模块却还在运行。`,
  mismatchDriverMeaningWsl: 'WSL 里的驱动库和 Windows 显卡驱动对不上：通常是有人在 WSL 里装了 Linux 显卡驱动，盖住了 WSL 从 Windows 借来的库。',
  mismatchDriverFixLinux:
    '重启，新模块就会加载。不想重启的话：先停掉所有用 GPU 的程序，再运行 `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia` 和 `sudo modprobe nvidia`。如果 LD_LIBRARY_PATH 里排在前面的是 CUDA 前向兼容包里的 libcuda（compat 目录，例如 /usr/local/cuda-12.2/compat），把它从那里去掉。',
  mismatchDriverFixWindows: '重启 Windows；如果还是这样，重新安装 NVIDIA 显卡驱动（https://www.nvidia.com/Download/index.aspx），勾选 "clean installation"（清洁安装）。',
  mismatchDriverFixWsl:
    '把 Linux 显卡驱动的软件包从 WSL 里删掉（`sudo apt-get remove --purge "^nvidia-.*" "^libnvidia-.*"`），只保留 Windows 显卡驱动；然后在 PowerShell 里运行 `wsl --shutdown`，再重新打开 WSL。',
  compatMeaning:
    'CUDA 加载的是前向兼容包（cuda-compat）里的 libcuda，它只能在数据中心 GPU 上运行，这块 GPU 不支持。（刚升级完驱动、旧内核模块还在运行时，也会报同样的错。）',
  compatFix:
    '让驱动自己的 libcuda.so.1 加载：把 compat 目录（例如 /usr/local/cuda-12.2/compat）从 LD_LIBRARY_PATH 和 /etc/ld.so.conf.d 里去掉，或者卸载 cuda-compat 软件包；如果 TensorFlow 需要的 CUDA 比驱动支持的新，就更新显卡驱动。如果刚升级过驱动，重启一下。',
  compatFixWsl: '把 WSL 里 LD_LIBRARY_PATH 中 cuda-compat 的 libcuda 去掉，让 WSL 自己的 /usr/lib/wsl/lib/libcuda.so.1 加载；如果 TensorFlow 需要更新的 CUDA，就在 Windows 上更新显卡驱动。',
  noGpuByDriverMeaning: 'NVIDIA 显卡驱动已加载，但没找到它能驱动的 GPU（"No devices were found"）。',
  noGpuByDriverFix:
    '`sudo dmesg | grep NVRM` 会说明原因："fallen off the bus"（供电、温度或接触不良：重新插好显卡，检查供电线），"probe routine failed" 或 nouveau 占用了 GPU（把 nouveau 加入黑名单后重启），或者这一版驱动已不再支持这块 GPU（安装支持它的驱动分支）。`lspci | grep -i nvidia` 会显示机器能不能看到这块卡（虚拟机需要把 GPU 直通进去）。',
  noGpuByDriverFixWsl: '先确认 GPU 在 Windows 上正常（设备管理器、那边的 NVIDIA 显卡驱动），在 Windows 上更新显卡驱动，再在 PowerShell 里运行 `wsl --update` 和 `wsl --shutdown`。',
  initUnknownMeaning:
    'NVIDIA 显卡驱动没能启动 CUDA（CUDA_ERROR_UNKNOWN）。在 Linux 上通常是睡眠唤醒之后 nvidia_uvm 模块坏了、缺少 /dev/nvidia-uvm，或者容器启动时没有带上 GPU。',
  initUnknownFix: '重新加载统一内存模块：`sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm`（或者重启）；`ls /dev/nvidia*` 里必须有 nvidia-uvm。在容器里要用 `--gpus all` 启动。',
  initUnknownFixWsl: '在 PowerShell 里运行 `wsl --shutdown`，再重新打开 WSL；如果还是这样，在 Windows 上更新 NVIDIA 显卡驱动并运行 `wsl --update`。',
  noDeviceMeaning: 'CUDA 驱动加载了，但没有给这个程序任何 GPU（CUDA_ERROR_NO_DEVICE）。',
  noDeviceHiddenMeaning: (setting) => `CUDA 驱动加载了，但没有给这个程序任何 GPU，因为脚本把 GPU 全藏起来了：${setting}。`,
  noDeviceHiddenFix: '去掉这个设置（或者把 CUDA_VISIBLE_DEVICES 设成 nvidia-smi 列出的编号，例如 0）。',
  noDeviceFix: '检查 CUDA_VISIBLE_DEVICES（不设置，或者设成 nvidia-smi 列出的编号）；运行 nvidia-smi：如果它报错，把它的输出也交给 explain（cudawiz explain 能读）。在容器里要用 `--gpus all` 启动。',
  noDeviceFixWsl: '检查 CUDA_VISIBLE_DEVICES（不设置，或者设成 0）；在 WSL 里运行 nvidia-smi：如果它报错，在 Windows 上更新 NVIDIA 显卡驱动，再在 PowerShell 里运行 `wsl --update` 和 `wsl --shutdown`。',
  wslBlockedMeaning: '在 WSL 里，NVML 没能通过 Windows 用上 GPU（"GPU access blocked by the operating system"）：这块 GPU 没有共享给 WSL，或者运行的 nvidia-smi 是 Linux 软件包里的，不是 WSL 自带的。',
  wslBlockedFix:
    '运行 WSL 自带的 /usr/lib/wsl/lib/nvidia-smi，并把 WSL 里的 Linux nvidia-utils 软件包删掉；在 Windows 上更新 NVIDIA 显卡驱动，数据中心 GPU 必须处于 WDDM 模式而不是 TCC 模式（WSL 用不了 TCC 模式的 GPU）；然后在 PowerShell 里运行 `wsl --update` 和 `wsl --shutdown`。',
  cpuBuildMeaning: (tf) =>
    `这个 TensorFlow${tf ? ` ${tf}` : ''} 编译时没有带 CUDA（is_cuda_build: False），根本不会去找 GPU。tensorflow-cpu，以及 2.10 之后原生 Windows 上的 tensorflow，都是这种版本。`,
  cpuBuildFixLinux: (req) => `在它的环境里卸载 tensorflow-cpu（或 tensorflow-intel），再 pip install "${req}"。`,
  buildInfoMeaning: (tf, cuda, cudnn, caps) =>
    `TensorFlow${tf ? ` ${tf}` : ''} 编译时用的是 ${[cuda ? `CUDA ${cuda}` : '', cudnn ? `cuDNN ${cudnn}` : ''].filter(Boolean).join(' 和 ')}${
      caps.length ? `，带有计算能力 ${caps.join('、')} 的机器码` : ''
    }。`,
  buildInfoFix: '这里没什么要修的：这些就是要安装的版本（cudawiz requirements --tf YOUR_TF）。',
  condaMissingMeaning: (packages, platform) =>
    `conda 的频道里没有${platform ? `适用于 ${platform} 的 ` : ' '}${packages}：TensorFlow 官方只发布到 PyPI（pip）；conda 上的包是别人重新打包的，更新得晚，也不是每个平台、每个版本都有。`,
  condaMissingFixLinux: (andCuda) => `TensorFlow 官方安装指南用的是 pip，在 conda 环境里也一样：conda activate YOUR_ENV，然后 pip install "${andCuda}"（CUDA 和 cuDNN 以 pip 包的形式安装）。`,
  condaMissingFixWindows: (last) =>
    `在 conda 环境里用 pip：pip install "tensorflow<2.11"（TensorFlow ${last} 是原生 Windows 上最后一个支持 GPU 的版本；cudawiz install --tf ${last} 会装好它需要的 CUDA 和 cuDNN），要用更新的版本就改用 WSL2。`,
  conda32Fix: '这个 conda 是 32 位的（win-32）：TensorFlow 没有 32 位版本。安装 64 位的 Miniconda 或 Anaconda，在那里建环境。',
  condaMacFix: 'macOS 上没有带 CUDA GPU 支持的 TensorFlow：pip install tensorflow（CPU 版；Apple 芯片可以用 tensorflow-metal），要用 CUDA 就换一台 Linux 机器。',
  condaPythonMeaning: (py) => `conda 没有适合这个环境的 Python ${py} 的 TensorFlow 版本。`,
  condaUnsatMeaning: 'conda 找不到能和这个环境里已有的包配在一起的 TensorFlow 包。',
  condaUnsatFix: (ranges) => `新建一个环境，Python 版本落在目标 TensorFlow 支持的范围内（${ranges}），例如 conda create -n tf python=3.11，再在里面用 pip 安装 TensorFlow。`,
  poetryRangeMeaning: (declared, pkg, needs) =>
    `Poetry 拒绝安装 ${pkg}：项目允许的 Python 是 ${declared}，而 ${pkg} 只支持 Python ${needs ?? '更窄的范围'}；Poetry 要求项目允许的每个 Python 版本都能装上。`,
  poetryRangeFix: (range, poetrySaysSo) =>
    `把 pyproject.toml 里的 python 属性收窄${range ? `到 "${range}"` : '到 TensorFlow 支持的范围'}${poetrySaysSo ? '（Poetry 自己也这么建议）' : ''}，然后重新运行 poetry lock 和 poetry install。`,
  windowsWarningMeaning: (tf, last) => `TensorFlow${tf ? ` ${tf}` : ''} 自己就这么说了：${last} 之后它在原生 Windows 上没有 GPU 版本，所以不管装了什么 CUDA 和 cuDNN，在那里都不会用 GPU。`,
  poetryNoVersionMeaning: 'Poetry 找不到一个能满足项目所有约束（Python 范围和其他包）的 TensorFlow 版本。',
  poetryNoVersionFix: (ranges) => `固定一个相互匹配的 TensorFlow 版本和 Python 范围：${ranges}；例如 poetry add "tensorflow@~2.16"，并设置 python = ">=3.9,<3.13"。`,
  poetryCandidatesMeaning: (pkg, v) => `Poetry 锁定了 ${pkg} ${v}，但 PyPI 上没有它适用于这个平台或这个 Python 的文件。`,
  poetryCandidatesFix: (pkg) =>
    `在 pyproject.toml 里把 ${pkg} 限定到有这个平台和 Python 的 wheel 的版本（pip download ${pkg}==V --no-deps 可以看出有没有），或者收窄项目的 python 范围，然后重新 poetry lock。`,
  noSuchVersionMeaning: (pkg, v, newest) => `pip 没有适合这个 Python 和平台的 ${pkg} ${v}：pip 列出的版本里没有它（列出的最新版本是 ${newest}）。`,
  noSuchVersionFix: (pkg, newest) => `改成 pip 列出的版本，例如 pip install "${pkg}==${newest}"（cudawiz requirements --tf V 会显示每个版本支持的 Python）。`,
};

export const explainText = localized({ en, zh });
