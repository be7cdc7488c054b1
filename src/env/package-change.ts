// A package manager's command that replaces a stale copy, as a journalled change: what the manager
// holds is read from the manager itself right before (conda's revision, pip's and apt's installed
// versions), the entry is written before the command runs, and rollback runs the manager's own undo
// (`conda install --revision N`, `pip install name==old`, `apt-get install name=old`). A journal
// rewritten by someone else can only ask one of those three managers to go back to a recorded state.
import { envText } from '../i18n/env.js';
import type { Host } from '../host.js';
import type { PackageReplacement } from '../doctor/cause.js';
import { readEnvJournal, writeEnvJournal } from './journal.js';
import { commandLine, unsafePackageUndo } from './package-undo.js';
import { isElevated } from '../cuda/elevation.js';
import type { EnvChange, EnvCommand, EnvJournal, EnvJournalEntry } from './types.js';
import { checkRecordedProgram, programToRecord, type RecordedProgram } from '../trust/run.js';
import { trustText } from '../i18n/trust.js';

/** What a manager holds before the change: the state rollback returns to. */
export interface PackageState {
  /** conda: the revision number; pip/apt: name → installed version (absent: not installed). */
  revision?: number;
  versions: Record<string, string>;
}

export interface PackageRun {
  ok: boolean;
  exitCode: number | null;
  /** The manager's last lines (stdout and stderr). */
  tail: string[];
  /** The command rollback runs to undo it; undefined when the manager cannot go back. */
  undo?: EnvCommand;
  /** Whether the journal holds the change (the manager changed something). */
  journalled: boolean;
  failure?: string;
}

/** A conda install can take minutes; pip and apt too. */
const INSTALL_TIMEOUT_MS = 60 * 60_000;
export { commandLine, unsafePackageUndo };

/** The manager's executable: conda from an activated env's CONDA_EXE, else the names on PATH. */
export function managerFile(host: Host, r: PackageReplacement): string {
  if (r.manager === 'conda') return host.env.CONDA_EXE || r.run.file;
  return r.run.file;
}

/** The manager cudawiz will run, located and checked now (as root: no one else can change it); throws CudawizError when refused. */
export function managerProgram(host: Host, r: PackageReplacement): Promise<RecordedProgram> {
  return programToRecord(managerFile(host, r), r.run.args, host.env);
}

/** `conda list --revisions` ends with the newest `(rev N)`. */
export function lastRevision(output: string): number | undefined {
  const revs = [...output.matchAll(/\(rev (\d+)\)/g)].map((m) => Number(m[1]));
  return revs.length ? Math.max(...revs) : undefined;
}

/** What the manager holds now, read from the manager itself; a string saying why when it cannot. */
export async function readPackageState(host: Host, r: PackageReplacement): Promise<PackageState | string> {
  const file = managerFile(host, r);
  if (r.manager === 'conda') {
    const out = await host.run(file, ['list', '--revisions', '-p', r.target ?? ''], { env: host.env, timeoutMs: 120_000 });
    const revision = out.exitCode === 0 ? lastRevision(out.stdout) : undefined;
    if (revision === undefined) return out.failure ?? (lastLines(out.stdout + out.stderr).join(' ') || envText.exited(out.exitCode));
    return { revision, versions: {} };
  }
  const versions: Record<string, string> = {};
  for (const name of r.packages) {
    const out = r.manager === 'pip'
      ? await host.run(file, ['-m', 'pip', 'show', name], { env: host.env, timeoutMs: 120_000 })
      : await host.run('dpkg-query', ['-W', '-f=${Version}', name], { env: host.env, timeoutMs: 120_000 });
    if (out.exitCode === null) return out.failure ?? envText.exited(null);
    // Not installed is a state too: pip show and dpkg-query exit 1 for it.
    if (out.exitCode !== 0) continue;
    const v = r.manager === 'pip' ? /^Version:\s*(\S+)/m.exec(out.stdout)?.[1] : out.stdout.trim();
    if (v) versions[name] = v;
  }
  return { versions };
}

/** The manager's own way back to `before`; undefined where it has none (a package that was not installed). */
export function undoCommand(host: Host, r: PackageReplacement, before: PackageState): EnvCommand | undefined {
  const file = managerFile(host, r);
  if (r.manager === 'conda') return before.revision === undefined ? undefined : { file, args: ['install', '--yes', '-p', r.target ?? '', '--revision', String(before.revision)] };
  const pins = r.packages.filter((n) => before.versions[n]).map((n) => `${n}${r.manager === 'pip' ? '==' : '='}${before.versions[n]}`);
  if (!pins.length) return undefined;
  return r.manager === 'pip' ? { file, args: ['-m', 'pip', 'install', ...pins] } : { file, args: ['install', '-y', ...pins] };
}

