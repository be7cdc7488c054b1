// Root never hands others' folders to every program (#37): a system loader file (/etc/ld.so.conf.d)
// names only folders that root owns and no other user can write, up to `/`. Otherwise whoever can
// change such a folder serves their libraries to every program root runs, so the plan stops first.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { adminOnlyWindowsRoots } from '../platform.js';
import { CudawizError } from '../errors.js';
import { trustText } from '../i18n/trust.js';
import { whyNotOurs, writableByOthers } from './ownership.js';

export interface UntrustedLoaderFolder {
  folder: string;
  /** The folder (the one given or one above it) someone other than root can change. */
  culprit: string;
  reason: string;
  fix: string;
}

/** The first of `folders` a system loader file must not name, with why and the fix; undefined when all may be named. */
export async function untrustedLoaderFolder(folders: string[]): Promise<UntrustedLoaderFolder | undefined> {
  for (const folder of folders) {
    const culprit = await writableByOthers(folder);
    if (!culprit) continue;
    const s = await stat(culprit).catch(() => undefined);
    const why = (s && whyNotOurs(culprit, s)) ?? trustText.writableByOthers(culprit);
    return { folder, culprit, reason: trustText.loaderFolderUntrusted(folder, why), fix: trustText.loaderFolderUntrustedFix(folder, culprit) };
  }
  return undefined;
}

/** The same rule for the toolkit folder itself, as the preflight's stop (said by the plan, thrown by the run) before a byte is laid into it. */
export async function rootLoaderFolderStop(toolkitDir: string): Promise<CudawizError | undefined> {
  const culprit = await writableByOthers(toolkitDir);
  if (!culprit) return undefined;
  const s = await stat(culprit).catch(() => undefined);
  const why = (s && whyNotOurs(culprit, s)) ?? trustText.writableByOthers(culprit);
  return new CudawizError(trustText.toolkitFolderUntrusted(toolkitDir, why), { code: 'loader-folder-untrusted', fix: trustText.loaderFolderUntrustedFix(toolkitDir, culprit) });
}

/** How Windows compares folders: backslashes, `.`/`..` resolved, case folded, no trailing backslash. */
function windowsFolderKey(dir: string): string {
  return path.win32.normalize(dir).replace(/\\+$/, '').toLowerCase();
}

/** Why a Machine PATH entry must not name `folder` (already %VAR%-expanded), with the fix; undefined when it may. */
export function untrustedMachinePathFolder(folder: string, env: Record<string, string | undefined>): { reason: string; fix: string } | undefined {
  const key = windowsFolderKey(folder);
  const underAdminRoot = path.win32.isAbsolute(folder) && adminOnlyWindowsRoots(env).map(windowsFolderKey).some((root) => key === root || key.startsWith(`${root}\\`));
  if (underAdminRoot) return undefined;
  return { reason: trustText.machinePathUntrusted(folder, trustText.windowsUsersCanWrite(folder)), fix: trustText.machinePathUntrustedFix(folder) };
}
