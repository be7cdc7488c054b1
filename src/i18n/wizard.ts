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
  },
});
