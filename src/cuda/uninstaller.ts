// How a toolkit NVIDIA's installer put in comes out again, derived from the toolkit's folder and version
// and the catalog's facts (assets/cuda.json: `linuxRunfile.uninstaller`, `windowsUninstall`, each with its
// source), never read from a file, so a journal can only ask for NVIDIA's own uninstaller of that folder.
// `--silent` is unverified (public cleanup scripts run it as root; NVIDIA's guide does not name it).
import path from 'node:path';
import { builtinCatalog } from '../catalog/load.js';
import type { CudaCatalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import { compareDotted, majorMinor } from '../version.js';

export type ToolkitUninstaller =
  /** A program in the toolkit's bin folder: `runs` when cudawiz knows how to run it unattended. */
  | { kind: 'program'; file: string; args: string[]; runs: boolean; unverifiedArgs: string[] }
  /** Windows: the Programs and Features entries to remove. */
  | { kind: 'programs-and-features'; entries: string[] };

/** The built-in catalog's CUDA facts, read once (the uninstaller is NVIDIA's, whatever an overlay says). */
let facts: CudaCatalog | undefined;
const cudaFacts = () => (facts ??= builtinCatalog().cuda);

export function toolkitUninstaller(os: OsName, toolkitDir: string, version: string, cuda: CudaCatalog = cudaFacts()): ToolkitUninstaller {
  const mm = majorMinor(version);
  const named = (pattern: string) => pattern.replaceAll('{mm}', mm);
  if (os === 'windows') return { kind: 'programs-and-features', entries: cuda.windowsUninstall.entries.map(named) };
  const u = cuda.linuxRunfile.uninstaller;
  // The catalog marks args unverified where no source gives them: the user is told when a removal rests on them.
  const unverifiedArgs = u.unverified?.includes('args') ? [...u.args] : [];
  if (compareDotted(mm, u.from) >= 0) return { kind: 'program', file: path.posix.join(toolkitDir, u.program), args: [...u.args], runs: true, unverifiedArgs };
  return { kind: 'program', file: path.posix.join(toolkitDir, named(u.before)), args: [], runs: false, unverifiedArgs: [] };
}

/** A Linux uninstaller as a user types it (sudo where the toolkit is not theirs). */
export function uninstallerCommandLine(u: Extract<ToolkitUninstaller, { kind: 'program' }>, sudo: boolean): string {
  return [...(sudo ? ['sudo'] : []), u.file, ...u.args].join(' ');
}
