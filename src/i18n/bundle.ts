// What `requirements` says about each route's files, what `download --tf` says while it makes a
// bundle, and what `install --from` says when it checks one. Codes and --json fields stay English.
import { localized } from './localized.js';

export const bundleText = localized({
  en: {
    routesTitle: 'What each route downloads (a bundle for an offline machine: cudawiz download --tf V --route R --dest DIR):',
    routeName: (route: string) => ({ toolkit: 'toolkit — the CUDA installer and cuDNN', redist: 'redist — only the CUDA components TensorFlow loads, and cuDNN', pip: 'pip — tensorflow[and-cuda] and the NVIDIA wheels it pins' })[route] ?? route,
    routeMissing: (reason: string) => `not here: ${reason}`,
    needsAdmin: 'needs an administrator',
    needsNoAdmin: 'no administrator',
    needsLogin: 'a login at NVIDIA for cuDNN',
    needsNoLogin: 'no login',
    files: (n: number) => `${n} file${n === 1 ? '' : 's'}`,
    total: (size: string) => `${size} in all`,
    atLeast: (size: string) => `at least ${size} (some sizes unknown)`,
    sizeUnknown: 'size unknown',
    scratch: (size: string) => `about ${size} free while the installer runs`,
    cudaRelease: (v: string) => `CUDA ${v}`,
    checksumLater: 'checked against NVIDIA\'s published checksum as it downloads',
    loginFile: (page: string) => `behind NVIDIA's login: ${page}`,
    pipWheels: (requirement: string, pythons: string) => `pip install "${requirement}" resolves the NVIDIA wheels it pins (the catalog does not list them; their size is pip's to say); Python ${pythons}`,
  },
  zh: {
    routesTitle: '每种方式要下载的文件（给离线机器做安装包：cudawiz download --tf V --route R --dest DIR）：',
    routeName: (route) => ({ toolkit: 'toolkit —— CUDA 安装程序和 cuDNN', redist: 'redist —— 只下载 TensorFlow 加载的 CUDA 组件，以及 cuDNN', pip: 'pip —— tensorflow[and-cuda] 及其锁定版本的 NVIDIA wheel' })[route] ?? route,
    routeMissing: (reason) => `这里不可用：${reason}`,
    needsAdmin: '需要管理员权限',
    needsNoAdmin: '不需要管理员权限',
    needsLogin: 'cuDNN 需要登录 NVIDIA 账号',
    needsNoLogin: '不需要登录',
    files: (n) => `${n} 个文件`,
    total: (size) => `共 ${size}`,
    atLeast: (size) => `至少 ${size}（有些文件大小未知）`,
    sizeUnknown: '大小未知',
    scratch: (size) => `安装程序运行时需要约 ${size} 的可用空间`,
    cudaRelease: (v) => `CUDA ${v}`,
    checksumLater: '下载时按 NVIDIA 公布的校验和检查',
    loginFile: (page) => `需要登录 NVIDIA 才能下载：${page}`,
    pipWheels: (requirement, pythons) => `pip install "${requirement}" 会解析出它锁定版本的 NVIDIA wheel（目录里没有列出它们；大小由 pip 决定）；Python ${pythons}`,
  },
});
