// Putting the wheels' site-packages/nvidia/*/lib folders on the loader path of a virtual environment:
// the block src/wheels/fix-plan.ts plans, appended to DIR/bin/activate only with consent, recorded
// so that undo gives back the script byte for byte. The record is believed only as
// src/trust/bookkeeping.ts says (the venv and its bin folder and the record root's or this user's,
// writable by no one else); the script it undoes is derived from the venv it was found in, never read
// from it, and the block it takes out must be a block cudawiz writes (#37.4, P3).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { CudawizError, EXIT } from '../errors.js';
import { ownLines } from '../i18n/localized.js';
import { pipText } from '../i18n/pip.js';
import { safetyText } from '../i18n/safety.js';
import { venvActivateScript, venvBinDir } from '../platform.js';
import { readBookkeeping, removeBookkeeping, writeBookkeeping } from '../trust/bookkeeping.js';
import { FIX_BEGIN, FIX_END, FIX_RECORD, quote, type WheelLibraryFix } from '../wheels/fix-plan.js';
import { replaceFileSync } from '../trust/write.js';

export { FIX_BEGIN, FIX_END, FIX_RECORD, fixLines, planWheelLibraryFix, type WheelLibraryFix } from '../wheels/fix-plan.js';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export interface WheelFixRecord {
  /** Exactly what was appended (a newline first when the script did not end with one). */
  appended: string;
  sha256Before: string;
  sha256After: string;
  dirs: string[];
  appliedAt: string;
}

/** Replaced whole, never through a link (src/trust/write.ts); the script keeps its mode and owner. */
function writeAtomically(file: string, content: string | Buffer): void {
  replaceFileSync(file, content, { like: fs.statSync(file) });
}

export function wheelFixRecordFile(venv: string): string {
  return path.join(venv, FIX_RECORD);
}
const recordFile = wheelFixRecordFile;

const hex = z.string().regex(/^[0-9a-f]{64}$/);
/** The record as cudawiz writes it: the block it appended (its own markers, nothing else around them) and the script's hashes. */
const recordSchema = z.object({
  appended: z.string().refine((a) => a.replace(/^\n/, '').startsWith(FIX_BEGIN) && a.endsWith(`${FIX_END}\n`) && a.indexOf(FIX_END) === a.length - FIX_END.length - 1),
  sha256Before: hex,
  sha256After: hex,
  dirs: z.array(z.string()),
  appliedAt: z.string(),
});

/**
 * The venv's record, believed or refused: undefined when there is none; a CudawizError when it is
 * not one cudawiz wrote, or someone else could have.
 */
export async function readWheelFixRecord(venv: string): Promise<WheelFixRecord | undefined> {
  const file = recordFile(venv);
  const read = await readBookkeeping(file, [venv, venvBinDir('linux', venv)]);
  if ('missing' in read) return undefined;
  if ('untrusted' in read) throw new CudawizError(safetyText.bookkeepingUntrusted(file, read.untrusted), { code: 'wheel-fix-untrusted', fix: safetyText.bookkeepingUntrustedFix(file) });
  const why = 'unreadable' in read ? read.unreadable : undefined;
  let parsed;
  try {
    parsed = 'text' in read ? recordSchema.safeParse(JSON.parse(read.text)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new CudawizError(safetyText.manifestUnreadable(file, why ?? parsed?.error.issues[0]?.message ?? 'JSON'), { code: 'wheel-fix-invalid', fix: safetyText.manifestUnreadableFix(file) });
  return parsed.data;
}

export async function applyWheelLibraryFix(plan: WheelLibraryFix, options: { consent: boolean }): Promise<{ applied: boolean; record?: WheelFixRecord; recordFile?: string; loaderFile?: string }> {
  if (plan.blocker || !plan.activateScript || !plan.venv) {
    throw new CudawizError(plan.blocker ?? pipText.noVenvToFix, { code: 'wheel-fix-blocked', fix: pipText.addToProfile(ownLines(plan.lines.join('\n'))) });
  }
  if (plan.alreadyApplied || plan.dirs.length === 0) return { applied: false };
  if (!options.consent) {
    throw new CudawizError(pipText.needsConsent(plan.activateScript), {
      code: 'consent-needed',
      exitCode: EXIT.needsUser,
      fix: pipText.needsConsentFix,
    });
  }
  const before = fs.readFileSync(plan.activateScript);
  if (before.includes(FIX_BEGIN)) return { applied: false };
  const appended = `${before.length && before[before.length - 1] !== 0x0a ? '\n' : ''}${plan.lines.join('\n')}\n`;
  const after = Buffer.concat([before, Buffer.from(appended, 'utf8')]);
  const record: WheelFixRecord = {
    appended,
    sha256Before: sha256(before),
    sha256After: sha256(after),
    dirs: plan.dirs,
    appliedAt: new Date().toISOString(),
  };
  // The record first: a crash between the two writes leaves a record of a change not made, which undo reports.
  await writeBookkeeping(recordFile(plan.venv), `${JSON.stringify(record, null, 2)}\n`);
  writeAtomically(plan.activateScript, after);
  return { applied: true, record, recordFile: recordFile(plan.venv) };
}

export async function undoWheelLibraryFix(venv: string): Promise<{ undone: boolean; exact: boolean; activateScript?: string }> {
  const record = await readWheelFixRecord(venv);
  if (!record) return { undone: false, exact: true };
  // Derived from where the record was found, whatever a file says.
  const activateScript = venvActivateScript('linux', venv);
  const current = fs.readFileSync(activateScript);
  // Bytes, not text: an activate script need not be valid UTF-8, and undo must give back its bytes.
  const block = Buffer.from(record.appended, 'utf8');
  const at = current.lastIndexOf(block);
  if (at < 0) {
    if (!current.includes(FIX_BEGIN)) {
      await removeBookkeeping(recordFile(venv));
      return { undone: false, exact: sha256(current) === record.sha256Before, activateScript };
    }
    throw new CudawizError(pipText.blockEdited(activateScript), {
      code: 'wheel-fix-edited',
      fix: pipText.blockEditedFix(FIX_BEGIN.slice(0, 30), FIX_END, activateScript),
    });
  }
  const restored = Buffer.concat([current.subarray(0, at), current.subarray(at + block.length)]);
  writeAtomically(activateScript, restored);
  await removeBookkeeping(recordFile(venv));
  return { undone: true, exact: sha256(restored) === record.sha256Before, activateScript };
}
