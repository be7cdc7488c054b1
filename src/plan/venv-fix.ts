// A venv's loader-path fix, journalled first (#39.4, #39.5): the activate block (journalled as the venv,
// taken out through the venv's own record) for an activated shell, and the venv's loader file in its
// site-packages (journalled as the file) for its python run without activation. Rollback undoes both.
import { readFile } from 'node:fs/promises';
import type { Host } from '../host.js';
import { pipText } from '../i18n/pip.js';
import { applyEnvChanges, envPlaces, journalVenvFix } from '../env/index.js';
import { CudawizError } from '../errors.js';
import { applyWheelLibraryFix, type WheelLibraryFix } from '../pip/index.js';

export async function applyVenvFixJournalled(host: Host, fix: WheelLibraryFix, why: string): ReturnType<typeof applyWheelLibraryFix> {
  const journalFile = envPlaces({ host, root: host.fsRoot }).journalFile;
  const forget = fix.venv ? await journalVenvFix(journalFile, fix.venv, why) : undefined;
  const r = await applyWheelLibraryFix(fix, { consent: true }).catch(async (error: unknown) => {
    await forget?.();
    throw error;
  });
  if (!r.applied) await forget?.();
  if (!fix.loaderFile || fix.loaderInPlace || fix.dirs.length === 0) return r;
  // Only a file cudawiz creates can be journalled (rollback restores no content into a file python runs at start-up).
  const there = await readFile(fix.loaderFile, 'utf8').catch(() => null);
  if (there !== null && there !== fix.loaderContent) throw new CudawizError(pipText.loaderFileThere(fix.loaderFile), { code: 'venv-loader-exists', fix: pipText.loaderFileThereFix(fix.loaderFile) });
  const loader = await applyEnvChanges([{ kind: 'venv-loader', target: fix.loaderFile, before: null, after: fix.loaderContent, why }], { host, journalFile });
  if (loader.failed) throw new CudawizError(loader.failed.message, { code: 'venv-loader-failed', fix: loader.failed.fix });
  return { ...r, applied: r.applied || loader.applied.length > 0, loaderFile: fix.loaderFile };
}
