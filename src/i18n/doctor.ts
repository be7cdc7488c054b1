// The doctor's words: finding titles, evidence labels and fixes, and the report around them. English
// and Chinese; file names, commands, versions and paths untouched. explain's words are in explain.ts.
import { localized } from './localized.js';

export { explainText } from './explain.js';

type Verdict = 'native' | 'ptx-jit' | 'unsupported' | 'unknown';

const en = {
  // ---------------------------------------------------------------- lists and labels shared by the checks
  /** A list of names, files, versions in a sentence. */
  list: (items: readonly (string | number)[]) => items.join(', '),
  /** Several fix sentences one after another. */
  sentences: (items: readonly string[]) => items.join(' '),
  /** A folder and how the loader reaches it (PATH, ld cache, conda env). */
  placeVia: (dir: string, via: string) => `${dir} (${via})`,
  /** The folders a library was seen in, first one first. */
  places: (items: readonly string[]) => items.join('; '),
  /** A label and what it names: a file and its folders, a folder and its files. */
  labelled: (label: string, what: string) => `${label}: ${what}`,
  emptyValue: '(empty)',

  // ---------------------------------------------------------------- GPU and driver (checks-gpu)
  gpuLine: (index: number, name: string, memory: string | undefined, cc: string | undefined, fromName: boolean) =>
    `GPU ${index}: ${name}${memory ? ` (${memory})` : ''}${cc ? `, compute capability ${cc}${fromName ? ' (from its name)' : ''}` : ''}`,
  kernelReports: (v: string) => `kernel module reports driver ${v}`,
  /** What nvidia-smi printed, quoted as it printed it (the garbage case arrives already in quotes). */
  smiSaid: (smi: string, said: string) => `${smi}: ${said}`,
  /** One GPU's verdict for the target TF. */
  gpuVerdict: (index: number, reason: string) => `GPU ${index}: ${reason}`,
  oneGpu: (name: string) => `NVIDIA GPU: ${name}`,
  manyGpus: (n: number) => `${n} NVIDIA GPUs`,
  smiNotFoundWindows: 'nvidia-smi.exe: not on PATH, not in System32, not in NVIDIA Corporation\\NVSMI',
  smiNotFound: 'nvidia-smi: not found',
  kernelFileAbsent: (file: string) => `${file}: absent (no NVIDIA kernel driver loaded)`,
  kernelButNoSmi: 'An NVIDIA kernel driver is loaded but nvidia-smi is missing',
  noDriverNoGpu: 'No NVIDIA driver, so no usable GPU, on this machine',
  kernelButNoSmiFix: 'Install the driver utilities that match the kernel module (e.g. the nvidia-utils package of the same version).',
  noDriverFix: (page: string) => `If this machine has an NVIDIA GPU, install its driver from ${page}; without one TensorFlow runs on the CPU only.`,
  smiNoDriver: 'nvidia-smi cannot talk to the NVIDIA driver',
  smiNoDriverFix: (page: string) => `Reinstall or reload the NVIDIA driver (${page}), reboot, and check that nvidia-smi lists the GPU.`,
  noDevices: 'The NVIDIA driver sees no GPU',
  noDevicesFix: 'Check that the GPU is seated and enabled (BIOS, hybrid-graphics setting, VM passthrough), then run nvidia-smi again.',
  smiGarbage: 'Could not collect the GPU list: nvidia-smi answered something unreadable',
  smiGarbageFix: 'Run nvidia-smi yourself; if it fails too, reinstall the NVIDIA driver.',
  useNativeTf: (tf: string, cc: string, name: string) => `Use TensorFlow ${tf}, the newest line with machine code for compute capability ${cc} (${name}): cudawiz requirements --tf ${tf} --gpu ${cc}`,
  gpuTooOldForCuda: (name: string, cuda: string) => `This GPU (${name}) is too old for CUDA ${cuda}`,
  gpuCannotRun: (name: string, tf: string) => `${name} cannot run TensorFlow ${tf}`,
  noTfForCc: (why: string, cc: string) => `${why}, and no TensorFlow release in the catalog has machine code for compute capability ${cc}; TensorFlow can only use the CPU here.`,
  /** gpuSupport's own reason in English; the Chinese says the same from its verdict. */
  ccReason: (reason: string, _verdict: Verdict, _tf: string, _cc: string) => reason,
  ccWillNotRun: (tf: string, names: string, ccs: string) => `TensorFlow ${tf} will not run on ${names} (compute capability ${ccs})`,
  ccSomeWillNotRun: (tf: string, names: string) => `TensorFlow ${tf} will not run on some GPUs here: ${names}`,
  ccSomeFix: (indexes: string) => `TensorFlow will skip them; set CUDA_VISIBLE_DEVICES to the supported GPUs (${indexes}) to silence its warnings.`,
  ccJit: (tf: string, names: string) => `TensorFlow ${tf} has no machine code for ${names}: its first start JIT-compiles PTX, which can take 30 minutes or more`,
  ccJitFix: (suggestion: string | undefined) =>
    `Set CUDA_CACHE_MAXSIZE=2147483648 in the environment so the driver keeps the compiled kernels after the first start${suggestion ? `; or switch: ${suggestion}` : '.'}`,
  /** gpuSupport's suggestion in English; the Chinese builds it from the TF it names. */
  ccSuggestion: (suggestion: string, _tf: string, _cc: string) => suggestion,
  ccUnknown: (names: string) => `Compute capability unknown for ${names}`,
  ccFieldMissing: 'this nvidia-smi does not know the compute_cap field (driver R470 or older)',
  ccUnknownFix: (cuda: string | undefined, min: string | undefined, tf: string) =>
    `Look the GPU up at https://developer.nvidia.com/cuda-gpus${min ? `: CUDA ${cuda} needs ${min} or newer` : ''}, then: cudawiz requirements --tf ${tf} --gpu CC`,
  ccArchUnknown: (ccs: string, cuda: string, tf: string) => `Compute capability ${ccs} is supported by CUDA ${cuda}; TensorFlow ${tf}'s GPU architectures are not in the catalog`,
  ccNative: (ccs: string, tf: string, cuda: string) => `Compute capability ${ccs}: TensorFlow ${tf} runs natively (CUDA ${cuda})`,
  noDriverVersion: 'No NVIDIA driver version to check',
  driverEvidence: (v: string, source: string | undefined) => `driver ${v} (${source})`,
  driverPlain: (v: string) => `NVIDIA driver ${v}`,
  driverOld: (v: string, cuda: string | null, min: string) => `NVIDIA driver ${v} is too old for CUDA ${cuda} (needs ${min} or newer)`,
  driverOldFix: (min: string, page: string) => `Update the display driver to ${min} or newer from ${page} (cudawiz never installs drivers), then reboot.`,
  driverOk: (v: string, min: string, cuda: string | null) => `NVIDIA driver ${v} ≥ ${min} (CUDA ${cuda})`,

  // ---------------------------------------------------------------- libraries (checks-libraries)
  addToPathWindows: (dir: string) => `Add ${dir} to PATH, before any other CUDA bin directory (System Properties → Environment Variables), then open a new terminal.`,
  addToPathLinux: (variable: string, dir: string, confDir: string) =>
    `export ${variable}=${dir}:$${variable}   (or, for everyone: echo ${dir} | sudo tee ${confDir}/cuda.conf && sudo ldconfig)`,
  wins: 'wins: ',
  /** How the loader reaches a folder, as the probe names it (also the --json value). */
  via: (via: string) => via,
  notCudaCopy: (owner: string, cuda: string | null) => `it is CUDA ${owner}'s copy, not CUDA ${cuda}'s`,
  condaCudaCopy: (conda: string, cuda: string | null) => `it is the conda env's CUDA ${conda} copy, not CUDA ${cuda}'s`,
  notCudnnVersion: (have: string, want: string) => `it is cuDNN ${have}, not ${want}`,
  olderCudnn: (have: string, want: string) => `it is cuDNN ${have}, older than ${want}`,
  offPath: (file: string, dir: string) => `${file} is in ${dir} but not on the library search path`,
  comesWithDriver: (page: string) => `It comes with the NVIDIA display driver: install one from ${page}.`,
  copyCudnnInto: (cudnn: string | null, cuda: string | null, tf: string) => `Copy cuDNN ${cudnn} into CUDA ${cuda}: cudawiz install --tf ${tf} --cudnn-archive FILE`,
  installCudaFor: (cuda: string | null, tf: string) => `Install CUDA ${cuda}: cudawiz install --tf ${tf}`,
  notFoundAnywhere: (file: string) => `${file} is not found anywhere`,
  lookedIn: (dirs: string) => `looked in: ${dirs || '(empty search path)'}`,
  /** A cuDNN of another major on the machine: it is there, and why TF cannot use it. */
  otherCudnn: (version: string, dir: string, file: string, tf: string) => `cuDNN ${version} is in ${dir}, but TensorFlow ${tf} loads ${file}: a cuDNN of another major does not serve it (it can stay)`,
  resolvesWrong: (file: string, dir: string, wrong: string, shadowing: boolean) => `${file} resolves to ${dir}, but ${wrong}${shadowing ? ' (shadowing the right copy)' : ''}`,
  installRight: (tf: string) => `Install the right one: cudawiz install --tf ${tf}`,
  resolves: (file: string, dir: string) => `${file} → ${dir}`,
  manyNotFound: (n: number, what: string, files: string) => `${n} ${what} libraries are not found anywhere: ${files}`,
  msvcMissing: (files: string) => `Microsoft C++ runtime missing: ${files}`,
  msvcFix: 'Install the Microsoft Visual C++ Redistributable for Visual Studio 2015–2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe',
  msvcOk: (files: string) => `Microsoft C++ runtime: ${files}`,
  zlibMissing: (cudnn: string, dll: string) => `cuDNN ${cudnn} needs ${dll} on PATH; none found`,
  zlibMissingFix: (dll: string) => `Put the 64-bit ${dll} (zlib123dllx64.zip from http://www.winimage.com/zLibDll/) into the CUDA bin folder.`,
  zlib32: (path: string, dll: string) => `${path} is 32-bit; cuDNN needs the 64-bit ${dll}`,
  zlib32Fix: 'Replace it with the x64 build (zlib123dllx64.zip from http://www.winimage.com/zLibDll/).',
  zlibOk: (dll: string, path: string, bits: number | undefined) => `${dll}: ${path}${bits ? ` (${bits}-bit)` : ''}`,

  // ---------------------------------------------------------------- toolkits and cuDNN (checks-toolkit, toolkit-lookup)
  describeToolkit: (version: string | undefined, path: string, aliases: string[], source: string | undefined) =>
    `CUDA ${version ?? '(version unknown)'} at ${path}${aliases.length ? ` (also ${aliases.join(', ')})` : ''}${source ? `, version from ${source}` : ''}`,
  unreadableToolkit: (path: string, error: string | undefined) => `Could not read the toolkit directory ${path} (${error})`,
  foundVia: (via: string) => `found via ${via}`,
  unreadableFix: (check: string) => `Check it: ${check}; run cudawiz as a user who can read it, or repair the broken link.`,
  copyHalfway: (path: string) => `A cudawiz cuDNN copy into ${path} stopped half-way`,
  copyState: (path: string, state: string) => `cudawiz's manifest in ${path} is in state "${state}"`,
  manifestState: (manifest: string, state: string) => `${manifest}: state "${state}"`,
  nvccOnPath: (path: string, release: string | undefined) => `nvcc on PATH: ${path} (release ${release ?? 'unknown'})`,
  noToolkit: 'No CUDA toolkit found',
  lookedUnder: (root: string) => `looked under ${root}, in CUDA_PATH*, CUDA_HOME and for nvcc on PATH`,
  has: (what: string) => `has: ${what || 'nothing TensorFlow loads'}`,
  partial: (toolkit: string, missing: string) => `${toolkit} is partial: no ${missing}`,
  partialFix: 'Fine for compiling with nvcc; TensorFlow needs a full toolkit of the version it was built for (cudawiz doctor --tf V says which).',
  installed: (toolkit: string) => `installed: ${toolkit}`,
  noToolkitUnder: (root: string) => `no toolkit under ${root}, in CUDA_PATH*, CUDA_HOME or on PATH`,
  cudaNotInstalled: (cuda: string, found: string | undefined) => `CUDA ${cuda} is not installed${found ? ` (found ${found})` : ''}`,
  installBeside: (cuda: string, many: boolean, install: string) => `Install CUDA ${cuda} beside ${many ? 'them' : 'it'}; nothing to uninstall — toolkits live side by side: ${install}`,
  installCuda: (cuda: string, install: string) => `Install CUDA ${cuda}: ${install}`,
  cudaInstalled: (cuda: string, paths: string) => `CUDA ${cuda} installed: ${paths}`,
  cudaFromRedist: (cuda: string, from: string, paths: string) => `CUDA ${cuda}'s libraries from CUDA ${from} (redist, same names): ${paths}`,
  redistSameNames: (toolkit: string, cuda: string) => `${toolkit} (redist, same library names as ${cuda})`,
  toolkitPartial: (version: string | undefined, path: string, missing: string) => `CUDA ${version} at ${path} is partial: no ${missing}`,
  reinstallCuda: (cuda: string, tf: string) => `Reinstall CUDA ${cuda} with its libraries: cudawiz install --tf ${tf}`,
  cudnnArchiveFix: (tf: string, file: string | undefined, page: string | undefined, cudnn: string | null, cuda: string, archivePage: string) =>
    `cudawiz install --tf ${tf} --cudnn-archive FILE, with FILE = ${file ? `${file} (log in at ${page})` : `cuDNN ${cudnn} for CUDA ${cuda} (${archivePage})`}`,
  toolkitAt: (version: string | undefined, path: string) => `CUDA ${version} at ${path}`,
  // ---------------------------------------------------------------- a driver whose kernel module is not loaded, or differs (checks-gpu)
  moduleNotLoaded: (v: string) => `NVIDIA driver ${v} is installed, but its kernel module is not loaded`,
  noModuleInProcModules: (file: string) => `lsmod (${file}): no nvidia module loaded`,
  userspaceLibrary: (library: string, v: string) => `driver ${v} from its library's file name: ${library}`,
  installedByDpkg: (pkg: string, v: string) => `installed by the package manager: ${pkg} ${v} (dpkg)`,
  installedByRpm: 'installed by the package manager (rpm)',
  installedByRunFile: (evidence: string) => `installed by NVIDIA's .run installer (${evidence})`,
  moduleFixDpkg: (v: string) =>
    `The driver comes from your package manager: load its kernel module, and do not install NVIDIA's .run over it. ` +
    `1. dkms status: nvidia ${v} must be "installed" for the running kernel (uname -r); 2. if it is not: sudo apt install linux-headers-$(uname -r), then sudo dkms autoinstall; ` +
    `3. sudo modprobe nvidia; 4. "Key was rejected by service" is Secure Boot refusing an unsigned module: sudo mokutil --import /var/lib/dkms/mok.pub, reboot and enrol the key; ` +
    `5. sudo dmesg | grep NVRM shows the module's own error; 6. after a kernel update, reboot into the new kernel.`,
  moduleFixRpm: (v: string) =>
    `The driver comes from your package manager: load its kernel module, and do not install NVIDIA's .run over it. ` +
    `1. sudo dnf install kernel-devel-$(uname -r); 2. rebuild it: sudo akmods --force (RPM Fusion) or sudo dkms autoinstall (NVIDIA's repository; dkms status shows nvidia ${v}); ` +
    `3. sudo modprobe nvidia; 4. "Key was rejected by service" is Secure Boot: enrol the module's signing key with mokutil and reboot; 5. sudo dmesg | grep NVRM shows the module's own error; 6. after a kernel update, reboot into the new kernel.`,
  moduleFixRunFile: (v: string) =>
    `The driver came from NVIDIA's .run installer, which builds its module for one kernel: rebuild it for this one with the same installer, ` +
    `sudo sh NVIDIA-Linux-x86_64-${v}.run --dkms (with --dkms, later kernel updates rebuild it by themselves); then sudo modprobe nvidia; ` +
    `sudo dmesg | grep NVRM shows the module's own error; "Key was rejected by service" is Secure Boot: sign and enrol the module (mokutil), or turn Secure Boot off.`,
  moduleFixUnknown: (v: string) =>
    `Load the driver's kernel module: sudo modprobe nvidia; dkms status shows whether nvidia ${v} was built for the running kernel (uname -r; headers for it are needed to build); ` +
    `sudo dmesg | grep NVRM shows the module's own error ("Key was rejected by service": Secure Boot, enrol the key with mokutil); after a kernel update, reboot into the new kernel.`,
  versionMismatch: (user: string, kernel: string) => `The NVIDIA driver's libraries (${user}) and its loaded kernel module (${kernel}) differ: upgraded without a reboot`,
  versionMismatchUnknown: 'The NVIDIA driver\'s libraries and its loaded kernel module differ: upgraded without a reboot',
  versionMismatchFix: 'Reboot, so the new kernel module is loaded (or, with no display or program using the GPU: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia). Do not reinstall the driver.',
  kernelModuleNotLoaded: 'kernel module not loaded',
  // ---------------------------------------------------------------- CUDA runtimes on the loader path (checks-runtime, runtime-serving)
  runtimeServes: (version: string, dir: string, file: string, tfs: string) => `CUDA ${version} runtime at ${dir} (${file}) serves TensorFlow ${tfs}`,
  runtimeServesNone: (version: string, dir: string, file: string) => `CUDA ${version} runtime at ${dir} (${file}) serves no TensorFlow in the catalog`,
  runtimeVersionUnknown: (dir: string, file: string) => `A CUDA runtime of unknown version at ${dir} (${file})`,
  runtimeFrom: (from: string, where: string | undefined) => `version from ${from}${where ? ` (${where})` : ''}`,
  servedExactly: (tfs: string, cuda: string) => `exactly: TensorFlow ${tfs} (built with CUDA ${cuda})`,
  servedByMinorCompat: (tfs: string, cuda: string, major: number, driver: string | undefined) =>
    `by CUDA ${major} minor-version compatibility: TensorFlow ${tfs} (built with CUDA ${cuda})${driver ? `; needs driver ${driver} or newer` : ''}`,
  notServedMissing: (tfs: string, cuda: string, files: string) => `not TensorFlow ${tfs} (built with CUDA ${cuda}): no ${files}`,
  eachNeedsCudnn: 'each also needs the cuDNN its row names (cudawiz doctor --tf V checks it)',
  range: (first: string, last: string) => `${first}–${last}`,
  cudaByMinorCompat: (cuda: string, from: string, paths: string, driver: string | undefined) =>
    `CUDA ${cuda}'s libraries from CUDA ${from} (same library names, CUDA minor-version compatibility${driver ? `: driver ${driver} or newer` : ''}): ${paths}`,
  // ---------------------------------------------------------------- src/verify/nvcc.ts (#33: never run what others can change)
  notRunUntrusted: (program: string, writable: string) => `${program} not run: ${writable} is writable by other users`,
  versionFrom: (source: string | undefined, release: string | undefined) => `release ${release ?? 'unknown'}${source ? ` (from ${source})` : ''}`,
  wheelsCuda: (cuda: string) => `CUDA ${cuda} comes from pip's nvidia-* wheels (tensorflow[and-cuda]); no toolkit needed`,
  inWheels: (file: string, where: string | undefined) => `${file}: in ${where ?? 'the Python environment'}'s nvidia wheels`,
  wheelCudnnWhere: "pip's nvidia-cudnn wheel",
  wheelMetadata: 'nvidia-cudnn wheel metadata',
  cudnnElsewhere: (have: string, path: string) => `elsewhere: cuDNN ${have} in ${path}`,
  noCudnnIn: (where: string, tf: string, want: string) => `No cuDNN in ${where} (TensorFlow ${tf} needs cuDNN ${want})`,
  cudnnIn: (have: string, path: string, header: string | undefined) => `cuDNN ${have} in ${path}${header ? ` (${header})` : ''}`,
  cudnnWrongMajor: (have: string, where: string, tf: string, want: string) => `cuDNN ${have} in ${where} is the wrong major: TensorFlow ${tf} needs cuDNN ${want}`,
  cudnnNoHeader: (m: number | undefined, where: string, want: string) => `cuDNN ${m}.x in ${where}: no version header to check the minor against ${want}`,
  cudnnOlder: (have: string, where: string, want: string, tf: string) => `cuDNN ${have} in ${where} is older than the ${want} TensorFlow ${tf} needs`,
  cudnnOk: (have: string, where: string, want: string) => `cuDNN ${have} in ${where} (needs ${want})`,

  // ---------------------------------------------------------------- pip wheels (checks-pip)
  loadsNone: (file: string) => `${file}: the loader finds no copy`,
  loadsFrom: (file: string, dir: string | undefined, wheel: boolean, via: string | undefined) => `${file} → ${dir} (${wheel ? 'wheel' : 'system'}, via ${via})`,
  loaderPathOk: (script: string | undefined) => `The wheel library folders are on the loader path (cudawiz's block in ${script})`,
  loaderPathMissing: (tf: string, n: number) => `TensorFlow ${tf} will not find its pip-installed CUDA libraries: ${n} wheel folder(s) are not on LD_LIBRARY_PATH`,
  notSearched: (dir: string) => `not searched: ${dir}`,
  andMore: (n: number) => `… and ${n} more`,
  loaderPathFix: (command: string, script: string | undefined) => `${command}   (adds them to ${script}; to undo, delete cudawiz's marked block there)`,
  addToProfile: (blocker: string, lines: string) => `${blocker} Add these lines to your shell profile:\n${lines}`.trim(),
  inVenv: (python: string, venv: string | undefined) => `${python}${venv ? ` (virtual environment ${venv})` : ''}`,
  nWheels: (n: number) => `${n} nvidia-* wheels`,
  loadsFromSystem: (files: string, where: string) => `TensorFlow loads ${files} from the system, not from the pip wheels in ${where}`,
  wheelsFirst: (command: string) => `Put the wheel folders first: ${command}`,
  wheelsFirstByHand: (dir: string | undefined) => `Put ${dir ?? 'the wheel folders'} (and the other nvidia/*/lib folders) first on LD_LIBRARY_PATH.`,
  noCopy: (files: string) => `The loader finds no copy of ${files}`,
  reinstallWheels: (venvBin: string, tf: string) => `Reinstall the wheels: ${venvBin}pip install --force-reinstall "tensorflow[and-cuda]==${tf}"`,
  fromWheels: (versions: string, venv: string | undefined, offPath: boolean) =>
    `${versions || 'CUDA'} from pip's nvidia-* wheels${venv ? ` in ${venv}` : ''}${offPath ? ' — off the loader path (see wheel-loader-path)' : '; TensorFlow loads them from the wheels'}`,

  // ---------------------------------------------------------------- Python, TensorFlow, native Windows (checks-python, target)
  noPython: 'No Python interpreter found',
  installPython: 'Install 64-bit Python (or pass --python PATH).',
  pythonNoVersion: (command: string | undefined) => `Could not ask ${command} for its version`,
  pythonNoVersionFix: 'Run it yourself, or pass another interpreter with --python PATH.',
  python32: (v: string) => `Python ${v} is 32-bit; TensorFlow needs 64-bit Python`,
  python32Fix: 'Install the 64-bit Python from python.org and use it for TensorFlow.',
  pythonPlain: (v: string, bits: number | undefined) => `Python ${v} (${bits ?? '?'}-bit)`,
  pythonOutside: (v: string, tf: string, min: string, max: string) => `Python ${v} is outside TensorFlow ${tf}'s range ${min}–${max}`,
  pythonOutsideFix: (max: string, pip: string) => `Install Python ${max} (64-bit) and make a virtual environment with it, then: pip install ${pip}`,
  pythonOk: (v: string, bits: number | undefined, min: string, max: string) => `Python ${v} (${bits ?? '?'}-bit) within ${min}–${max}`,
  tfFor: (pkg: string, v: string, command: string | undefined) => `${pkg} ${v} for ${command}`,
  tfOther: (installed: string, tf: string) => `pip has TensorFlow ${installed}, but you are checking for ${tf}`,
  tfOtherFix: (tf: string) => `pip install "tensorflow==${tf}.*", or run cudawiz doctor without --tf to check the installed one.`,
  tfNoImport: (v: string) => `TensorFlow ${v} is installed but does not import`,
  tfNoImportFix: 'Read the import error above; the findings below usually name the missing piece.',
  tfImports: (v: string) => `TensorFlow ${v} imports`,
  wslStep: (i: number, step: string) => `WSL2 step ${i}: ${step}`,
  nativeOk: (tf: string) => `TensorFlow ${tf} supports the GPU on native Windows`,
  nativeNo: (tf: string, last: string) => `TensorFlow ${tf} has no GPU support on native Windows (the last was ${last})`,
  /** One of the ways out on native Windows: its title and what it means. */
  alternative: (title: string, detail: string) => `${title}: ${detail}`,
  nativeNoFix: 'Use WSL2: install Ubuntu under WSL2 and run cudawiz there (the steps above) — TensorFlow inside WSL2 uses this Windows driver. Or stay native with pip install "tensorflow<2.11".',
  noTfPython: (command: string | undefined, v: string | undefined) => `TensorFlow is not installed for ${command} (Python ${v})`,
  noPythonFound: 'no Python interpreter was found',
  noTarget: 'No TensorFlow version to check against: the TensorFlow checks are skipped',
  noTargetFix: 'Say which TensorFlow you want: cudawiz doctor --tf 2.10 (cudawiz requirements --tf V shows what each needs)',
  rowOf: (row: string) => `, row ${row}`,
  /** A headline and where the version it speaks of came from (--tf, the pip-installed one). */
  withSource: (headline: string, source: string) => `${headline} (${source})`,
  checkingFor: (v: string, source: string, row: string) => `Checking for TensorFlow ${v} (${source}${row})`,
  unknownTf: (v: string, source: string) => `cudawiz does not know TensorFlow ${v} (${source})`,
  passKnown: 'Pass a known version with --tf',
  unknownPipTfFix: (pkg: string) => `Check which TensorFlow this Python has (pip show ${pkg}); to check against another, pass it: cudawiz doctor --tf 2.10`,

  // ---------------------------------------------------------------- WSL (checks-wsl)
  wslKernel: (k: string) => `kernel ${k}`,
  wslWindows: (version: string, source: string | undefined) => `Windows ${version} (from ${source})`,
  wslBuild: (b: number) => `build ${b}`,
  wslNoBuild: 'Windows build: could not be read (no interop)',
  wslLibcuda: (path: string) => `${path}: the Windows driver's libcuda`,
  wslSmi: (smi: string, driver: string | undefined) => `${smi}${driver ? `: Windows driver ${driver}` : ''}`,
  wsl1: (distro: string | undefined) => `${distro ?? 'This distribution'} runs under WSL 1, which has no GPU access`,
  wslOk: (version: number | undefined, distro: string | undefined, driver: string | undefined) =>
    `Inside WSL ${version ?? '(version unknown)'}${distro ? ` (${distro})` : ''}: the GPU driver is Windows'${driver ? ` (${driver})` : ''}`,
  wslDriverFixDefault: 'Update the NVIDIA driver on Windows, not inside WSL.',
  wslDriverMin: (fix: string, min: string, page: string) => `${fix} It must be ${min} or newer: ${page}`,
  wslDriverPage: (fix: string, page: string) => `${fix} (${page})`,
  wslNoDriverVersion: "No Windows NVIDIA driver version to check (WSL's nvidia-smi reported none)",
  wslDriverEvidence: (v: string, source: string) => `Windows driver ${v} (${source})`,
  wslSmiInside: (smi: string | undefined) => `${smi} inside WSL`,
  wslSmiVersion: (v: string) => `NVIDIA-SMI ${v} is WSL's own tool version, not the driver's`,
  wslDriverPlain: (v: string) => `Windows NVIDIA driver ${v} (used through WSL)`,
  wslDriverOld: (v: string, cuda: string, min: string) => `Windows NVIDIA driver ${v} is too old for CUDA ${cuda} (needs ${min} or newer)`,
  wslDriverOk: (v: string, min: string, cuda: string) => `Windows NVIDIA driver ${v} ≥ ${min} (CUDA ${cuda}, used through WSL)`,
  wslNoSmi: 'No NVIDIA driver from Windows inside WSL, so no usable GPU',
  wslSmiMissing: (dir: string) => `nvidia-smi: not on PATH and not in ${dir}`,

  // ---------------------------------------------------------------- conda (checks-conda)
  condaToolkit: (cuda: string, env: string, pkg: string, version: string) => `CUDA ${cuda} comes from the conda env ${env} (${pkg} ${version}); no toolkit needed`,
  condaWhere: (env: string) => `the conda env ${env}`,
  /** What the env carries: "CUDA 10.1.243 (cudatoolkit)". */
  condaCarry: (what: string, version: string, pkg: string) => `${what} ${version} (${pkg})`,
  condaUnreadable: (name: string) => `Could not read the conda env ${name}: its conda-meta folder`,
  condaUnreadableFix: 'Check CONDA_PREFIX names an environment (conda info --envs), or deactivate it: conda deactivate',
  condaNoLibraries: 'no CUDA libraries',
  condaSystemToolkit: (version: string, path: string) => `system toolkit: CUDA ${version} at ${path}`,
  condaCarries: (name: string, prefix: string, carries: string[]) => `Conda env ${name}${name === prefix ? '' : ` (${prefix})`} carries ${carries.join(' and ')}; TensorFlow in it loads these first`,
  condaNoCuda: (name: string, prefix: string) => `Conda env ${name}${name === prefix ? '' : ` (${prefix})`}: no CUDA packages (cudatoolkit, cuda-cudart, cudnn)`,
  condaDriverEvidence: (driver: string, pkg: string, version: string) => `driver ${driver}; the env's ${pkg} ${version}`,
  condaSystemRuns: (version: string, path: string) => `the system's CUDA ${version} at ${path} runs on this driver, but the env's copy comes first`,
  condaDriverUpdate: (min: string, page: string) => `Update the NVIDIA driver to ${min} or newer from ${page} (cudawiz never installs drivers)`,
  condaDriverFix: (update: string, pkg: string, fits: string) => `${update.replace(/\.$/, '')}; or give the env a CUDA this driver runs: conda install ${pkg}=${fits}`,
  condaDriverOld: (driver: string, cuda: string, min: string) => `NVIDIA driver ${driver} is too old for the conda env's CUDA ${cuda} (needs ${min} or newer)`,
  condaDriverOk: (driver: string, cuda: string, min: string) => `NVIDIA driver ${driver} runs the conda env's CUDA ${cuda} (needs ${min})`,
  condaShadows: (files: string[], dir: string, others: string[]) => `The conda env's ${files.join(', ')} come first (${dir}), before the copies in ${others.join(', ')}`,
  condaShadowsFix: (packages: string) => `Nothing to do if the env's versions are the ones TensorFlow needs; to use the system's instead, remove them from the env (conda remove ${packages}) or conda deactivate.`,

  // ---------------------------------------------------------------- the report (commands/doctor)
  summary: (fails: number, warns: number) => `${fails} problem${fails === 1 ? '' : 's'}, ${warns} warning${warns === 1 ? '' : 's'}.`,
  nothingToFix: 'Nothing to fix.',
  shareIntro: 'To share this, paste the block below:',
  shareNone: 'none',
  shareNotInstalled: 'not installed',
  /** The share block's values (its keys, os: gpus: …, stay as they are). */
  shareCc: (cc: string) => ` (cc ${cc})`,
  shareNoParts: (parts: string) => ` (no ${parts})`,
  shareBits: (bits: number | null) => `${bits}-bit`,
  shareIn: (what: string, where: string) => `${what} (${where})`,
  shareWsl: (version: string, windows: string, driver: string) => `${version}, Windows ${windows}, Windows driver ${driver}`,
  sharePip: (cuda: string, cudnn: string) => `${cuda}, cudnn ${cudnn}`,
  shareConda: (cuda: string, cudnn: string) => `cuda ${cuda}, cudnn ${cudnn}`,
};

