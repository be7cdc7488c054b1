// The CUDA installer's command line, assembled from data. Pure: the same inputs give the same
// argument vector on any host, so both OSes' commands are asserted exactly on Linux.
import { windowsComponents } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { CommandSpec, OsName } from '../platform.js';
import { atLeast } from '../version.js';

export interface InstallerArgsInput {
  os: OsName;
  catalog: Catalog;
  /** The toolkit's full version, e.g. "10.1.243". */
  version: string;
  /** The downloaded installer (.run / .exe). */
  installerFile: string;
  /** Where the toolkit goes: /usr/local/cuda-10.1 (Linux only; the Windows installer picks its own). */
  toolkitDir: string;
  /** Linux: a scratch dir on a disk with room for the unpacked installer. */
  tmpDir: string;
  /** Windows: where the installer writes LOG.setup.exe.log and friends. */
  logDir: string;
  /**
   * Linux: add `--override`, which skips the runfile's compiler check ("Failed to verify gcc version").
   * Off by default: it also skips other checks, so it is only passed when the user asks after that failure.
   */
  overrideCompilerCheck?: boolean;
}

/** The runfile learnt --installpath in the catalog's `linuxRunfile.installPathFrom`; before that the path was --toolkitpath. */
export function modernRunfile(catalog: Catalog, version: string): boolean {
  return atLeast(version, catalog.cuda.linuxRunfile.installPathFrom);
}

export function linuxInstallerArgs(input: Omit<InstallerArgsInput, 'os' | 'logDir'>): string[] {
  const modern = modernRunfile(input.catalog, input.version);
  return [
    input.installerFile,
    '--silent',
    // Toolkit only: never --driver. --no-drm / --no-opengl-libs only change a driver install, so they are not passed.
    '--toolkit',
    modern ? `--installpath=${input.toolkitDir}` : `--toolkitpath=${input.toolkitDir}`,
    ...(modern ? [] : ['--verbose']),
    `--tmpdir=${input.tmpDir}`,
    // Man pages would go to /usr/share/man, outside the chosen root (and unwritable without sudo).
    '--no-man-page',
    ...(input.overrideCompilerCheck ? ['--override'] : []),
  ];
}

/**
 * `-s` with the explicit component list (the display driver is left out by not naming it), `-n`
 * for no reboot (seen in user scripts; NVIDIA's wording for it is unverified, domain.md §3d), and
 * pytorch/builder's log flags.
 */
export function windowsInstallerArgs(input: Pick<InstallerArgsInput, 'catalog' | 'version' | 'logDir'>): string[] {
  const components = windowsComponents(input.catalog, input.version).filter((c) => !/^display\.driver/i.test(c));
  return ['-s', ...components, '-n', '-loglevel:6', `-log:"${input.logDir}"`];
}

/** The whole command: Linux runs the runfile through `sh` (it may lack the exec bit); Windows runs the .exe. */
export function installerCommand(input: InstallerArgsInput): CommandSpec {
  return input.os === 'windows'
    ? { file: input.installerFile, args: windowsInstallerArgs(input) }
    : { file: 'sh', args: linuxInstallerArgs(input) };
}

/** A Windows toolkit with no component list would be a full install, driver included: refuse it. */
export function hasWindowsComponents(catalog: Catalog, version: string): boolean {
  return windowsComponents(catalog, version).length > 0;
}
