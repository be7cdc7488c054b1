// How a toolkit NVIDIA's installer put in comes out again, as data: derived from the toolkit's folder and
// version, never read from a file, so a journal can only ask for NVIDIA's own uninstaller of that folder.
//   Linux 10.1+: the runfile's summary ends "To uninstall the CUDA Toolkit, run cuda-uninstaller in
//     /usr/local/cuda-X.Y/bin" (a 10.2 run quoted on blog.csdn.net/luoganttcc/article/details/105498260;
//     NVIDIA's Linux installation guide, "Removing CUDA Toolkit": `sudo /usr/local/cuda-X.Y/bin/cuda-uninstaller`).
//     Without flags it opens a menu of components; `--silent` removes them all without asking (seen in
//     public cleanup scripts run as root, not in NVIDIA's guide: unverified, the fixture behaves so).
//   Linux before 10.1: a perl script, bin/uninstall_cuda_X.Y.pl ("run the uninstall script in …/bin");
//     its unattended flags are not known here, so cudawiz never runs it: it names it.
//   Windows: every subpackage is its own entry in Programs and Features ("All subpackages can be
//     uninstalled through the Windows Control Panel by using the Programs and Features widget", NVIDIA's
//     Windows installation guide); cudawiz names the entries of the version (NVIDIA CUDA … X.Y), it never
//     drives the Control Panel.
import path from 'node:path';
import type { OsName } from '../platform.js';
import { compareDotted, majorMinor } from '../version.js';

export type ToolkitUninstaller =
  /** A program in the toolkit's bin folder: `runs` when cudawiz knows how to run it unattended. */
  | { kind: 'program'; file: string; args: string[]; runs: boolean }
  /** Windows: the Programs and Features entries to remove. */
  | { kind: 'programs-and-features'; entries: string[] };

/** The first runfile with bin/cuda-uninstaller (the one with --installpath too). */
const CUDA_UNINSTALLER_FROM = '10.1';

export function toolkitUninstaller(os: OsName, toolkitDir: string, version: string): ToolkitUninstaller {
  const mm = majorMinor(version);
  if (os === 'windows') return { kind: 'programs-and-features', entries: [`NVIDIA CUDA Development ${mm}`, `NVIDIA CUDA Runtime ${mm}`] };
  if (compareDotted(mm, CUDA_UNINSTALLER_FROM) >= 0) return { kind: 'program', file: path.posix.join(toolkitDir, 'bin', 'cuda-uninstaller'), args: ['--silent'], runs: true };
  return { kind: 'program', file: path.posix.join(toolkitDir, 'bin', `uninstall_cuda_${mm}.pl`), args: [], runs: false };
}

/** A Linux uninstaller as a user types it (sudo where the toolkit is not theirs). */
export function uninstallerCommandLine(u: Extract<ToolkitUninstaller, { kind: 'program' }>, sudo: boolean): string {
  return [...(sudo ? ['sudo'] : []), u.file, ...u.args].join(' ');
}
