// Strings of the Windows paths: verifying for the processes a PATH change reaches, file names that
// differ only by case.
import { localized } from './localized.js';

export const windowsText = localized({
  en: {
    judgedForNewProcesses: 'Judged with the PATH a new terminal gets (saved Machine + User PATH); this window still has the PATH from before the change, so open a new terminal before starting TensorFlow.',
    caseTwins: (a: string, b: string) => `The archive holds "${a}" and "${b}": on Windows these are one file, so the second would replace the first.`,
  },
  zh: {
    judgedForNewProcesses: '按新终端会得到的 PATH（已保存的系统 + 用户 PATH）判断；当前窗口的 PATH 仍是修改之前的，启动 TensorFlow 前请打开一个新终端。',
    caseTwins: (a, b) => `压缩包中同时有 "${a}" 和 "${b}"：在 Windows 上它们是同一个文件，后一个会覆盖前一个。`,
  },
});
