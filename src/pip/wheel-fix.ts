// Putting the wheels' site-packages/nvidia/*/lib folders on the loader path of a virtual environment:
// the block src/wheels/fix-plan.ts plans, appended to DIR/bin/activate only with consent, recorded
// so that undo gives back the script byte for byte.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { pipText } from '../i18n/pip.js';
import { venvActivateScript } from '../platform.js';
import { FIX_BEGIN, FIX_END, FIX_RECORD, quote, type WheelLibraryFix } from '../wheels/fix-plan.js';
import { replaceFileSync } from '../trust/write.js';

export { FIX_BEGIN, FIX_END, FIX_RECORD, fixLines, planWheelLibraryFix, type WheelLibraryFix } from '../wheels/fix-plan.js';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export interface WheelFixRecord {
  activateScript: string;
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

function recordFile(venv: string): string {
  return path.join(venv, FIX_RECORD);
}

export function applyWheelLibraryFix(plan: WheelLibraryFix, options: { consent: boolean }): { applied: boolean; record?: WheelFixRecord; recordFile?: string } {
  if (plan.blocker || !plan.activateScript || !plan.venv) {
    throw new CudawizError(plan.blocker ?? pipText.noVenvToFix, { code: 'wheel-fix-blocked', fix: pipText.addToProfile(plan.lines.join('\n')) });
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
    activateScript: plan.activateScript,
    appended,
    sha256Before: sha256(before),
    sha256After: sha256(after),
    dirs: plan.dirs,
    appliedAt: new Date().toISOString(),
  };
  // The record first: a crash between the two writes leaves a record of a change not made, which undo reports.
  // A private temp renamed into place: a link planted at the record's name is replaced, never written through (P3).
  replaceFileSync(recordFile(plan.venv), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  writeAtomically(plan.activateScript, after);
  return { applied: true, record, recordFile: recordFile(plan.venv) };
}

export function undoWheelLibraryFix(venv: string): { undone: boolean; exact: boolean; activateScript?: string } {
  let record: WheelFixRecord;
  try {
    record = JSON.parse(fs.readFileSync(recordFile(venv), 'utf8')) as WheelFixRecord;
  } catch {
    return { undone: false, exact: true };
  }
  const current = fs.readFileSync(record.activateScript);
  // Bytes, not text: an activate script need not be valid UTF-8, and undo must give back its bytes.
  const block = Buffer.from(record.appended, 'utf8');
  const at = current.lastIndexOf(block);
  if (at < 0) {
    if (!current.includes(FIX_BEGIN)) {
      fs.rmSync(recordFile(venv), { force: true });
      return { undone: false, exact: sha256(current) === record.sha256Before, activateScript: record.activateScript };
    }
    throw new CudawizError(pipText.blockEdited(record.activateScript), {
      code: 'wheel-fix-edited',
      fix: pipText.blockEditedFix(FIX_BEGIN.slice(0, 30), FIX_END, record.activateScript),
    });
  }
  const restored = Buffer.concat([current.subarray(0, at), current.subarray(at + block.length)]);
  writeAtomically(record.activateScript, restored);
  fs.rmSync(recordFile(venv), { force: true });
  return { undone: true, exact: sha256(restored) === record.sha256Before, activateScript: record.activateScript };
}
