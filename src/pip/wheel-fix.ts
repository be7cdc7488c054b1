// Putting the wheels' site-packages/nvidia/*/lib folders on the loader path of a virtual environment:
// a marked block appended to DIR/bin/activate, planned as data, written only with consent, recorded
// so that undo gives back the script byte for byte.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { pipText } from '../i18n/pip.js';
import { librarySearchVar, venvActivateScript } from '../platform.js';
import { wheelLoaderFact } from './wheel-loader-facts.js';
import type { PipCudaFacts } from './wheels.js';

export const FIX_BEGIN = "# >>> cudawiz: TensorFlow's pip-installed CUDA libraries on the loader path (delete this block to undo) >>>";
export const FIX_END = '# <<< cudawiz <<<';
/** Beside the activate script's venv: what was added, so undo removes exactly that. */
export const FIX_RECORD = '.cudawiz-wheel-library-fix.json';

export interface WheelLibraryFix {
  venv?: string;
  activateScript?: string;
  /** Wheel library folders the activated environment's loader does not search. */
  missingDirs: string[];
  /** All wheel library folders, in the order the block puts them first on LD_LIBRARY_PATH. */
  dirs: string[];
  /** true when this TF is known to need it, or its own log shows a wheel library it could not load. */
  needed: boolean;
  /** true when folders are missing: harmless and worth doing even where not known to be needed. */
  recommended: boolean;
  alreadyApplied: boolean;
  why: string[];
  /** The exact lines appended to the activate script. */
  lines: string[];
  /** TF's pip guide's other way: links to the libraries inside site-packages/tensorflow. */
  alternative: { method: 'symlink'; commands: string[] };
  /** Why it cannot be applied here (not a venv); the lines can still be added to a shell profile by hand. */
  blocker?: string;
}

export interface WheelFixRecord {
  activateScript: string;
  /** Exactly what was appended (a newline first when the script did not end with one). */
  appended: string;
  sha256Before: string;
  sha256After: string;
  dirs: string[];
  appliedAt: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export function fixLines(dirs: string[]): string[] {
  const v = librarySearchVar('linux');
  // Prepending in reverse keeps the listed order first; the case guard keeps re-activation idempotent.
  return [
    FIX_BEGIN,
    `for _cudawiz_dir in ${[...dirs].reverse().map(quote).join(' ')}; do`,
    `    case ":\${${v}-}:" in`,
    `        *":$_cudawiz_dir:"*) ;;`,
    `        *) ${v}="$_cudawiz_dir\${${v}:+:$${v}}" ;;`,
    '    esac',
    'done',
    'unset _cudawiz_dir',
    `export ${v}`,
    FIX_END,
  ];
}

/** Library names TF's log says it could not load (dso_loader: "Could not load dynamic library 'libcudnn.so.8'"). */
function unloadedLibraries(log: string): string[] {
  return [...log.matchAll(/Could not load dynamic library '([^']+)'/g)].map((m) => m[1]);
}

export function planWheelLibraryFix(env: PipCudaFacts, options: { importLog?: string } = {}): WheelLibraryFix {
  const dirs = env.libDirs;
  const searched = new Set((env.loaderPath.whenActivated ?? env.loaderPath.current).map((d) => path.resolve(d)));
  const missingDirs = dirs.filter((d) => !searched.has(path.resolve(d)));
  const activateScript = env.venv ? venvActivateScript('linux', env.venv) : undefined;
  let script = '';
  try {
    script = activateScript ? fs.readFileSync(activateScript, 'utf8') : '';
  } catch {
    // unreadable: the blocker below says so
  }
  const why: string[] = [];
  const fact = wheelLoaderFact(env.tensorflow?.version);
  if (fact && dirs.length) why.push(pipText.factLine(env.tensorflow!.version, pipText.factWhy(fact), fact.source));
  const libs = new Map(env.packages.flatMap((p) => p.libraries.map((l) => [l, p] as const)));
  const unloaded = unloadedLibraries(options.importLog ?? '').filter((l) => libs.has(l) && missingDirs.includes(libs.get(l)!.libDir!));
  if (unloaded.length) why.push(pipText.couldNotLoad(unloaded));
  if (missingDirs.length && !why.length) why.push(pipText.notOnLoaderPath);
  const site = dirs[0] ? path.dirname(path.dirname(path.dirname(dirs[0]))) : undefined;
  const blocker = !env.venv
    ? pipText.notVenvPython(env.python)
    : activateScript && !script
      ? pipText.cannotRead(activateScript)
      : undefined;
  return {
    venv: env.venv,
    activateScript,
    missingDirs,
    dirs,
    needed: missingDirs.length > 0 && (fact?.need === 'needed' || unloaded.length > 0),
    recommended: missingDirs.length > 0,
    alreadyApplied: script.includes(FIX_BEGIN),
    why,
    lines: fixLines(dirs),
    alternative: {
      method: 'symlink',
      commands: site ? [`cd ${quote(path.join(site, 'tensorflow'))}`, `ln -svf ../${'nvidia'}/*/lib/*.so* .`] : [],
    },
    blocker,
  };
}

function writeAtomically(file: string, content: string | Buffer): void {
  const mode = fs.statSync(file).mode & 0o7777;
  const tmp = `${file}.cudawiz-${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode });
  fs.renameSync(tmp, file);
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
  fs.writeFileSync(recordFile(plan.venv), `${JSON.stringify(record, null, 2)}\n`);
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
