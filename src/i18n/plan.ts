// The plan's words: what a step will do and what to do when the catalog cannot answer.
import { localized } from './localized.js';

export const planText = localized({
  en: {
    beyondHeadline: (end: string, tf: string) => `cudawiz's catalog ends at ${end}; TensorFlow ${tf} came later.`,
    beyondWhatWorks: 'What still works:',
    beyondPip: (req: string) => `the pip route needs no catalog row: python3 -m venv .venv && .venv/bin/pip install "${req}" (pip resolves its own CUDA and cuDNN; only the driver is needed), then check it with cudawiz doctor --python .venv/bin/python`,
    beyondPipWsl: (req: string) => `inside WSL2, the pip route needs no catalog row: pip install "${req}" in a virtual environment there`,
    beyondSameCuda: (since: string, newest: string, cuda: string, cudnn: string, line: string) =>
      `TensorFlow ${since} … ${newest} all use CUDA ${cuda} and cuDNN ${cudnn}; if the newer one kept them, set those up: cudawiz install --tf ${line}`,
    beyondNewest: (newest: string, cuda: string, cudnn: string, line: string) => `the newest known row, ${newest} (CUDA ${cuda}, cuDNN ${cudnn}), changed CUDA from the row before it, so it is only a guess: cudawiz install --tf ${line}`,
    beyondOverlay: (tf: string) => `add a row for ${tf} from TensorFlow's tested-configurations table with --catalog FILE (README, "Catalog and overlays")`,
    beyondUpgrade: 'a newer cudawiz may know it: npm install -g cudawiz@latest',
    pipInstalled: (pkg: string, v: string) => `pip-installed ${pkg} ${v}`,
    fromTfFlag: 'from --tf',
    envChanges: (n: number, list: string[]) => `${n} change${n === 1 ? '' : 's'}: ${list.join(', ')}`,
    envRunLdconfig: 'run ldconfig',
    envWindowsPath: (scope: string) => `the ${scope} PATH`,
    pythonFits: (py: string, tf: string, range: string) => `Python ${py} can install TensorFlow ${tf} (it takes ${range})`,
    pythonTooNew: (py: string, tf: string, range: string) => `Python ${py} cannot install TensorFlow ${tf} (it takes ${range})`,
    pythonUse: (cmd: string, venv: string) => `use ${cmd} -m venv ${venv}`,
    pythonThen: (pipExe: string, pip: string) => `then: ${pipExe} install ${pip}`,
    pythonNoneFound: (range: string, want: string, cmd: string, venv: string, pipExe: string, pip: string) =>
      `no Python ${range} was found on PATH: install Python ${want} (python.org, pyenv, uv python install ${want}, or your distribution's python${want}), then ${cmd} -m venv ${venv} && ${pipExe} install ${pip}`,
    pythonNone: (range: string, tf: string) => `no Python found: TensorFlow ${tf} needs 64-bit Python ${range}`,
    /** Windows: python.org's installer and the py launcher; no distribution packages there. */
    pythonNoneFoundWindows: (range: string, want: string, cmd: string, venv: string, pipExe: string, pip: string) =>
      `no Python ${range} was found: install 64-bit Python ${want} from python.org (its installer adds the py launcher), then ${cmd} -m venv ${venv} && ${pipExe} install ${pip}`,
    stepPython: 'Choose the Python for TensorFlow',
    verifyFailed: 'this check failed',
    stepSpace: 'Check the download and disk space',
    overlayUnmatched: (where: string, at: string, version: string, cuda: string, nearVersion?: string, nearCuda?: string) =>
      `warning: ${where}: ${at}: cuDNN ${version} for CUDA ${cuda} matches no catalog entry, so it is added as a new release${nearVersion ? `; the nearest catalog entry is ${nearVersion} for CUDA ${nearCuda} (write that version to change it)` : ''}.`,
    nothingToDownload: 'nothing to download',
    willStop: 'will stop',
    /** `disk` undefined: no size is known; `atLeast`: some are unknown, so the disk figure is a floor. */
    sizesLine: (download: string, disk: string | undefined, free: string, atLeast?: boolean) =>
      disk === undefined ? `Downloads ${download}; ${free} free on disk` : `Downloads ${download}; needs ${atLeast ? 'at least' : 'about'} ${disk} of disk (${free} free)`,
    notEnoughSpace: (need: string, free: string, where: string) => `Not enough disk space: the plan needs about ${need}, ${where} has ${free} free.`,
    notEnoughSpaceFix: 'Free some space, or pass --cache-dir and --cuda-root on a bigger disk, then run again.',
  },
  zh: {
    beyondHeadline: (end, tf) => `cudawiz 的版本目录只到 ${end}；TensorFlow ${tf} 是之后发布的。`,
    beyondWhatWorks: '仍然可行的办法：',
    beyondPip: (req) => `pip 方式不需要目录里有这一行：python3 -m venv .venv && .venv/bin/pip install "${req}"（pip 自己解决 CUDA 和 cuDNN，只需要显卡驱动），然后用 cudawiz doctor --python .venv/bin/python 检查`,
    beyondPipWsl: (req) => `在 WSL2 里用 pip 方式，不需要目录里有这一行：在那里的虚拟环境中 pip install "${req}"`,
    beyondSameCuda: (since, newest, cuda, cudnn, line) => `TensorFlow ${since} … ${newest} 都用 CUDA ${cuda} 和 cuDNN ${cudnn}；如果新版本沿用了它们，就装这一套：cudawiz install --tf ${line}`,
    beyondNewest: (newest, cuda, cudnn, line) => `目录里最新的一行 ${newest}（CUDA ${cuda}，cuDNN ${cudnn}）和前一行的 CUDA 不同，所以只是猜测：cudawiz install --tf ${line}`,
    beyondOverlay: (tf) => `按 TensorFlow 官方测试配置表为 ${tf} 加一行，用 --catalog FILE 载入（见 README 的 "Catalog and overlays"）`,
    beyondUpgrade: '更新版本的 cudawiz 可能已经收录：npm install -g cudawiz@latest',
    pipInstalled: (pkg, v) => `pip 安装的 ${pkg} ${v}`,
    fromTfFlag: '来自 --tf',
    envChanges: (n, list) => `${n} 处修改：${list.join('；')}`,
    envRunLdconfig: '运行 ldconfig',
    envWindowsPath: (scope) => `${scope === 'Machine' ? '系统' : '用户'} PATH 环境变量`,
    pythonFits: (py, tf, range) => `Python ${py} 可以安装 TensorFlow ${tf}（它支持 ${range}）`,
    pythonTooNew: (py, tf, range) => `Python ${py} 装不了 TensorFlow ${tf}（它只支持 ${range}）`,
    pythonUse: (cmd, venv) => `改用 ${cmd} -m venv ${venv}`,
    pythonThen: (pipExe, pip) => `然后：${pipExe} install ${pip}`,
    pythonNoneFound: (range, want, cmd, venv, pipExe, pip) =>
      `PATH 上没有找到 Python ${range}：先安装 Python ${want}（python.org、pyenv、uv python install ${want}，或发行版的 python${want} 包），再执行 ${cmd} -m venv ${venv} && ${pipExe} install ${pip}`,
    pythonNone: (range, tf) => `没有找到 Python：TensorFlow ${tf} 需要 64 位的 Python ${range}`,
    pythonNoneFoundWindows: (range, want, cmd, venv, pipExe, pip) =>
      `没有找到 Python ${range}：先从 python.org 安装 64 位的 Python ${want}（安装程序会带上 py 启动器），再执行 ${cmd} -m venv ${venv} && ${pipExe} install ${pip}`,
    stepPython: '选择给 TensorFlow 用的 Python',
    verifyFailed: '这项检查未通过',
    stepSpace: '检查下载量和磁盘空间',
    overlayUnmatched: (where, at, version, cuda, nearVersion, nearCuda) =>
      `警告：${where}：${at}：CUDA ${cuda} 的 cuDNN ${version} 与目录中的任何条目都不匹配，因此作为新版本加入${nearVersion ? `；最接近的条目是 CUDA ${nearCuda} 的 ${nearVersion}（要修改它，请写这个版本号）` : ''}。`,
    nothingToDownload: '无需下载',
    willStop: '将会中止',
    sizesLine: (download, disk, free, atLeast) => (disk === undefined ? `需下载 ${download}；磁盘剩余 ${free}` : `需下载 ${download}；${atLeast ? '至少' : '约'}占磁盘 ${disk}（剩余 ${free}）`),
    notEnoughSpace: (need, free, where) => `磁盘空间不足：这个计划约需 ${need}，${where} 只剩 ${free}。`,
    notEnoughSpaceFix: '请腾出空间，或用 --cache-dir 和 --cuda-root 指到更大的磁盘，然后再运行。',
  },
});
