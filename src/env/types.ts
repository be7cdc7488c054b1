// The environment changes cudawiz makes, as data: planned, shown, applied, journalled, undone.
import type { Host } from '../host.js';
import type { OsName, WindowsEnvScope } from '../platform.js';

export type EnvChangeKind = 'ld-so-conf' | 'ldconfig' | 'env-script' | 'rc-line' | 'windows-path' | 'package' | 'venv-activate' | 'venv-loader' | 'toolkit-installer';

export interface EnvCommand {
  file: string;
  args: string[];
  /** What the command does in readable form (the PowerShell script behind -EncodedCommand). */
  script?: string;
  /** The uid that owned `file` (located by cudawiz, absolute) when cudawiz ran it; rollback runs it only if that still holds. */
  owner?: number;
}

export interface EnvChange {
  kind: EnvChangeKind;
  /** A file path; venv-activate: the venv's folder; venv-loader: the .pth file in its site-packages; toolkit-installer: the toolkit's folder; 'Machine' or 'User' for windows-path; 'ld.so.cache' for ldconfig; package: the conda prefix, the venv's python, or 'apt'. */
  target: string;
  /** The file's content or the persisted value before the change; null when it did not exist. */
  before: string | null;
  /** ... and after it; null for ldconfig. */
  after: string | null;
  command?: EnvCommand;
  /** One line saying why, for the user. */
  why: string;
  /** rc-line: the line cudawiz adds. */
  line?: string;
  /** windows-path: the registry kind to write the value with (kept from the old value). */
  valueKind?: 'REG_SZ' | 'REG_EXPAND_SZ';
  /** ldconfig: the library files whose `ldconfig -p` lines are shown afterwards. */
  libraries?: string[];
  /** package: the manager's own command back to `before` (conda --revision N, pip name==old, apt-get name=old). */
  undo?: EnvCommand;
  /** rc-line, as journalled: the rc file's sha256 before (null: it did not exist) and after cudawiz's line; its content is never kept. */
  sha256Before?: string | null;
  sha256After?: string;
  /** toolkit-installer: which of NVIDIA's installers cudawiz ran into `target` (its file name, CUDA version, checksum). */
  installer?: { file: string; version: string; sha256?: string };
  /** toolkit-installer: NVIDIA's way out again, as src/cuda/uninstaller.ts derives it (Linux: the program and who owned it then; Windows: Programs and Features entries). */
  uninstaller?: { file?: string; args?: string[]; owner?: number; entries?: string[] };
}

/** A change cudawiz will not make, with what the user can do instead. */
export interface EnvRefusal {
  reason: string;
  fix: string;
}

export interface EnvPlan {
  os: OsName;
  changes: EnvChange[];
  /** Facts the user should know: conflicts resolved, restarts needed, CUDA_PATH. */
  notes: string[];
  /** Lines for the user to run or add themselves, when cudawiz does not write them. */
  manual: string[];
  refusals: EnvRefusal[];
}

/** Every place cudawiz writes to, derived once so tests can point all of them into a temp dir. */
export interface EnvPlaces {
  ldSoConfDir: string;
  /** cudawiz's config dir: env scripts and the journal. */
  configDir: string;
  journalFile: string;
  home: string;
}

/** A toolkit on the machine and which of TF's library files its library folder holds. */
export interface ToolkitLibraries {
  version: string;
  dir: string;
  files: string[];
}

export interface PersistedPath {
  value: string;
  kind: 'REG_SZ' | 'REG_EXPAND_SZ';
  /** The scope has no Path value at all (common for User): its value reads as '' but rollback deletes it. */
  absent?: boolean;
}

export interface LinuxEnvState {
  /** Files in ld.so.conf.d (name → content). */
  ldSoConf: { name: string; content: string }[];
  /** The current content of each file cudawiz may write (env scripts, rc files); null when absent. */
  files: Record<string, string | null>;
  ldLibraryPath?: string;
  shell?: string;
}

export interface WindowsEnvState {
  processPath: string;
  /** undefined: could not be read (the reason is in `unreadable`). */
  persisted: Partial<Record<WindowsEnvScope, PersistedPath>>;
  unreadable: string[];
  cudaPath?: string;
}

export interface EnvPlanInput {
  os: OsName;
  /** The TensorFlow version the libraries are for (for the messages). */
  tf?: string;
  /** The CUDA major.minor TF needs. */
  cuda: string;
  toolkitDir: string;
  /** TF's library file names that a toolkit or cuDNN provides (not the driver's). */
  requiredFiles: string[];
  /** Every toolkit on the machine (the chosen one included) with the required files it holds. */
  toolkits: ToolkitLibraries[];
  /** root on Linux, an elevated (admin) process on Windows. */
  elevated: boolean;
  /** Environment variables, for %VAR% expansion and CUDA_PATH. */
  env: Readonly<Record<string, string | undefined>>;
  places: EnvPlaces;
  linux?: LinuxEnvState;
  windows?: WindowsEnvState;
  /** Linux home installs: add the `source` line to the shell's rc file (default true). */
  rcLine?: boolean;
  /** Linux: this user's env script + rc line wherever the toolkit is (the redist route), never ld.so.conf.d. */
  forUser?: boolean;
  /** The command to run again as an administrator (repair's own); default: the install with --configure-env yes. */
  rerunCommand?: string;
}

export interface EnvApplyOptions {
  host: Host;
  /** The journal file every applied change is recorded in, before and after it happens. */
  journalFile: string;
  onChange?: (event: { change: EnvChange; state: 'start' | 'done' | 'skipped' | 'failed'; detail?: string }) => void;
}

export interface EnvApplyResult {
  ok: boolean;
  applied: EnvChange[];
  skipped: { change: EnvChange; reason: string }[];
  failed?: { change: EnvChange; message: string; fix?: string };
  /** `ldconfig -p` lines for TF's libraries after ldconfig ran. */
  ldconfigLines: string[];
}

export interface EnvJournalEntry {
  at: string;
  state: 'pending' | 'applied';
  change: EnvChange;
}

export interface EnvJournal {
  format: 1;
  entries: EnvJournalEntry[];
}

export interface EnvRollbackResult {
  ok: boolean;
  undone: EnvChange[];
  /** Changes left alone because the target changed since cudawiz wrote it. */
  kept: { change: EnvChange; reason: string; fix?: string }[];
  /** `notRun`: the way out (an uninstaller) was never started (missing, or refused), so nothing it does is in question. */
  failed: { change: EnvChange; message: string; notRun?: true }[];
}
