// Root never hands others' folders to every program (#37): a system loader file (/etc/ld.so.conf.d)
// names only folders that root owns and no other user can write, up to `/`. Otherwise whoever can
// change such a folder serves their libraries to every program root runs, so the plan stops first.
import { stat } from 'node:fs/promises';
import path from 'node:path';
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

/**
 * Windows keeps who may write a folder in ACLs, which cudawiz does not read (Wine has none to read):
 * so the rule is Windows' defaults, as data. Program Files (both) and %SystemRoot% grant write to
 * Administrators and SYSTEM only; any other folder (C:\tools\cuda, a user profile, a second drive's
 * root) lets ordinary users create or change what is in it, so a Machine PATH entry for it would hand
 * their DLLs to every program and user.
 */
export function adminOnlyWindowsRoots(env: Record<string, string | undefined>): string[] {
  const get = (name: string) => Object.entries(env).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const programFiles = ['ProgramFiles', 'ProgramW6432', 'ProgramFiles(x86)'].map(get).filter((v): v is string => Boolean(v));
  const windows = get('SystemRoot') ?? get('windir') ?? 'C:\\Windows';
  // Where Windows says nothing (a bare environment), its own defaults.
  const roots = [...(programFiles.length > 0 ? programFiles : ['C:\\Program Files', 'C:\\Program Files (x86)']), windows];
  return [...new Set(roots.map(windowsFolderKey))];
}

/** How Windows compares folders: backslashes, `.`/`..` resolved, case folded, no trailing backslash. */
function windowsFolderKey(dir: string): string {
  return path.win32.normalize(dir).replace(/\\+$/, '').toLowerCase();
}

/** Why a Machine PATH entry must not name `folder` (already %VAR%-expanded), with the fix; undefined when it may. */
export function untrustedMachinePathFolder(folder: string, env: Record<string, string | undefined>): { reason: string; fix: string } | undefined {
  const key = windowsFolderKey(folder);
  const underAdminRoot = path.win32.isAbsolute(folder) && adminOnlyWindowsRoots(env).some((root) => key === root || key.startsWith(`${root}\\`));
  if (underAdminRoot) return undefined;
  return { reason: trustText.machinePathUntrusted(folder, trustText.windowsUsersCanWrite(folder)), fix: trustText.machinePathUntrustedFix(folder) };
}
