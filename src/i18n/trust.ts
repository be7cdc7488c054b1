// What cudawiz says when it will not run a program, or will not hand a folder to every program on the
// machine, because someone other than root or you could change it (#37; docs/safety.md).
import { localized } from './localized.js';

export const trustText = localized({
  en: {
    writableByOthers: (p: string) => `${p} is writable by other users`,
    folderOthersCanChange: (program: string, why: string) => `the folder ${program} sits in can be changed by another user (${why})`,
    fileOthersCanChange: (program: string, why: string) => `another user can change ${program} (${why})`,
    refused: (program: string, why: string) => `As root, cudawiz will not run ${program}: ${why}. Whoever can change it would run their program as root.`,
    refusedFix: (dir: string, command: string) => `If you trust it, run it yourself: ${command}\n    Or make ${dir} and the folders above it root's and writable by no one else (chown root: DIR; chmod go-w DIR), then run cudawiz again.`,
    notFound: (file: string) => `cudawiz found no program "${file}" in PATH's folders.`,
    notFoundFix: (file: string) => `Install ${file}, or put the folder holding it on PATH (an absolute folder), then run again.`,
    undoRunYourself: (command: string) => `If you trust it, run it yourself: ${command}`,
    recordedOwnerChanged: (program: string, was: number, now: number) => `${program} was owned by user ${was} when cudawiz ran it, and is owned by user ${now} now`,
    loaderFolderUntrusted: (folder: string, why: string) => `cudawiz will not make ${folder} a folder every program on this machine loads libraries from: ${why}. Whoever can change it could hand their libraries to root's programs.`,
    loaderFolderUntrustedFix: (folder: string, culprit: string) => `Make ${culprit} root's and writable by no one else (sudo chown root: "${culprit}"; sudo chmod go-w "${culprit}"), or install where only root can write (the default --cuda-root), or run cudawiz as yourself for a per-user setup; then run again.`,
    toolkitFolderUntrusted: (folder: string, why: string) => `As root, cudawiz will not put a toolkit into ${folder} and have programs load its libraries: ${why}. Whoever can change it could hand their libraries to root's programs.`,
    machinePathUntrusted: (folder: string, why: string) => `cudawiz will not add ${folder} to the Machine PATH, which every program and user reads: ${why}.`,
    machinePathUntrustedFix: (folder: string) => `Add ${folder} to your User PATH instead (run cudawiz from a terminal that is not elevated), or move the toolkit under C:\\Program Files, which only Administrators and SYSTEM can write; then run again.`,
    windowsUsersCanWrite: (folder: string) => `${folder} is outside Program Files and the Windows folder, where ordinary users can create and change files by default`,
  },
  zh: {
    writableByOthers: (p) => `其他用户可以写入 ${p}`,
    folderOthersCanChange: (program, why) => `${program} 所在的文件夹可被其他用户更改（${why}）`,
    fileOthersCanChange: (program, why) => `其他用户可以更改 ${program}（${why}）`,
    refused: (program, why) => `以 root 身份运行时，cudawiz 不会运行 ${program}：${why}。能更改它的人就能以 root 身份运行自己的程序。`,
    refusedFix: (dir, command) => `如果你信任它，请自己运行：${command}\n    或者让 ${dir} 及其上层文件夹归 root 所有且其他人都不可写（chown root: 目录；chmod go-w 目录），然后再次运行 cudawiz。`,
    notFound: (file) => `cudawiz 在 PATH 的文件夹中找不到程序“${file}”。`,
    notFoundFix: (file) => `请安装 ${file}，或把包含它的文件夹（绝对路径）加入 PATH，然后再次运行。`,
    undoRunYourself: (command) => `如果你信任它，请自己运行：${command}`,
    recordedOwnerChanged: (program, was, now) => `cudawiz 运行 ${program} 时它属于用户 ${was}，现在属于用户 ${now}`,
    loaderFolderUntrusted: (folder, why) => `cudawiz 不会把 ${folder} 设为本机所有程序加载库的文件夹：${why}。能更改它的人就能把自己的库交给 root 的程序。`,
    loaderFolderUntrustedFix: (folder, culprit) => `让 ${culprit} 归 root 所有且其他人都不可写（sudo chown root: "${culprit}"；sudo chmod go-w "${culprit}"），或安装到只有 root 能写的位置（默认的 --cuda-root），或以你自己的身份运行 cudawiz 做按用户的设置；然后再次运行。`,
    toolkitFolderUntrusted: (folder, why) => `以 root 身份运行时，cudawiz 不会把工具包放进 ${folder} 并让程序加载其中的库：${why}。能更改它的人就能把自己的库交给 root 的程序。`,
    machinePathUntrusted: (folder, why) => `cudawiz 不会把 ${folder} 加入所有程序和用户都会读取的 Machine PATH：${why}。`,
    machinePathUntrustedFix: (folder) => `改为把 ${folder} 加入你的 User PATH（在未提升权限的终端中运行 cudawiz），或把工具包移到只有 Administrators 和 SYSTEM 能写入的 C:\\Program Files 下；然后再次运行。`,
    windowsUsersCanWrite: (folder) => `${folder} 不在 Program Files 或 Windows 文件夹下，默认情况下普通用户可以在其中创建和更改文件`,
  },
});
