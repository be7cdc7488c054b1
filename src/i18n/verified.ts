// What cudawiz says when a file it was given to check (a bundle's file, a mirror's download, a cuDNN
// archive) is not one it will read: a link, not a plain file, the wrong size, other bytes (#37).
import { localized } from './localized.js';

export const verifiedText = localized({
  en: {
    isALink: (file: string) => `${file} is a link; cudawiz reads only the file itself, never what a link points to`,
    notAFile: (file: string) => `${file} is not a regular file`,
    wrongSize: (file: string, have: number, want: number) => `${file} is ${have} bytes, not the ${want} expected (its bytes were not read)`,
    wrongDigest: (file: string, algorithm: string, want: string, got: string) => `${file} has ${algorithm} ${got}, not ${want}`,
    unreadable: (file: string, why: string) => `${file} cannot be read (${why})`,
    othersCanWrite: (file: string, who: string) => `${file} can be changed by other users (${who}): cudawiz uses a private copy it checked, but the source itself is not yours alone`,
    othersCanWriteFix: 'Keep files you install from in a folder only you (or root) can write: chmod go-w, or chown to yourself.',
  },
  zh: {
    isALink: (file) => `${file} 是一个链接；cudawiz 只读取文件本身，从不读取链接指向的内容`,
    notAFile: (file) => `${file} 不是普通文件`,
    wrongSize: (file, have, want) => `${file} 的大小是 ${have} 字节，而不是预期的 ${want} 字节（未读取其内容）`,
    wrongDigest: (file, algorithm, want, got) => `${file} 的 ${algorithm} 是 ${got}，而不是 ${want}`,
    unreadable: (file, why) => `无法读取 ${file}（${why}）`,
    othersCanWrite: (file, who) => `${file} 可被其他用户修改（${who}）：cudawiz 使用的是它校验过的私有副本，但源文件并不只属于你`,
    othersCanWriteFix: '请把用来安装的文件放在只有你（或 root）能写入的文件夹中：chmod go-w，或 chown 给你自己。',
  },
});
