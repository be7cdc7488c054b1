// The words of repair: the doctor's grouped load-order findings, the remedy steps and the stops
// (what the user must do, and why cudawiz will not). Commands, paths and versions untouched.
import { localized } from './localized.js';

const en = {
  // ---------------------------------------------------------------- grouped findings (doctor/group)
  loadsFromStale: (n: number, staleDir: string, stale: string, rightDirs: string, right: string) =>
    `${n} of TensorFlow's libraries load from ${staleDir}${stale ? ` (${stale})` : ''}, ahead of the right ${n === 1 ? 'copy' : 'copies'} in ${rightDirs}${right ? ` (${right})` : ''}`,
  offPath: (n: number, dirs: string, right: string) => `${n} of TensorFlow's libraries are in ${dirs}${right ? ` (${right})` : ''} but not on the library search path`,
  andOffPath: (n: number) => `; ${n} more ${n === 1 ? 'is' : 'are'} not on the library search path`,
  fileWins: (file: string, places: string) => `${file}: ${places}`,
  alsoExplains: (title: string) => `the same cause: ${title}`,
  loadOrderFix: (command: string, dirs: string, exportLine: string) =>
    `${command} puts ${dirs} first for your new shells (nothing to download); in this shell: ${exportLine}`,
  orReplace: (fix: string, command: string) => `${fix} — or replace the stale copy with its package manager: ${command}`,
  replaceWith: (command: string) => `Replace the stale copy with its package manager: ${command}`,
  cudnnAlreadyHere: (version: string, path: string, into?: string) =>
    `cuDNN ${version} is already at ${path}: nothing to download — copy its cudnn files (bin or lib, include) into ${into ? `${into}, ` : ''}the CUDA folder TensorFlow uses`,
  pinConflict: (pkg: string, version: string, requirement: string, tf: string, want: string) =>
    `${pkg} ${version} requires ${requirement}, and TensorFlow ${tf} needs cuDNN ${want}: one environment cannot hold both`,
  pinFix: (command: string) => `Give TensorFlow an environment of its own: ${command}`,

  // ---------------------------------------------------------------- the repair plan (plan/remedies)
  fixes: (title: string) => `fixes: ${title}`,
  loadOrderStep: (dirs: string) => `Put ${dirs} first for new shells`,
  loadOrderNothing: 'a new shell already loads the right copies',
  loadOrderWill: (files: string) => `writes ${files}`,
  loadOrderDone: (n: number) => `${n} ${n === 1 ? 'change' : 'changes'} recorded for rollback`,
  thisShell: (line: string) => `in this shell: ${line}`,
  leftToYou: 'left as it was (--configure-env no): the lines to add yourself follow',
  askConsent: (files: string) => `Put the right copies first for new shells by writing ${files}?`,
  stopStep: (what: string) => `Stop: ${what}`,
  stopReason: (why: string) => `cudawiz will not: ${why}`,
  stopDriverWhy: 'a display driver is installed the way it came (package manager or NVIDIA\'s installer), never by cudawiz',
  stopDriver: (runtime: string, need: string, driver: string) => `${runtime} needs NVIDIA driver ${need} or newer; this machine has ${driver}`,
  stopDriverAction: (need: string, page: string, pin: string | undefined) =>
    `Update the driver to ${need} or newer (${page}, or your distribution's driver package)${pin ? `, or pin the env to what this driver runs: ${pin}` : ''}`,
  stopPinWhy: 'removing another framework\'s pinned package would break that framework',
  stopCondaWhy: "conda's Python loads the env's Library\\bin before any folder on PATH, so only conda can replace the copy there",
  stopOther: (title: string) => title,
  stopOtherWhy: 'this is outside what a repair may change',
  noRemedy: (title: string, fix: string) => `no step fixes "${title}"${fix ? `: ${fix}` : ''}`,
  packageStep: (command: string) => `Run ${command}`,
  packageConsent: (command: string) => `Run ${command}? It replaces the stale copy through its package manager.`,
  newVenvOffered: (command: string) => `offered: ${command}`,
  newShellVerify: 'Verify as a new shell sees it',
  newShellPasses: (tf: string) => `a new shell loads every library TensorFlow ${tf} needs from the right copy`,
  loadsIn: (file: string, dir: string) => `${file} → ${dir}`,
  loadsNowhere: (file: string) => `${file} → not found`,
  stopsBefore: 'Nothing was changed.',
  leftToYouTitle: (titles: string) => `Left to you: ${titles}`,
  leftToYouSummary: (n: number) => `${n} ${n === 1 ? 'finding' : 'findings'} no step of repair fixes, each with what to do`,
};

