// Root never hands others' folders to every program (#37): a system loader file (/etc/ld.so.conf.d)
// names only folders that root owns and no other user can write, up to `/`. Otherwise whoever can
// change such a folder serves their libraries to every program root runs, so the plan stops first.
import { stat } from 'node:fs/promises';
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
