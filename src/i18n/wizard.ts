// The wizard's newer screens: what went wrong and what to do, a TF newer than the catalog, the plan
// being prepared. The chrome (titles, keys, the first screens) stays in en.ts / zh.ts.
import { localized } from './localized.js';

export const wizardText = localized({
  en: {
    preparing: (tf: string) => (tf ? `Preparing the plan for TensorFlow ${tf}…` : 'Preparing the plan…'),
    errorTitle: 'cudawiz cannot go on from here',
    errorWhatToDo: 'What to do',
    keysError: 'Esc back · q quit',
    keysErrorNoBack: 'q quit',
    unexpected: (message: string) => `Something went wrong inside cudawiz: ${message}`,
    unexpectedFix: 'Nothing was changed by this step. cudawiz doctor shows the machine as it is; please report this at https://github.com/cudawiz/cudawiz/issues with what you chose.',
    setUpFor: (tf: string, cuda: string, cudnn: string) => `Set up for TensorFlow ${tf} (CUDA ${cuda} · cuDNN ${cudnn})`,
    quit: 'Quit',
    scanBeyond: (headline: string, source: string) => `${headline} (${source})`,
    pythonCannot: (py: string) => `(you have ${py})`,
    setupBlocked: (cause: string) => `No setup can work on this machine until this is fixed: ${cause}`,
    pythonNeeded: (tf: string, range: string) => `TensorFlow ${tf} needs 64-bit Python ${range}, and this machine has none yet: install one (python.org)`,
    pythonCannotTake: (py: string, tf: string, range: string) => `Python ${py} cannot install TensorFlow ${tf}: install 64-bit Python ${range} beside it (python.org)`,
    doneNeedsPython: 'Done with CUDA and cuDNN. TensorFlow is not ready yet: it needs the Python below.',
    whatNowNewTerminal: 'Open a new terminal: it reads the changes made for new shells (this one does not).',
  },
  zh: {
    preparing: (tf) => (tf ? `正在为 TensorFlow ${tf} 准备计划…` : '正在准备计划…'),
    errorTitle: 'cudawiz 无法继续',
    errorWhatToDo: '怎么办',
    keysError: 'Esc 返回 · q 退出',
    keysErrorNoBack: 'q 退出',
    unexpected: (message) => `cudawiz 内部出错：${message}`,
    unexpectedFix: '这一步没有改动任何东西。cudawiz doctor 可以查看机器的现状；请把你的选择一并报告到 https://github.com/cudawiz/cudawiz/issues。',
    setUpFor: (tf, cuda, cudnn) => `按 TensorFlow ${tf} 安装（CUDA ${cuda} · cuDNN ${cudnn}）`,
    quit: '退出',
    scanBeyond: (headline, source) => `${headline}（${source}）`,
    pythonCannot: (py) => `（你的是 ${py}）`,
    setupBlocked: (cause) => `先解决这个问题，否则在这台机器上怎么安装都不行：${cause}`,
    pythonNeeded: (tf, range) => `TensorFlow ${tf} 需要 64 位的 Python ${range}，这台机器还没有：请先安装（python.org）`,
    pythonCannotTake: (py, tf, range) => `Python ${py} 装不了 TensorFlow ${tf}：请另装一个 64 位的 Python ${range}（python.org）`,
    doneNeedsPython: 'CUDA 和 cuDNN 已就绪。TensorFlow 还不能用：它需要下面说的 Python。',
    whatNowNewTerminal: '打开一个新的终端：新终端才会读到为新 shell 做的改动（当前这个不会）。',
  },
});