type DoctorStrings = typeof en;

const VIA_ZH: Record<string, string> = {
  'toolkit (not on the search path)': 'CUDA Toolkit，不在搜索路径上',
  'conda env': 'conda 环境',
  'pip wheel': 'pip 包',
  'ld cache': 'ld 缓存',
};

const VERDICT_ZH: Record<Verdict, (tf: string, cc: string) => string> = {
  native: (tf, cc) => `TensorFlow ${tf} 带有能在计算能力 ${cc} 上运行的机器码。`,
  'ptx-jit': (tf, cc) => `TensorFlow ${tf} 没有计算能力 ${cc} 的机器码；显卡驱动会在第一次启动时编译 PTX，可能要 30 分钟以上（设置环境变量 CUDA_CACHE_MAXSIZE=2147483648 让驱动缓存结果）。`,
  unsupported: (tf, cc) => `TensorFlow ${tf} 不能在计算能力 ${cc} 上运行。`,
  unknown: (tf) => `目录数据里没有 TensorFlow ${tf} 的 wheel 编译时支持的 GPU 架构。`,
};

/** "X 里": a space after a path or name, none after a Chinese word ("pip 的 nvidia-cudnn 包里"). */
const inside = (where: string) => (/[\u4e00-\u9fff]$/.test(where) ? `${where}里` : `${where} 里`);

