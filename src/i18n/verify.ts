// The verify layers' own words (src/verify/index.ts, tensorflow.ts), en + zh; the layer titles and the
// shared lines are in steps.ts and safety.ts.
import { localized } from './localized.js';

export const verifyText = localized({
  en: {
    manifestState: (state: string) => `manifest state: ${state}`,
    finishOrRollBack: 'cudawiz repair finishes or rolls back the interrupted copy.',
    changedOrMissing: (files: string[]) => `changed or missing: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ` (+${files.length - 5})` : ''}`,
    copyAgain: 'cudawiz repair copies cuDNN again.',
    importFailed: 'import failed',
    doctorShows: 'cudawiz doctor shows what is missing.',
    couldNotRunPython: 'could not run Python',
    unexpectedOutput: (python: string, out: string) => `unexpected output from ${python}: ${out}`,
    /** A library file that could not be followed to its real file, with the system's error code. */
    libraryUnreadable: (file: string, code: string) => `${file}: ${code}`,
    /** Verify judged the loader path a new terminal gets: this process's, plus the env scripts the rc file sources. */
    judgedForNewShell: (scripts: string[]) => `judged as a new terminal sees it (with ${scripts.join(', ')})`,
  },
  zh: {
    manifestState: (state) => `清单状态：${state}`,
    finishOrRollBack: '运行 cudawiz repair 完成或回滚被中断的复制。',
    changedOrMissing: (files) => `已改动或缺失：${files.slice(0, 5).join('、')}${files.length > 5 ? `（另有 ${files.length - 5} 个）` : ''}`,
    copyAgain: '运行 cudawiz repair 重新复制 cuDNN。',
    importFailed: '导入失败',
    doctorShows: '运行 cudawiz doctor 查看缺了什么。',
    couldNotRunPython: '无法运行 Python',
    unexpectedOutput: (python, out) => `${python} 的输出无法识别：${out}`,
    libraryUnreadable: (file, code) => `${file}：无法读取（${code}）`,
    judgedForNewShell: (scripts) => `按新开终端的情况判断（加载了 ${scripts.join('、')}）`,
  },
});
