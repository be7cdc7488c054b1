// What the headless commands say around their plans: bad flags, the confirmation before a change,
// and rollback's account of what it undid. Codes and --json fields stay English.
import { localized } from './localized.js';
import { routesText } from './routes.js';

export const commandsText = localized({
  en: {
    badRoute: (value: string) => routesText.badRoute(value),
    get badRouteFix(): string {
      return routesText.badRouteFix();
    },
    pipRouteNote: (tf: string) => `Simpler for TensorFlow ${tf}: cudawiz install --tf ${tf} --route pip [--venv DIR] — pip brings CUDA and cuDNN as wheels into a virtual environment; only the driver is needed and nothing in the system changes.`,
    venvIsPip: '--venv belongs to the pip route.',
    badConnections: '--connections must be a whole number from 1 to 16.',
    changesMachine: (titles: string[]) => `This changes the machine (${titles.map((t) => t.charAt(0).toLowerCase() + t.slice(1)).join(', ')}); pass --yes to go ahead, or --dry-run to only look.`,
    goAhead: 'Go ahead?',
    noTfToRepair: 'No TensorFlow version to repair for: none is pip-installed here and --tf was not given.',
    noTfToRepairFix: 'Say which one: cudawiz repair --tf 2.10',
    notAFolder: (dir: string) => `--cuda-dir ${dir} is not a folder.`,
    notAFolderFix: 'Pass the toolkit folder, e.g. --cuda-dir /usr/local/cuda-10.1',
    noPermission: (dir: string) => `No permission to change ${dir}.`,
    nothingHere: (dir: string) => `${dir}: nothing to roll back.`,
    rolledBack: (dir: string, interrupted: boolean, removed: number, restored: number) =>
      `${dir}: ${interrupted ? 'interrupted cuDNN copy' : 'cuDNN copy'} rolled back (removed ${removed} file${removed === 1 ? '' : 's'}, restored ${restored} original${restored === 1 ? '' : 's'}).`,
    restoredLine: (file: string) => `restored ${file}`,
    envUndone: (target: string) => `${target}: cudawiz's change undone.`,
    wouldUndoCudnn: (dir: string, files: number, originals: number) => `${dir}: would take out cudawiz's cuDNN copy (${files} file${files === 1 ? '' : 's'}, restoring ${originals} original${originals === 1 ? '' : 's'}).`,
    wouldRemoveToolkit: (dir: string, release: string, files: number) => `${dir}: would remove the CUDA ${release} toolkit cudawiz laid out (${files} files, each only while unchanged).`,
    toolkitStays: (dir: string, os: 'linux' | 'windows') =>
      `The CUDA toolkit in ${dir} itself stays: NVIDIA's installer put it there, and only its uninstaller removes it (${os === 'windows' ? 'Settings → Apps → the "NVIDIA CUDA" entries' : `sudo ${dir}/bin/cuda-uninstaller`}).`,
    toolkitKept: (dir: string) => `${dir}: the toolkit cudawiz laid out stays (--keep-toolkits).`,
    wouldUndoEnv: (target: string) => `${target}: would undo cudawiz's change.`,
    wouldRunUndo: (target: string, command: string) => `${target}: would run ${command}.`,
    wouldRebuildCache: 'would run ldconfig once the loader files are gone.',
    dryRunNothingChanged: 'Nothing was changed (--dry-run). Run `cudawiz rollback` to do it.',
    packageUndone: (target: string, before: string, command: string) => `${target}: back to ${before} (${command}).`,
    envKept: (target: string, reason: string, fix?: string) => `${target}: left as it is — ${reason}${fix ? ` (${fix})` : ''}`,
  },
  zh: {
    badRoute: (value) => routesText.badRoute(value),
    get badRouteFix() {
      return routesText.badRouteFix();
    },
    pipRouteNote: (tf) => `TensorFlow ${tf} 有更简单的办法：cudawiz install --tf ${tf} --route pip [--venv DIR] —— pip 把 CUDA 和 cuDNN 以 wheel 的形式装进虚拟环境；只需要显卡驱动，系统里什么都不改。`,
    venvIsPip: '--venv 只用于 pip 方式（--route pip）。',
    badConnections: '--connections 必须是 1 到 16 之间的整数。',
    changesMachine: (titles) => `这会修改这台机器（${titles.join('、')}）；加上 --yes 继续，或加 --dry-run 只看不改。`,
    goAhead: '开始吗？',
    noTfToRepair: '不知道要为哪个 TensorFlow 版本修复：这里没有用 pip 安装的 TensorFlow，也没有给出 --tf。',
    noTfToRepairFix: '请指定版本：cudawiz repair --tf 2.10',
    notAFolder: (dir) => `--cuda-dir ${dir} 不是文件夹。`,
    notAFolderFix: '请给出工具包的文件夹，例如 --cuda-dir /usr/local/cuda-10.1',
    noPermission: (dir) => `没有修改 ${dir} 的权限。`,
    nothingHere: (dir) => `${dir}：没有可回滚的内容。`,
    rolledBack: (dir, interrupted, removed, restored) => `${dir}：已回滚${interrupted ? '中断的' : ''} cuDNN 复制（删除 ${removed} 个文件，恢复 ${restored} 个原文件）。`,
    restoredLine: (file) => `已恢复 ${file}`,
    envUndone: (target) => `${target}：已撤销 cudawiz 的修改。`,
    wouldUndoCudnn: (dir, files, originals) => `${dir}：将撤销 cudawiz 复制的 cuDNN（${files} 个文件，恢复 ${originals} 个原文件）。`,
    wouldRemoveToolkit: (dir, release, files) => `${dir}：将删除 cudawiz 布置的 CUDA ${release} 工具包（${files} 个文件，仅删除未改动的）。`,
    toolkitStays: (dir, os) => `${dir} 里的 CUDA 工具包本身保留：它是 NVIDIA 安装程序装的，只有它的卸载程序能删除它（${os === 'windows' ? '设置 → 应用 → 名为 “NVIDIA CUDA” 的各项' : `sudo ${dir}/bin/cuda-uninstaller`}）。`,
    toolkitKept: (dir) => `${dir}：保留 cudawiz 布置的工具包（--keep-toolkits）。`,
    wouldUndoEnv: (target) => `${target}：将撤销 cudawiz 的修改。`,
    wouldRunUndo: (target, command) => `${target}：将运行 ${command}。`,
    wouldRebuildCache: '加载器配置文件删除后将运行 ldconfig。',
    dryRunNothingChanged: '没有做任何改动（--dry-run）。运行 `cudawiz rollback` 来执行。',
    packageUndone: (target, before, command) => `${target}：已退回到 ${before}（${command}）。`,
    envKept: (target, reason, fix) => `${target}：保持原样 —— ${reason}${fix ? `（${fix}）` : ''}`,
  },
});