const WINDOWS_BUILD_SOURCE_ZH: Record<string, string> = {
  'cmd.exe ver': '取自 cmd.exe 的 ver 命令',
  'kernel release': '根据内核版本号推断',
};

const zh: DoctorStrings = {
  list: (items) => items.join('、'),
  sentences: (items) => items.join(''),
  placeVia: (dir, via) => `${dir}（${via}）`,
  places: (items) => items.join('；'),
  labelled: (label, what) => `${label}：${what}`,
  emptyValue: '（空）',

  gpuLine: (index, name, memory, cc, fromName) => `GPU ${index}：${name}${memory ? `（${memory}）` : ''}${cc ? `，计算能力 ${cc}${fromName ? '（根据型号推断）' : ''}` : ''}`,
  kernelReports: (v) => `内核模块报告的显卡驱动版本为 ${v}`,
  smiSaid: (smi, said) => `${smi} 的输出：${/^".*"$/.test(said) ? said : `"${said}"`}`,
  gpuVerdict: (index, reason) => `GPU ${index}：${reason}`,
  oneGpu: (name) => `NVIDIA GPU：${name}`,
  manyGpus: (n) => `${n} 块 NVIDIA GPU`,
  smiNotFoundWindows: 'nvidia-smi.exe：PATH、System32 和 NVIDIA Corporation\\NVSMI 里都没有',
  smiNotFound: 'nvidia-smi：找不到',
  kernelFileAbsent: (file) => `${file}：不存在（没有加载 NVIDIA 内核驱动）`,
  kernelButNoSmi: '已加载 NVIDIA 内核驱动，但缺少 nvidia-smi',
  noDriverNoGpu: '这台机器没有 NVIDIA 显卡驱动，所以没有可用的 GPU',
  kernelButNoSmiFix: '安装与内核模块版本一致的驱动工具（例如同版本的 nvidia-utils 软件包）。',
  noDriverFix: (page) => `如果这台机器有 NVIDIA GPU，从 ${page} 安装显卡驱动；没有显卡驱动，TensorFlow 只能用 CPU。`,
  smiNoDriver: 'nvidia-smi 无法和 NVIDIA 显卡驱动通信',
  smiNoDriverFix: (page) => `重新安装或重新加载 NVIDIA 显卡驱动（${page}），重启，然后确认 nvidia-smi 能列出 GPU。`,
  noDevices: 'NVIDIA 显卡驱动看不到任何 GPU',
  noDevicesFix: '检查 GPU 是否插好并已启用（BIOS、双显卡切换设置、虚拟机直通），然后再运行一次 nvidia-smi。',
  smiGarbage: '无法获取 GPU 列表：nvidia-smi 的输出无法解析',
  smiGarbageFix: '自己运行一次 nvidia-smi；如果也失败，请重新安装 NVIDIA 显卡驱动。',
  useNativeTf: (tf, cc, name) => `改用 TensorFlow ${tf}，这是带有计算能力 ${cc} 机器码的最新版本线（${name}）：cudawiz requirements --tf ${tf} --gpu ${cc}`,
  gpuTooOldForCuda: (name, cuda) => `这块 GPU（${name}）对 CUDA ${cuda} 来说太旧了`,
  gpuCannotRun: (name, tf) => `${name} 跑不了 TensorFlow ${tf}`,
  noTfForCc: (why, cc) => `${why}，而且目录数据里没有哪个 TensorFlow 版本带有计算能力 ${cc} 的机器码；这里 TensorFlow 只能用 CPU。`,
  ccReason: (_reason, verdict, tf, cc) => VERDICT_ZH[verdict](tf, cc),
  ccWillNotRun: (tf, names, ccs) => `TensorFlow ${tf} 不能在 ${names} 上运行（计算能力 ${ccs}）`,
  ccSomeWillNotRun: (tf, names) => `TensorFlow ${tf} 不能在这里的部分 GPU 上运行：${names}`,
  ccSomeFix: (indexes) => `TensorFlow 会跳过它们；把环境变量 CUDA_VISIBLE_DEVICES 设为支持的 GPU（${indexes}）即可消除警告。`,
  ccJit: (tf, names) => `TensorFlow ${tf} 没有 ${names} 的机器码：第一次启动时要 JIT 编译 PTX，可能要 30 分钟以上`,
  ccJitFix: (suggestion) => `设置环境变量 CUDA_CACHE_MAXSIZE=2147483648，让显卡驱动在第一次启动后保留编译好的内核${suggestion ? `；或者换用：${suggestion}` : '。'}`,
  ccSuggestion: (_s, tf, cc) => `TensorFlow ${tf} 带有计算能力 ${cc} 的机器码。`,
  ccUnknown: (names) => `不知道 ${names} 的计算能力`,
  ccFieldMissing: '这个 nvidia-smi 不认识 compute_cap 字段（显卡驱动 R470 或更旧）',
  ccUnknownFix: (cuda, min, tf) => `在 https://developer.nvidia.com/cuda-gpus 查一下这块 GPU${min ? `：CUDA ${cuda} 需要 ${min} 或更高` : ''}，然后运行：cudawiz requirements --tf ${tf} --gpu CC`,
  ccArchUnknown: (ccs, cuda, tf) => `CUDA ${cuda} 支持计算能力 ${ccs}；目录数据里没有 TensorFlow ${tf} 支持的 GPU 架构`,
  ccNative: (ccs, tf, cuda) => `计算能力 ${ccs}：TensorFlow ${tf} 可以原生运行（CUDA ${cuda}）`,
  noDriverVersion: '没有可检查的 NVIDIA 显卡驱动版本',
  driverEvidence: (v, source) => `显卡驱动 ${v}（${source}）`,
  driverPlain: (v) => `NVIDIA 显卡驱动 ${v}`,
  driverOld: (v, cuda, min) => `NVIDIA 显卡驱动 ${v} 对 CUDA ${cuda} 来说太旧了（需要 ${min} 或更新）`,
  driverOldFix: (min, page) => `从 ${page} 把显卡驱动更新到 ${min} 或更新（cudawiz 从不安装显卡驱动），然后重启。`,
  driverOk: (v, min, cuda) => `NVIDIA 显卡驱动 ${v} ≥ ${min}（CUDA ${cuda}）`,

  addToPathWindows: (dir) => `把 ${dir} 加入环境变量 PATH，放在其他 CUDA bin 目录之前（系统属性 → 环境变量），然后重新打开终端。`,
  addToPathLinux: (variable, dir, confDir) => `export ${variable}=${dir}:$${variable}   （或者对所有用户生效：echo ${dir} | sudo tee ${confDir}/cuda.conf && sudo ldconfig）`,
  wins: '生效：',
  via: (via) => VIA_ZH[via] ?? via,
  notCudaCopy: (owner, cuda) => `这是 CUDA ${owner} 的副本，不是 CUDA ${cuda} 的`,
  condaCudaCopy: (conda, cuda) => `这是 conda 环境里 CUDA ${conda} 的副本，不是 CUDA ${cuda} 的`,
  notCudnnVersion: (have, want) => `这是 cuDNN ${have}，不是 ${want}`,
  olderCudnn: (have, want) => `这是 cuDNN ${have}，比 ${want} 旧`,
  offPath: (file, dir) => `${file} 在 ${dir} 里，但不在动态链接库搜索路径上`,
  comesWithDriver: (page) => `它随 NVIDIA 显卡驱动提供：从 ${page} 安装显卡驱动。`,
  copyCudnnInto: (cudnn, cuda, tf) => `把 cuDNN ${cudnn} 复制到 CUDA ${cuda} 里：cudawiz install --tf ${tf} --cudnn-archive FILE`,
  installCudaFor: (cuda, tf) => `安装 CUDA ${cuda}：cudawiz install --tf ${tf}`,
  notFoundAnywhere: (file) => `哪里都找不到 ${file}`,
  lookedIn: (dirs) => `查找过：${dirs || '（搜索路径为空）'}`,
  otherCudnn: (version, dir, file, tf) => `${dir} 里有 cuDNN ${version}，但 TensorFlow ${tf} 加载的是 ${file}：另一个大版本的 cuDNN 替代不了它（它可以留着）`,
  resolvesWrong: (file, dir, wrong, shadowing) => `${file} 解析到 ${dir}，但${wrong}${shadowing ? '（挡住了正确的那份）' : ''}`,
  installRight: (tf) => `安装正确的版本：cudawiz install --tf ${tf}`,
  resolves: (file, dir) => `${file} → ${dir}`,
  manyNotFound: (n, what, files) => `${n} 个 ${what} 动态链接库哪里都找不到：${files}`,
  msvcMissing: (files) => `缺少 Microsoft C++ 运行库：${files}`,
  msvcFix: '安装 Microsoft Visual C++ Redistributable for Visual Studio 2015–2022（x64）：https://aka.ms/vs/17/release/vc_redist.x64.exe',
  msvcOk: (files) => `Microsoft C++ 运行库：${files}`,
  zlibMissing: (cudnn, dll) => `cuDNN ${cudnn} 需要 PATH 里有 ${dll}；没有找到`,
  zlibMissingFix: (dll) => `把 64 位的 ${dll}（http://www.winimage.com/zLibDll/ 上的 zlib123dllx64.zip）放进 CUDA 的 bin 目录。`,
  zlib32: (path, dll) => `${path} 是 32 位的；cuDNN 需要 64 位的 ${dll}`,
  zlib32Fix: '换成 x64 版本（http://www.winimage.com/zLibDll/ 上的 zlib123dllx64.zip）。',
  zlibOk: (dll, path, bits) => `${dll}：${path}${bits ? `（${bits} 位）` : ''}`,

  describeToolkit: (version, path, aliases, source) =>
    `CUDA ${version ?? '（版本未知）'}，位于 ${path}${aliases.length ? `（也叫 ${aliases.join('、')}）` : ''}${source ? `，版本取自 ${VERSION_SOURCE_ZH[source] ?? source}` : ''}`,
  unreadableToolkit: (path, error) => `读不了 CUDA Toolkit 目录 ${path}（${error}）`,
  foundVia: (via) => `发现途径：${via}`,
  unreadableFix: (check) => `检查一下：${check}；用能读取它的用户运行 cudawiz，或者修复损坏的链接。`,
  copyHalfway: (path) => `cudawiz 往 ${path} 复制 cuDNN 时中途停止了`,
  copyState: (path, state) => `${path} 里 cudawiz 的清单处于 "${state}" 状态`,
  manifestState: (manifest, state) => `${manifest}：状态 "${state}"`,
  nvccOnPath: (path, release) => `PATH 里的 nvcc：${path}（release ${release ?? '未知'}）`,
  noToolkit: '没有找到 CUDA Toolkit',
  lookedUnder: (root) => `查找过 ${root}、CUDA_PATH*、CUDA_HOME 和 PATH 里的 nvcc`,
  has: (what) => `包含：${what || '没有 TensorFlow 要加载的库'}`,
  partial: (toolkit, missing) => `${toolkit}（不完整：缺少 ${missing}）`,
  partialFix: '用 nvcc 编译没问题；TensorFlow 需要它编译时所用版本的完整 CUDA Toolkit（cudawiz doctor --tf V 会告诉你是哪个）。',
  installed: (toolkit) => `已安装：${toolkit}`,
  noToolkitUnder: (root) => `${root}、CUDA_PATH*、CUDA_HOME 和 PATH 里都没有 CUDA Toolkit`,
  cudaNotInstalled: (cuda, found) => `没有安装 CUDA ${cuda}${found ? `（找到的是 ${found}）` : ''}`,
  installBeside: (cuda, _many, install) => `在旁边再装一个 CUDA ${cuda}；不用卸载任何东西——多个 CUDA Toolkit 可以并存：${install}`,
  installCuda: (cuda, install) => `安装 CUDA ${cuda}：${install}`,
  cudaInstalled: (cuda, paths) => `已安装 CUDA ${cuda}：${paths}`,
  cudaFromRedist: (cuda, from, paths) => `CUDA ${cuda} 所需的动态链接库来自 CUDA ${from}（redist 组件包，文件名相同）：${paths}`,
  redistSameNames: (toolkit, cuda) => `${toolkit}（redist 组件包，动态链接库名与 ${cuda} 相同）`,
  toolkitPartial: (version, path, missing) => `${path} 的 CUDA ${version} 不完整：缺少 ${missing}`,
  reinstallCuda: (cuda, tf) => `重新安装带全部库的 CUDA ${cuda}：cudawiz install --tf ${tf}`,
  cudnnArchiveFix: (tf, file, page, cudnn, cuda, archivePage) =>
    `cudawiz install --tf ${tf} --cudnn-archive FILE，FILE 是 ${file ? `${file}（在 ${page} 登录 NVIDIA 开发者账号后下载）` : `适配 CUDA ${cuda} 的 cuDNN ${cudnn}（${archivePage}）`}`,
  toolkitAt: (version, path) => `${path} 的 CUDA ${version}`,
  moduleNotLoaded: (v) => `已安装 NVIDIA 显卡驱动 ${v}，但它的内核模块没有加载`,
  noModuleInProcModules: (file) => `lsmod（${file}）：没有加载任何 nvidia 模块`,
  userspaceLibrary: (library, v) => `显卡驱动 ${v}，取自驱动库的文件名：${library}`,
  installedByDpkg: (pkg, v) => `由软件包管理器安装：${pkg} ${v}（dpkg）`,
  installedByRpm: '由软件包管理器安装（rpm）',
  installedByRunFile: (evidence) => `由 NVIDIA 的 .run 安装程序安装（${evidence}）`,
  moduleFixDpkg: (v) =>
    `显卡驱动来自软件包管理器：请加载它的内核模块，不要再用 NVIDIA 的 .run 覆盖安装。` +
    `1. dkms status：nvidia ${v} 对当前内核（uname -r）应显示为 "installed"；2. 如果不是：sudo apt install linux-headers-$(uname -r)，然后 sudo dkms autoinstall；` +
    `3. sudo modprobe nvidia；4. 出现 "Key was rejected by service" 说明安全启动（Secure Boot）拒绝了未签名的模块：sudo mokutil --import /var/lib/dkms/mok.pub，重启并登记密钥；` +
    `5. sudo dmesg | grep NVRM 能看到模块自己的报错；6. 内核更新之后，要重启进入新内核。`,
  moduleFixRpm: (v) =>
    `显卡驱动来自软件包管理器：请加载它的内核模块，不要再用 NVIDIA 的 .run 覆盖安装。` +
    `1. sudo dnf install kernel-devel-$(uname -r)；2. 重新编译：sudo akmods --force（RPM Fusion），或 sudo dkms autoinstall（NVIDIA 的软件源；dkms status 会列出 nvidia ${v}）；` +
    `3. sudo modprobe nvidia；4. 出现 "Key was rejected by service" 说明是安全启动（Secure Boot）：用 mokutil 登记模块的签名密钥并重启；5. sudo dmesg | grep NVRM 能看到模块自己的报错；6. 内核更新之后，要重启进入新内核。`,
  moduleFixRunFile: (v) =>
    `显卡驱动是用 NVIDIA 的 .run 安装程序装的，它只为一个内核编译模块：请用同一个安装程序为当前内核重新编译，` +
    `sudo sh NVIDIA-Linux-x86_64-${v}.run --dkms（加上 --dkms，以后内核更新会自动重新编译）；然后 sudo modprobe nvidia；` +
    `sudo dmesg | grep NVRM 能看到模块自己的报错；出现 "Key was rejected by service" 说明是安全启动（Secure Boot）：给模块签名并用 mokutil 登记，或者关闭安全启动。`,
  moduleFixUnknown: (v) =>
    `加载显卡驱动的内核模块：sudo modprobe nvidia；dkms status 能看出 nvidia ${v} 是否为当前内核（uname -r）编译过（编译需要这个内核的头文件）；` +
    `sudo dmesg | grep NVRM 能看到模块自己的报错（"Key was rejected by service"：安全启动，用 mokutil 登记密钥）；内核更新之后，要重启进入新内核。`,
  versionMismatch: (user, kernel) => `NVIDIA 显卡驱动的库（${user}）和已加载的内核模块（${kernel}）版本不一致：升级后还没有重启`,
  versionMismatchUnknown: 'NVIDIA 显卡驱动的库和已加载的内核模块版本不一致：升级后还没有重启',
  versionMismatchFix: '重启，让新的内核模块加载（如果没有显示器或程序在用这块 GPU，也可以：sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia）。不要重装显卡驱动。',
  kernelModuleNotLoaded: '内核模块没有加载',
  runtimeServes: (version, dir, file, tfs) => `${dir} 里的 CUDA ${version} 运行库（${file}）可供 TensorFlow ${tfs} 使用`,
  runtimeServesNone: (version, dir, file) => `${dir} 里的 CUDA ${version} 运行库（${file}）不能供目录数据里的任何 TensorFlow 使用`,
  runtimeVersionUnknown: (dir, file) => `${dir} 里有一个版本未知的 CUDA 运行库（${file}）`,
  runtimeFrom: (from, where) => `版本取自 ${VERSION_SOURCE_ZH[from] ?? RUNTIME_FROM_ZH[from] ?? from}${where ? `（${where}）` : ''}`,
  servedExactly: (tfs, cuda) => `版本完全一致：TensorFlow ${tfs}（用 CUDA ${cuda} 编译）`,
  servedByMinorCompat: (tfs, cuda, major, driver) =>
    `靠 CUDA ${major} 的小版本兼容：TensorFlow ${tfs}（用 CUDA ${cuda} 编译）${driver ? `；显卡驱动至少要 ${driver}` : ''}`,
  notServedMissing: (tfs, cuda, files) => `不能用于 TensorFlow ${tfs}（用 CUDA ${cuda} 编译）：缺少 ${files}`,
  eachNeedsCudnn: '每个版本还需要它那一行写明的 cuDNN（cudawiz doctor --tf V 会检查）',
  range: (first, last) => `${first}–${last}`,
  cudaByMinorCompat: (cuda, from, paths, driver) =>
    `CUDA ${cuda} 所需的动态链接库来自 CUDA ${from}（文件名相同，靠 CUDA 小版本兼容${driver ? `：显卡驱动至少要 ${driver}` : ''}）：${paths}`,
  notRunUntrusted: (program, writable) => `没有运行 ${program}：${writable} 可被其他用户写入`,
  versionFrom: (source, release) => `release ${release ?? '未知'}${source ? `（取自 ${VERSION_SOURCE_ZH[source] ?? source}）` : ''}`,
  wheelsCuda: (cuda) => `CUDA ${cuda} 来自 pip 的 nvidia-* 包（tensorflow[and-cuda]）；不需要安装 CUDA Toolkit`,
  inWheels: (file, where) => `${file}：在 ${where ?? '这个 Python 环境'} 的 nvidia 包里`,
  wheelCudnnWhere: 'pip 的 nvidia-cudnn 包',
  wheelMetadata: 'nvidia-cudnn 包的元数据',
  cudnnElsewhere: (have, path) => `别处：${path} 里的 cuDNN ${have}`,
  noCudnnIn: (where, tf, want) => `${inside(where)}没有 cuDNN（TensorFlow ${tf} 需要 cuDNN ${want}）`,
  cudnnIn: (have, path, header) => `${path} 里的 cuDNN ${have}${header ? `（${header}）` : ''}`,
  cudnnWrongMajor: (have, where, tf, want) => `${inside(where)}的 cuDNN ${have} 主版本号不对：TensorFlow ${tf} 需要 cuDNN ${want}`,
  cudnnNoHeader: (m, where, want) => `${inside(where)}的 cuDNN ${m}.x：没有版本头文件，无法确认次版本号是否满足 ${want}`,
  cudnnOlder: (have, where, want, tf) => `${inside(where)}的 cuDNN ${have} 比 TensorFlow ${tf} 需要的 ${want} 旧`,
  cudnnOk: (have, where, want) => `${inside(where)}的 cuDNN ${have}（需要 ${want}）`,

  loadsNone: (file) => `${file}：加载器找不到任何副本`,
  loadsFrom: (file, dir, wheel, via) => `${file} → ${dir}（${wheel ? 'pip 包' : '系统'}，来自 ${via}）`,
  loaderPathOk: (script) => `pip 包的库目录已经在加载路径上（${script} 里 cudawiz 加的那段）`,
  loaderPathMissing: (tf, n) => `TensorFlow ${tf} 找不到 pip 安装的 CUDA 库：有 ${n} 个包目录不在 LD_LIBRARY_PATH 上`,
  notSearched: (dir) => `没有搜索：${dir}`,
  andMore: (n) => `……还有 ${n} 个`,
  loaderPathFix: (command, script) => `${command}   （把它们加到 ${script}；要撤销，删掉里面 cudawiz 标记的那段）`,
  addToProfile: (blocker, lines) => `${blocker} 把下面几行加到 shell 的配置文件里：\n${lines}`.trim(),
  inVenv: (python, venv) => `${python}${venv ? `（虚拟环境 ${venv}）` : ''}`,
  nWheels: (n) => `${n} 个 nvidia-* 包`,
  loadsFromSystem: (files, where) => `TensorFlow 从系统加载 ${files}，而不是从 ${where} 的 pip 包里`,
  wheelsFirst: (command) => `把 pip 包的目录放到最前面：${command}`,
  wheelsFirstByHand: (dir) => `把 ${dir ?? 'pip 包的目录'}（以及其他 nvidia/*/lib 目录）放到 LD_LIBRARY_PATH 最前面。`,
  noCopy: (files) => `加载器找不到 ${files} 的任何副本`,
  reinstallWheels: (venvBin, tf) => `重新安装这些包：${venvBin}pip install --force-reinstall "tensorflow[and-cuda]==${tf}"`,
  fromWheels: (versions, venv, offPath) =>
    `${versions || 'CUDA'} 来自 pip 的 nvidia-* 包${venv ? `（${venv}）` : ''}${offPath ? '——但不在加载路径上（见 wheel-loader-path）' : '；TensorFlow 从这些包加载'}`,

  noPython: '没有找到 Python 解释器',
  installPython: '安装 64 位的 Python（或者用 --python PATH 指定）。',
  pythonNoVersion: (command) => `问不出 ${command} 的版本`,
  pythonNoVersionFix: '自己运行一下它，或者用 --python PATH 换一个解释器。',
  python32: (v) => `Python ${v} 是 32 位的；TensorFlow 需要 64 位的 Python`,
  python32Fix: '从 python.org 安装 64 位的 Python，并用它来跑 TensorFlow。',
  pythonPlain: (v, bits) => `Python ${v}（${bits ?? '?'} 位）`,
  pythonOutside: (v, tf, min, max) => `Python ${v} 不在 TensorFlow ${tf} 支持的范围 ${min}–${max} 内`,
  pythonOutsideFix: (max, pip) => `安装 64 位的 Python ${max}，用它建一个虚拟环境，然后：pip install ${pip}`,
  pythonOk: (v, bits, min, max) => `Python ${v}（${bits ?? '?'} 位），在 ${min}–${max} 范围内`,
  tfFor: (pkg, v, command) => `${command} 的 ${pkg} ${v}`,
  tfOther: (installed, tf) => `pip 装的是 TensorFlow ${installed}，但你检查的是 ${tf}`,
  tfOtherFix: (tf) => `pip install "tensorflow==${tf}.*"，或者不带 --tf 运行 cudawiz doctor，检查已安装的那个。`,
  tfNoImport: (v) => `TensorFlow ${v} 已安装，但无法 import`,
  tfNoImportFix: '看一下上面的 import 错误；下面的检查结果通常会指出缺了什么。',
  tfImports: (v) => `TensorFlow ${v} 可以 import`,
  wslStep: (i, step) => `WSL2 第 ${i} 步：${step}`,
  nativeOk: (tf) => `TensorFlow ${tf} 在原生 Windows 上支持 GPU`,
  nativeNo: (tf, last) => `TensorFlow ${tf} 在原生 Windows 上不支持 GPU（最后一个支持的是 ${last}）`,
  alternative: (title, detail) => `${title}：${detail}`,
  nativeNoFix: '改用 WSL2：在 WSL2 里装 Ubuntu，在里面运行 cudawiz（步骤见上）——WSL2 里的 TensorFlow 用的就是这台 Windows 的显卡驱动。或者留在原生 Windows 上：pip install "tensorflow<2.11"。',
  noTfPython: (command, v) => `${command}（Python ${v}）没有安装 TensorFlow`,
  noPythonFound: '没有找到 Python 解释器',
  noTarget: '没有要对照检查的 TensorFlow 版本：跳过 TensorFlow 相关的检查',
  noTargetFix: '指定你要的 TensorFlow：cudawiz doctor --tf 2.10（cudawiz requirements --tf V 会显示每个版本需要什么）',
  rowOf: (row) => `，对应 ${row} 那一行`,
  withSource: (headline, source) => (/。$/.test(headline) ? `${headline.slice(0, -1)}（${source}）。` : `${headline}（${source}）`),
  checkingFor: (v, source, row) => `按 TensorFlow ${v} 检查（${source}${row}）`,
  unknownTf: (v, source) => `cudawiz 不认识 TensorFlow ${v}（${source}）`,
  passKnown: '用 --tf 指定一个已知的版本',
  unknownPipTfFix: (pkg) => `确认这个 Python 装的是哪个 TensorFlow（pip show ${pkg}）；要按别的版本检查，就指定它：cudawiz doctor --tf 2.10`,

  wslKernel: (k) => `内核 ${k}`,
  wslWindows: (version, source) => `Windows ${version}（${(source && WINDOWS_BUILD_SOURCE_ZH[source]) ?? `取自 ${source}`}）`,
  wslBuild: (b) => `内部版本 ${b}`,
  wslNoBuild: 'Windows 内部版本：读不到（没有 interop）',
  wslLibcuda: (path) => `${path}：Windows 显卡驱动的 libcuda`,
  wslSmi: (smi, driver) => `${smi}${driver ? `：Windows 显卡驱动 ${driver}` : ''}`,
  wsl1: (distro) => `${distro ?? '这个发行版'} 运行在 WSL 1 下，WSL 1 不能使用 GPU`,
  wslOk: (version, distro, driver) => `在 WSL ${version ?? '（版本未知）'} 里${distro ? `（${distro}）` : ''}：GPU 显卡驱动来自 Windows${driver ? `（${driver}）` : ''}`,
  wslDriverFixDefault: '在 Windows 上更新 NVIDIA 显卡驱动，不要在 WSL 里装。',
  wslDriverMin: (fix, min, page) => `${fix} 版本必须是 ${min} 或更新：${page}`,
  wslDriverPage: (fix, page) => `${fix}（${page}）`,
  wslNoDriverVersion: '没有可检查的 Windows NVIDIA 显卡驱动版本（WSL 里的 nvidia-smi 没有报告）',
  wslDriverEvidence: (v, source) => `Windows 显卡驱动 ${v}（${source}）`,
  wslSmiInside: (smi) => `WSL 里的 ${smi}`,
  wslSmiVersion: (v) => `NVIDIA-SMI ${v} 是 WSL 自带工具的版本，不是显卡驱动的版本`,
  wslDriverPlain: (v) => `Windows NVIDIA 显卡驱动 ${v}（通过 WSL 使用）`,
  wslDriverOld: (v, cuda, min) => `Windows NVIDIA 显卡驱动 ${v} 对 CUDA ${cuda} 来说太旧了（需要 ${min} 或更新）`,
  wslDriverOk: (v, min, cuda) => `Windows NVIDIA 显卡驱动 ${v} ≥ ${min}（CUDA ${cuda}，通过 WSL 使用）`,
  wslNoSmi: 'WSL 里没有来自 Windows 的 NVIDIA 显卡驱动，所以没有可用的 GPU',
  wslSmiMissing: (dir) => `nvidia-smi：PATH 和 ${dir} 里都没有`,

  condaToolkit: (cuda, env, pkg, version) => `CUDA ${cuda} 来自 conda 环境 ${env}（${pkg} ${version}）；不需要安装 CUDA Toolkit`,
  condaWhere: (env) => `conda 环境 ${env}`,
  condaCarry: (what, version, pkg) => `${what} ${version}（${pkg}）`,
  condaUnreadable: (name) => `读不了 conda 环境 ${name} 的 conda-meta 目录`,
  condaUnreadableFix: '检查环境变量 CONDA_PREFIX 指向的是不是一个环境（conda info --envs），或者退出它：conda deactivate',
  condaNoLibraries: '没有 CUDA 动态链接库',
  condaSystemToolkit: (version, path) => `系统的 CUDA Toolkit：${path} 的 CUDA ${version}`,
  condaCarries: (name, prefix, carries) => `conda 环境 ${name}${name === prefix ? ' ' : `（${prefix}）`}自带 ${carries.join(' 和 ').replace(/） 和 /g, '）和 ')}；其中的 TensorFlow 会优先加载它们`,
  condaNoCuda: (name, prefix) => `conda 环境 ${name}${name === prefix ? '' : `（${prefix}）`}：没有 CUDA 相关的包（cudatoolkit、cuda-cudart、cudnn）`,
  condaDriverEvidence: (driver, pkg, version) => `显卡驱动 ${driver}；环境里的 ${pkg} ${version}`,
  condaSystemRuns: (version, path) => `${path} 的系统 CUDA ${version} 能在这个显卡驱动上运行，但环境里的副本排在前面`,
  condaDriverUpdate: (min, page) => `从 ${page} 把 NVIDIA 显卡驱动更新到 ${min} 或更新（cudawiz 从不安装显卡驱动）`,
  condaDriverFix: (update, pkg, fits) => `${update.replace(/[。.]$/, '')}；或者给这个环境换一个显卡驱动能跑的 CUDA：conda install ${pkg}=${fits}`,
  condaDriverOld: (driver, cuda, min) => `NVIDIA 显卡驱动 ${driver} 对 conda 环境里的 CUDA ${cuda} 来说太旧了（需要 ${min} 或更新）`,
  condaDriverOk: (driver, cuda, min) => `NVIDIA 显卡驱动 ${driver} 能运行 conda 环境里的 CUDA ${cuda}（需要 ${min}）`,
  condaShadows: (files, dir, others) => `conda 环境里的 ${files.join('、')} 排在前面（${dir}），挡住了 ${others.join('、')} 里的副本`,
  condaShadowsFix: (packages) => `如果环境里的版本正是 TensorFlow 需要的，就不用管；想改用系统的，把它们从环境里删掉（conda remove ${packages}），或者 conda deactivate。`,

  summary: (fails, warns) => `${fails} 个问题，${warns} 个警告。`,
  nothingToFix: '没有需要修复的问题。',
  shareIntro: '要分享结果，请复制下面这段：',
  shareNone: '无',
  shareNotInstalled: '未安装',
  shareCc: (cc) => `（计算能力 ${cc}）`,
  shareNoParts: (parts) => `（缺少 ${parts}）`,
  shareBits: (bits) => `${bits} 位`,
  shareIn: (what, where) => `${what}（${where}）`,
  shareWsl: (version, windows, driver) => `${version}，Windows ${windows}，Windows 显卡驱动 ${driver}`,
  sharePip: (cuda, cudnn) => `${cuda}，cudnn ${cudnn}`,
  shareConda: (cuda, cudnn) => `cuda ${cuda}，cudnn ${cudnn}`,
};

/** Where a toolkit's version was read (Toolkit.versionSource ids), in Chinese; file names stay as they are. */
const VERSION_SOURCE_ZH: Record<string, string> = {
  'dpkg status': 'dpkg 的软件包记录',
  'file name': '运行库的文件名',
  'directory name': '目录名',
};

/** Where a CUDA runtime's version was read (CudaRuntime.from ids), in Chinese. */
const RUNTIME_FROM_ZH: Record<string, string> = {
  toolkit: 'CUDA Toolkit',
  'conda env': 'conda 环境',
  'pip wheel': 'pip 的 wheel',
};

export const doctorText = localized({ en, zh });
