// What cudawiz says about WSL: the problems the WSL probe finds inside a Linux distribution (WSL 1, an
// old Windows, no Windows driver mounted, a Linux driver installed inside WSL, the loader path), and the
// WSL2 route step by step for a native-Windows user. Problem ids stay English (they are the --json interface).
import { localized } from './localized.js';

const DRIVER_PAGE = 'https://www.nvidia.com/Download/index.aspx';

export const wslText = localized({
  en: {
    // ---------------------------------------------------------------- the probe (src/probe/wsl.ts)
    driverFix: 'Update the NVIDIA driver on Windows, not inside WSL (the Windows driver provides libcuda.so.1 to WSL); then run `wsl --shutdown` in PowerShell and reopen the distribution.',
    wsl1: 'This distribution runs under WSL 1, which has no GPU access.',
    wsl1Fix: (distro: string | undefined) => `In PowerShell on Windows: wsl --set-version ${distro ?? '<distribution>'} 2`,
    windowsTooOld: (build: number, min: number) => `Windows build ${build} is older than ${min} (Windows 10 21H2), the first with CUDA in WSL2.`,
    windowsTooOldFix: 'Update Windows (Settings → Windows Update) to Windows 10 21H2 or newer, or Windows 11.',
    noLibcuda: (libcuda: string) => `${libcuda} is missing: Windows has no NVIDIA driver that supports WSL, or WSL has not mounted it.`,
    smiFailed: (smi: string, why: string) => `${smi} did not report the driver (${why}).`,
    smiFailedFix: (driverFix: string) => `Some Windows drivers ship an nvidia-smi that crashes inside WSL (microsoft/WSL#11277); ${driverFix}`,
    linuxDriverInside: (stray: string, libcuda: string) => `${stray} comes from a Linux NVIDIA driver installed inside WSL; it can shadow the Windows driver's ${libcuda}.`,
    linuxDriverInsideFix: 'Remove the Linux NVIDIA driver packages from this distribution (e.g. `sudo apt remove --purge "nvidia-driver-*" "libnvidia-compute-*"`); inside WSL only the Windows driver is used.',
    notOnLoaderPath: (dir: string, confDir: string) => `The loader does not search ${dir}: no file in ${confDir} names it and LD_LIBRARY_PATH lacks it, so TensorFlow cannot load libcuda.so.1.`,
    notOnLoaderPathFix: (dir: string, conf: string) => `echo ${dir} | sudo tee ${conf} && sudo ldconfig   (and keep [automount] ldconfig=true in /etc/wsl.conf)`,

    // ---------------------------------------------------------------- the WSL2 route (src/doctor/wsl-route.ts)
    driverOrNewer: (min: string) => ` ${min} or newer`,
    stepWinver: (build: number) => `Check Windows: run \`winver\`; WSL2 with CUDA needs Windows 10 21H2 (build ${build}) or newer, or Windows 11.`,
    stepInstall: 'In PowerShell as Administrator: wsl --install -d Ubuntu   (then restart Windows when asked, and open "Ubuntu" from the Start menu to create your Linux user).',
    stepUpdate: 'If WSL was already installed: wsl --update, and check `wsl -l -v` shows VERSION 2 (else: wsl --set-version Ubuntu 2).',
    stepDriver: (driver: string, cuda: string, libDir: string) =>
      `Install the NVIDIA driver on Windows${driver} (CUDA ${cuda} needs it) from ${DRIVER_PAGE}. Never install a Linux NVIDIA driver inside WSL: WSL lends the Windows driver to Linux through ${libDir}.`,
    stepSmi: 'Inside Ubuntu, check the GPU: nvidia-smi   ("Driver Version" there is the Windows driver\'s number).',
    stepPython: (tf: string, min: string, max: string) => `Inside Ubuntu: sudo apt update && sudo apt install -y python3-venv python3-pip   (TensorFlow ${tf} needs Python ${min}–${max}).`,
    stepVenv: (dir: string) => `Inside Ubuntu: python3 -m venv ${dir} && source ${dir}/bin/activate`,
    stepAndCuda: (requirement: string) => `Inside Ubuntu: pip install "${requirement}"   (CUDA and cuDNN come as Python wheels; nothing else to install).`,
    stepCudawiz: (version: string, tf: string, cuda: string, cudnn: string) =>
      `Inside Ubuntu: install cudawiz and run: cudawiz install --tf ${version}   (TensorFlow ${tf} predates tensorflow[and-cuda]: it installs the CUDA ${cuda} toolkit without a driver and cuDNN ${cudnn}).`,
    stepPip: (version: string) => `Inside Ubuntu: pip install "tensorflow==${version}"`,
    stepCheck: 'Check: python -c "import tensorflow as tf; print(tf.config.list_physical_devices(\'GPU\'))"   (a list with one GPU or more means it works).',
    stepDoctor: (version: string) => `If it lists none: run \`cudawiz doctor --tf ${version}\` inside Ubuntu.`,
  },
  zh: {
    driverFix: '请在 Windows 上更新 NVIDIA 显卡驱动，不要在 WSL 里装（WSL 里的 libcuda.so.1 由 Windows 显卡驱动提供）；然后在 PowerShell 中运行 `wsl --shutdown`，再重新打开这个发行版。',
    wsl1: '这个发行版运行在 WSL 1 下，WSL 1 不能使用 GPU。',
    wsl1Fix: (distro) => `在 Windows 的 PowerShell 中运行：wsl --set-version ${distro ?? '<发行版名称>'} 2`,
    windowsTooOld: (build, min) => `Windows 内部版本 ${build} 低于 ${min}（Windows 10 21H2）——从这个版本起 WSL2 才支持 CUDA。`,
    windowsTooOldFix: '请把 Windows 升级到 Windows 10 21H2 或更新版本，或升级到 Windows 11（设置 → Windows 更新）。',
    noLibcuda: (libcuda) => `缺少 ${libcuda}：Windows 上没有支持 WSL 的 NVIDIA 显卡驱动，或者 WSL 没有挂载它。`,
    smiFailed: (smi, why) => `${smi} 没有报告显卡驱动版本（${why}）。`,
    smiFailedFix: (driverFix) => `有些 Windows 显卡驱动自带的 nvidia-smi 在 WSL 里会崩溃（microsoft/WSL#11277）；${driverFix}`,
    linuxDriverInside: (stray, libcuda) => `${stray} 来自在 WSL 里安装的 Linux NVIDIA 显卡驱动，它可能遮住 Windows 显卡驱动的 ${libcuda}。`,
    linuxDriverInsideFix: '请从这个发行版中卸载 Linux NVIDIA 显卡驱动的软件包（例如 `sudo apt remove --purge "nvidia-driver-*" "libnvidia-compute-*"`）；WSL 里只使用 Windows 的显卡驱动。',
    notOnLoaderPath: (dir, confDir) => `动态链接器不会搜索 ${dir}：${confDir} 里没有文件列出它，环境变量 LD_LIBRARY_PATH 里也没有它，所以 TensorFlow 加载不了 libcuda.so.1。`,
    notOnLoaderPathFix: (dir, conf) => `echo ${dir} | sudo tee ${conf} && sudo ldconfig   （并保留 /etc/wsl.conf 中的 [automount] ldconfig=true）`,

    driverOrNewer: (min) => ` ${min} 或更新版本`,
    stepWinver: (build) => `检查 Windows 版本：运行 \`winver\`；WSL2 要使用 CUDA，需要 Windows 10 21H2（内部版本 ${build}）或更新版本，或 Windows 11。`,
    stepInstall: '以管理员身份打开 PowerShell，运行：wsl --install -d Ubuntu   （按提示重启 Windows，然后从开始菜单打开 “Ubuntu”，创建你的 Linux 用户。）',
    stepUpdate: '如果已经装过 WSL：运行 wsl --update，并确认 `wsl -l -v` 显示 VERSION 2（否则运行：wsl --set-version Ubuntu 2）。',
    stepDriver: (driver, cuda, libDir) =>
      `在 Windows 上安装 NVIDIA 显卡驱动${driver}（CUDA ${cuda} 需要它）。千万不要在 WSL 里安装 Linux 的 NVIDIA 显卡驱动：WSL 通过 ${libDir} 把 Windows 显卡驱动提供给 Linux。下载地址：${DRIVER_PAGE}`,
    stepSmi: '在 Ubuntu 里检查显卡，运行：nvidia-smi   （那里的 “Driver Version” 就是 Windows 显卡驱动的版本号。）',
    stepPython: (tf, min, max) => `在 Ubuntu 里运行：sudo apt update && sudo apt install -y python3-venv python3-pip   （TensorFlow ${tf} 需要 Python ${min}–${max}。）`,
    stepVenv: (dir) => `在 Ubuntu 里创建并激活虚拟环境：python3 -m venv ${dir} && source ${dir}/bin/activate`,
    stepAndCuda: (requirement) => `在 Ubuntu 里运行：pip install "${requirement}"   （CUDA 和 cuDNN 以 Python wheel 的形式安装，不需要再装别的。）`,
    stepCudawiz: (version, tf, cuda, cudnn) =>
      `在 Ubuntu 里安装 cudawiz，然后运行：cudawiz install --tf ${version}   （TensorFlow ${tf} 早于 tensorflow[and-cuda]：它会安装不含显卡驱动的 CUDA ${cuda} 工具包和 cuDNN ${cudnn}。）`,
    stepPip: (version) => `在 Ubuntu 里运行：pip install "tensorflow==${version}"`,
    stepCheck: '验证：python -c "import tensorflow as tf; print(tf.config.list_physical_devices(\'GPU\'))"   （列出至少一块 GPU 就说明可以用了。）',
    stepDoctor: (version) => `如果一块也没列出：在 Ubuntu 里运行 \`cudawiz doctor --tf ${version}\`。`,
  },
});
