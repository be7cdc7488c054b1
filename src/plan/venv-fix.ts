// A venv's activate block, added with its journal entry first: rollback finds the venv in the journal
// and takes the block out through the venv's own record (#39.4).
import type { Host } from '../host.js';
import { envPlaces, journalVenvFix } from '../env/index.js';
import { applyWheelLibraryFix, type WheelLibraryFix } from '../pip/index.js';

export async function applyVenvFixJournalled(host: Host, fix: WheelLibraryFix, why: string): ReturnType<typeof applyWheelLibraryFix> {
  const forget = fix.venv ? await journalVenvFix(envPlaces({ host, root: host.fsRoot }).journalFile, fix.venv, why) : undefined;
  const r = await applyWheelLibraryFix(fix, { consent: true }).catch(async (error: unknown) => {
    await forget?.();
    throw error;
  });
  if (!r.applied) await forget?.();
  return r;
}
