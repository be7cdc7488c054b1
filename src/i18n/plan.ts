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
    envChanges: (list: string) => `will change ${list}`,
    pythonFits: (py: string, tf: string, range: string) => `Python ${py} can install TensorFlow ${tf} (it takes ${range})`,
    pythonTooNew: (py: string, tf: string, range: string) => `Python ${py} cannot install TensorFlow ${tf} (it takes Python ${range})`,
    pythonUse: (cmd: string, venv: string, pip: string) => `use ${cmd}: ${cmd} -m venv ${venv} && ${venv}/bin/pip install ${pip}`,
    pythonNoneFound: (range: string, venv: string, pip: string, want: string) =>
      `no Python ${range} was found on PATH: install Python ${want} (pyenv, uv python install ${want}, or your distribution's python${want}), then python${want} -m venv ${venv} && ${venv}/bin/pip install ${pip}`,
    pythonNone: (range: string) => `no Python found: TensorFlow needs Python ${range}`,
    stepPython: 'Choose the Python for TensorFlow',
    sizesLine: (download: string, disk: string, free: string, where: string) => `Downloads ${download}; needs about ${disk} of disk (${free} free in ${where})`,
    sizesUnknown: 'Download sizes unknown for part of this plan (the catalog has no size for it)',
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
    envChanges: (list) => `将修改 ${list}`,
    pythonFits: (py, tf, range) => `Python ${py} 可以安装 TensorFlow ${tf}（它支持 ${range}）`,
    pythonTooNew: (py, tf, range) => `Python ${py} 装不了 TensorFlow ${tf}（它只支持 Python ${range}）`,
    pythonUse: (cmd, venv, pip) => `改用 ${cmd}：${cmd} -m venv ${venv} && ${venv}/bin/pip install ${pip}`,
    pythonNoneFound: (range, venv, pip, want) =>
      `PATH 上没有找到 Python ${range}：先安装 Python ${want}（pyenv、uv python install ${want}，或发行版的 python${want} 包），再执行 python${want} -m venv ${venv} && ${venv}/bin/pip install ${pip}`,
    pythonNone: (range) => `没有找到 Python：TensorFlow 需要 Python ${range}`,
    stepPython: '选择给 TensorFlow 用的 Python',
    sizesLine: (download, disk, free, where) => `需下载 ${download}；约占磁盘 ${disk}（${where} 剩余 ${free}）`,
    sizesUnknown: '计划中有部分下载大小未知（目录里没有记录）',
    notEnoughSpace: (need, free, where) => `磁盘空间不足：这个计划约需 ${need}，${where} 只剩 ${free}。`,
    notEnoughSpaceFix: '请腾出空间，或用 --cache-dir 和 --cuda-root 指到更大的磁盘，然后再运行。',
  },
});