const describeState = (s: PackageState) => (s.revision !== undefined ? `rev ${s.revision}` : Object.entries(s.versions).map(([n, v]) => `${n}==${v}`).join(' '));

export function lastLines(text: string, n = 5): string[] {
  return text.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim()).slice(-n);
}

/**
 * Runs the manager's command with the journal written first. When the command fails and the manager
 * holds what it held before, the entry is taken out again: there is nothing to roll back.
 */
export async function applyPackageChange(host: Host, r: PackageReplacement, before: PackageState, journalFile: string, why: string): Promise<PackageRun> {
  // The program that runs is the one checked here, and the journal keeps its path and owner for rollback's check.
  const program = await managerProgram(host, r);
  const file = program.file;
  const command = { file, args: r.run.args };
  const target = r.target ?? 'apt';
  const planned = undoCommand(host, r, before);
  const wayBack = planned && { file, args: planned.args, ...(program.owner !== undefined ? { owner: program.owner } : {}) };
  // Only what the journal will accept back is recorded (an absolute env or python, one of the three managers' undo):
  // anything else would make every later rollback refuse the whole journal.
  const undo = wayBack && (target === 'apt' || /^([a-zA-Z]:)?[\\/]/.test(target)) && !unsafePackageUndo({ kind: 'package', target, before: null, after: null, why, undo: wayBack }) ? wayBack : undefined;
  const journal: EnvJournal = await readEnvJournal(journalFile);
  const change: EnvChange = { kind: 'package', target, before: describeState(before), after: null, command, why, ...(undo ? { undo } : {}) };
  const entry: EnvJournalEntry = { at: new Date().toISOString(), state: 'pending', change };
  // Without a way back there is nothing for rollback to run: the entry would only be a note.
  if (undo) {
    journal.entries.push(entry);
    await writeEnvJournal(journalFile, journal);
  }
  const out = await host.run(file, r.run.args, { env: host.env, timeoutMs: INSTALL_TIMEOUT_MS });
  const tail = lastLines(`${out.stdout}\n${out.stderr}`);
  if (out.exitCode === 0) {
    const after = await readPackageState(host, r);
    if (undo) {
      entry.state = 'applied';
      change.after = typeof after === 'string' ? null : describeState(after);
      await writeEnvJournal(journalFile, journal);
    }
    return { ok: true, exitCode: 0, tail, undo, journalled: Boolean(undo) };
  }
  // Failed: keep the entry only if the manager changed something on its way down.
  const now = await readPackageState(host, r);
  const unchanged = typeof now !== 'string' && describeState(now) === describeState(before);
  if (undo && unchanged) {
    journal.entries.splice(journal.entries.indexOf(entry), 1);
    await writeEnvJournal(journalFile, journal);
  } else if (undo) {
    entry.state = 'applied';
    await writeEnvJournal(journalFile, journal);
  }
  return { ok: false, exitCode: out.exitCode, tail, undo, journalled: Boolean(undo) && !unchanged, failure: out.failure };
}

/** Rollback: the manager's own undo; a failure names the exact command to run. */
export async function undoPackageChange(host: Host, change: EnvChange): Promise<{ ok: true } | { ok: false; message: string }> {
  const undo = change.undo;
  if (!undo) return { ok: false, message: envText.noUndoRecorded(change.target) };
  if (/(^|\/)apt-get$/.test(undo.file) && (await isElevated(host)) !== true) return { ok: false, message: envText.undoYourself(`sudo ${commandLine(undo)}`, envText.needsRoot) };
  // A program the journal names runs only if it passes the same check as any run, and has the owner it had then.
  const checked = await checkRecordedProgram(undo, host.env);
  if ('refused' in checked) return { ok: false, message: `${checked.refused.reason}\n    ${trustText.undoRunYourself(commandLine(undo))}` };
  if ('missing' in checked) return { ok: false, message: envText.undoYourself(commandLine(undo), 'ENOENT') };
  const out = await host.run(checked.program, undo.args, { env: host.env, timeoutMs: INSTALL_TIMEOUT_MS });
  if (out.exitCode === 0) return { ok: true };
  const why = out.failure ?? (lastLines(`${out.stdout}\n${out.stderr}`, 1)[0] || envText.exited(out.exitCode));
  return { ok: false, message: envText.undoYourself(commandLine(undo), why) };
}