type RemedyStrings = { [K in keyof typeof en]: (typeof en)[K] extends (...a: infer A) => string ? (...a: A) => string : string };

const zh: RemedyStrings = {
  loadsFromStale: (n, staleDir, stale, rightDirs, right) =>
    `TensorFlow 的 ${n} 个库从 ${staleDir}${stale ? `（${stale}）` : ''}加载，排在 ${rightDirs}${right ? `（${right}）` : ''}里正确的那份前面`,
  offPath: (n, dirs, right) => `TensorFlow 的 ${n} 个库在 ${dirs}${right ? `（${right}）` : ''}里，但不在库搜索路径上`,
  andOffPath: (n) => `；另有 ${n} 个不在库搜索路径上`,
  fileWins: (file, places) => `${file}：${places}`,
  alsoExplains: (title) => `同一个原因：${title}`,
  loadOrderFix: (command, dirs, exportLine) => `${command} 会让新开的终端先找 ${dirs}（不用下载任何东西）；当前终端：${exportLine}`,
  orReplace: (fix, command) => `${fix}——或者用它的包管理器换掉旧的那份：${command}`,
  replaceWith: (command) => `用它的包管理器换掉旧的那份：${command}`,
  cudnnAlreadyHere: (version, path, into) => `cuDNN ${version} 已经在 ${path}：不用下载——把其中的 cudnn 文件（bin 或 lib、include）复制到 TensorFlow 用的 CUDA 目录${into ? ` ${into} ` : ''}里`,
  pinConflict: (pkg, version, requirement, tf, want) => `${pkg} ${version} 要求 ${requirement}，而 TensorFlow ${tf} 需要 cuDNN ${want}：一个环境装不下两者`,
  pinFix: (command) => `给 TensorFlow 一个单独的环境：${command}`,
  fixes: (title) => `修复：${title}`,
  loadOrderStep: (dirs) => `让新开的终端先找 ${dirs}`,
  loadOrderNothing: '新开的终端已经加载正确的那份',
  loadOrderWill: (files) => `写入 ${files}`,
  loadOrderDone: (n) => `已记录 ${n} 处改动，可以回滚`,
  thisShell: (line) => `当前终端：${line}`,
  leftToYou: '保持原样（--configure-env no）：下面是要你自己加的几行',
  askConsent: (files) => `写入 ${files}，让新开的终端先找正确的那份吗？`,
  stopStep: (what) => `停止：${what}`,
  stopReason: (why) => `cudawiz 不会做：${why}`,
  stopDriverWhy: '显卡驱动按它原来的方式安装（包管理器或 NVIDIA 的安装程序），cudawiz 从不安装驱动',
  stopDriver: (runtime, need, driver) => `${runtime} 需要 NVIDIA 驱动 ${need} 或更新；这台机器是 ${driver}`,
  stopDriverAction: (need, page, pin) => `把驱动升级到 ${need} 或更新（${page}，或者发行版的驱动包）${pin ? `，或者把环境固定到这个驱动能跑的版本：${pin}` : ''}`,
  stopPinWhy: '删掉另一个框架固定的包会让那个框架坏掉',
  stopCondaWhy: 'conda 的 Python 先于 PATH 上的任何目录加载环境的 Library\\bin，所以只有 conda 能换掉那里的那份',
  stopOther: (title) => title,
  stopOtherWhy: '这超出了修复可以改动的范围',
  noRemedy: (title, fix) => `没有步骤能修复“${title}”${fix ? `：${fix}` : ''}`,
  packageStep: (command) => `运行 ${command}`,
  packageConsent: (command) => `运行 ${command} 吗？它通过包管理器换掉旧的那份。`,
  newVenvOffered: (command) => `可以这样做：${command}`,
  newShellVerify: '按新开终端看到的情况验证',
  newShellPasses: (tf) => `新开的终端从正确的那份加载 TensorFlow ${tf} 需要的每个库`,
  loadsIn: (file, dir) => `${file} → ${dir}`,
  loadsNowhere: (file) => `${file} → 找不到`,
  stopsBefore: '什么都没有改动。',
  leftToYouTitle: (titles) => `需要你来处理：${titles}`,
  leftToYouSummary: (n) => `修复的步骤解决不了的问题有 ${n} 个，每个都写明了怎么做`,
};

export const remediesText = localized({ en, zh });
