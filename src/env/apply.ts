// The one place that writes to the environment: applies planned changes, journalling each one
// before and after, and undoes exactly what the journal says cudawiz did.
import { envText } from '../i18n/env.js';
import { lstat, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Host } from '../host.js';
import { safetyText } from '../i18n/safety.js';
import { sha256Text, writeOwnState } from '../trust/bookkeeping.js';
import { writableByOthers } from '../trust/ownership.js';
import { confDirs } from './linux-plan.js';
import { deletePersistedPathScript, elevationHint, powershellCommand, setPersistedPathScript, type WindowsEnvScope } from '../platform.js';
import { readEnvJournal, writeEnvJournal } from './journal.js';
import { hasLine, withLineAppended, withLineRemoved } from './text-lines.js';
import type { EnvApplyOptions, EnvApplyResult, EnvChange, EnvCommand, EnvJournal, EnvJournalEntry, EnvRollbackResult } from './types.js';
import { persistedValue, readPersistedPath } from './windows-path.js';
import { undoPackageChange } from './package-change.js';
import { replaceFile } from '../trust/write.js';
import { CudawizError } from '../errors.js';
import { trustText } from '../i18n/trust.js';
import { checkRecordedProgram, programToRecord } from '../trust/run.js';

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

async function writeText(file: string, content: string | null, kind?: EnvChange['kind']): Promise<void> {
  if (content === null) {
    await rm(file, { force: true });
    return;
  }
  // An env script is cudawiz's own state beside its journal: 0600 in a 0700 folder.
  if (kind === 'env-script') return writeOwnState(file, content);
  await mkdir(path.dirname(file), { recursive: true });
  // Replaced whole (a private temp renamed over it), never written through a link; it keeps its mode and owner.
  const like = await lstat(file).then((s) => (s.isFile() ? s : undefined), () => undefined);
  await replaceFile(file, content, like ? { like } : {});
}

/** What the journal keeps of a change: for an rc file, the line and the file's hashes, never its content. */
function journalled(change: EnvChange, before: string | null, after: string | null): EnvChange {
  if (change.kind !== 'rc-line') return { ...change, before, after };
  return { ...change, before: null, after: null, sha256Before: before === null ? null : sha256Text(before), sha256After: sha256Text(after ?? '') };
}

/**
 * The rc file without the line cudawiz appended: unchanged since (its hash), the exact file from before
 * (its hash again); edited since, that one line where it stands exactly once; otherwise undefined.
 */
function rcWithoutOurLine(current: string, change: EnvChange): string | null | undefined {
  const line = change.line ?? '';
  if (sha256Text(current) === change.sha256After && current.endsWith(`${line}\n`)) {
    const cut = current.slice(0, current.length - line.length - 1);
    if (change.sha256Before === null && cut === '') return null;
    for (const candidate of [cut, cut.endsWith('\n') ? cut.slice(0, -1) : undefined]) if (candidate !== undefined && sha256Text(candidate) === change.sha256Before) return candidate;
  }
  const lines = current.split('\n');
  const at = lines.flatMap((l, i) => (l === line ? [i] : []));
  if (at.length !== 1) return undefined;
  lines.splice(at[0], 1);
  return lines.join('\n');
}

function commandLine(c: { file: string; args: readonly string[] }): string {
  return [c.file, ...c.args].join(' ');
}

/** `ldconfig -p` lines naming one of TF's libraries: proof of what the loader will now find. */
async function ldconfigLines(host: Host, libraries: string[]): Promise<string[]> {
  const r = await host.run('ldconfig', ['-p'], { env: host.env });
  if (r.exitCode !== 0) return [];
  return r.stdout.split('\n').filter((l) => libraries.some((lib) => l.trim().startsWith(`${lib} `)));
}

/** Writes the saved Path of a scope; null deletes the value (it was not there before cudawiz). */
async function setPersistedPath(host: Host, scope: WindowsEnvScope, value: string | null, kind: EnvChange['valueKind']): Promise<string | undefined> {
  const cmd = powershellCommand(value === null ? deletePersistedPathScript(scope) : setPersistedPathScript(scope, value, kind ?? 'REG_EXPAND_SZ'));
  const r = await host.run(cmd.file, cmd.args, { env: host.env });
  if (r.exitCode !== 0) return r.failure ?? (r.stderr.trim() || envText.powershellExited(r.exitCode));
  const check = await readPersistedPath(host, scope);
  if (persistedValue(check.path) !== value) return envText.readsBackDifferently(scope);
  return undefined;
}

type Step = { outcome: 'done'; before: string | null; after: string | null } | { outcome: 'skipped'; reason: string } | { outcome: 'failed'; message: string; fix?: string };

async function applyOne(change: EnvChange, options: EnvApplyOptions, journal: EnvJournal, result: EnvApplyResult): Promise<Step> {
  const { host, journalFile } = options;
  const record = async (entry: EnvJournalEntry) => {
    journal.entries.push(entry);
    await writeEnvJournal(journalFile, journal);
    return entry;
  };
  // A write that failed and left the target as it was has nothing for rollback to undo; a pending
  // entry would have rollback judge a later edit by the user as "changed after cudawiz set it".
  const forgetIfUnchanged = (entry: EnvJournalEntry, unchanged: boolean) => {
    if (unchanged) journal.entries.splice(journal.entries.indexOf(entry), 1);
  };
  if (change.kind === 'ld-so-conf' || change.kind === 'env-script' || change.kind === 'rc-line' || change.kind === 'venv-loader') {
    const current = await readText(change.target);
    if (change.kind === 'rc-line' ? hasLine(current, change.line ?? '') : current === change.after) return { outcome: 'skipped', reason: envText.alreadyThere };
    const after = change.kind === 'rc-line' ? withLineAppended(current, change.line ?? '') : change.after;
    const entry = await record({ at: new Date().toISOString(), state: 'pending', change: journalled(change, current, after) });
    try {
      await writeText(change.target, after, change.kind);
    } catch (error) {
      forgetIfUnchanged(entry, (await readText(change.target)) === current);
      return { outcome: 'failed', message: envText.couldNotWrite(change.target, (error as Error).message), fix: elevationHint(host.os, 'cudawiz install --configure-env yes') };
    }
    entry.state = 'applied';
    return { outcome: 'done', before: current, after };
  }
  if (change.kind === 'ldconfig') {
    const planned = change.command ?? { file: 'ldconfig', args: [] };
    // The ldconfig that runs is located and checked now; the journal keeps its path and owner for rollback's check.
    let cmd: EnvCommand;
    try {
      cmd = await programToRecord(planned.file, planned.args, host.env);
    } catch (error) {
      if (!(error instanceof CudawizError)) throw error;
      return { outcome: 'failed', message: error.message, fix: error.fix };
    }
    const entry = await record({ at: new Date().toISOString(), state: 'pending', change: { ...change, command: cmd } });
    const r = await host.run(cmd.file, cmd.args, { env: host.env });
    if (r.exitCode !== 0) return { outcome: 'failed', message: `${commandLine(cmd)} failed: ${r.failure ?? (r.stderr.trim() || `exit ${r.exitCode}`)}`, fix: elevationHint('linux', commandLine(cmd)) };
    entry.state = 'applied';
    result.ldconfigLines.push(...(await ldconfigLines(host, change.libraries ?? [])));
    return { outcome: 'done', before: null, after: null };
  }
  const scope = change.target as WindowsEnvScope;
  const now = await readPersistedPath(host, scope);
  if (now.error || !now.path) return { outcome: 'failed', message: now.error ?? envText.pathUnreadable(scope) };
  if (now.path.value === change.after) return { outcome: 'skipped', reason: envText.alreadyThere };
  if (now.path.value !== (change.before ?? '')) {
    return { outcome: 'failed', message: envText.pathChangedSincePlan(scope), fix: envText.pathChangedSincePlanFix };
  }
  const entry = await record({ at: new Date().toISOString(), state: 'pending', change: { ...change, valueKind: now.path.kind } });
  const error = await setPersistedPath(host, scope, change.after ?? '', now.path.kind);
  if (error) forgetIfUnchanged(entry, persistedValue((await readPersistedPath(host, scope)).path) === change.before);
  if (error) return { outcome: 'failed', message: envText.couldNotSetPath(scope, error), fix: elevationHint('windows', 'cudawiz install --configure-env yes') };
  entry.state = 'applied';
  return { outcome: 'done', before: change.before, after: change.after };
}

/** Applies the changes in order, stopping at the first failure; every write is in the journal first. */
export async function applyEnvChanges(changes: readonly EnvChange[], options: EnvApplyOptions): Promise<EnvApplyResult> {
  const result: EnvApplyResult = { ok: true, applied: [], skipped: [], ldconfigLines: [] };
  let journal: EnvJournal;
  try {
    journal = await readEnvJournal(options.journalFile);
  } catch (error) {
    const change = changes[0];
    if (change) result.failed = { change, message: (error as Error).message, fix: envText.moveJournalAside(options.journalFile) };
    return { ...result, ok: changes.length === 0 };
  }
  for (const change of changes) {
    options.onChange?.({ change, state: 'start' });
    const step = await applyOne(change, options, journal, result);
    if (step.outcome === 'failed') {
      await writeEnvJournal(options.journalFile, journal);
      options.onChange?.({ change, state: 'failed', detail: step.message });
      return { ...result, ok: false, failed: { change, message: step.message, fix: step.fix } };
    }
    if (step.outcome === 'skipped') {
      result.skipped.push({ change, reason: step.reason });
      options.onChange?.({ change, state: 'skipped', detail: step.reason });
      continue;
    }
    await writeEnvJournal(options.journalFile, journal);
    result.applied.push({ ...change, before: step.before, after: step.after });
    options.onChange?.({ change, state: 'done' });
  }
  return result;
}


async function undoOne(host: Host, change: EnvChange, options: RollbackOptions): Promise<Undo> {
  if (change.kind === 'rc-line' && change.sha256After !== undefined) {
    const current = await readText(change.target);
    if (current === null || !current.split('\n').includes(change.line ?? '')) return { outcome: 'undone' };
    const next = rcWithoutOurLine(current, change);
    if (next === undefined) return { outcome: 'kept', reason: safetyText.rcChangedAfter(change.target), fix: envText.editedAfterFix(change.target) };
    try {
      await writeText(change.target, next);
    } catch (error) {
      return { outcome: 'failed', message: envText.couldNotRestore(change.target, (error as Error).message) };
    }
    return { outcome: 'undone' };
  }
  if (change.kind === 'venv-activate') return options.undoVenv ? options.undoVenv(change.target) : { outcome: 'kept', reason: envText.editedAfter(change.target) };
  // NVIDIA's uninstaller runs only where the command asked (or was told --yes); otherwise the toolkit and its entry stay.
  if (change.kind === 'toolkit-installer') return options.removeInstallerToolkit ? options.removeInstallerToolkit(change) : { outcome: 'kept', reason: envText.alreadyThere };
  if (change.kind === 'ld-so-conf' && change.before !== null) {
    // Restoring an older loader file of cudawiz's own: only for folders no other user could have changed since.
    for (const dir of confDirs(change.before)) {
      const open = await writableByOthers(dir);
      if (open) return { outcome: 'kept', reason: safetyText.loaderFolderNotSafe(dir, safetyText.writableByOthers(open)), fix: safetyText.loaderFolderNotSafeFix(change.target) };
    }
  }
  if (change.kind === 'ld-so-conf' || change.kind === 'env-script' || change.kind === 'rc-line' || change.kind === 'venv-loader') {
    const current = await readText(change.target);
    if (current === null || current === change.before) return { outcome: 'undone' };
    let next: string | null;
    if (change.kind === 'rc-line') next = withLineRemoved(current, { before: change.before, after: change.after, line: change.line ?? '' });
    else if (current === change.after) next = change.before;
    else return { outcome: 'kept', reason: envText.editedAfter(change.target), fix: envText.editedAfterFix(change.target) };
    try {
      if (next !== current) await writeText(change.target, next, change.kind);
    } catch (error) {
      return { outcome: 'failed', message: envText.couldNotRestore(change.target, (error as Error).message) };
    }
    return { outcome: 'undone' };
  }
  if (change.kind === 'windows-path') {
    const scope = change.target as WindowsEnvScope;
    const now = await readPersistedPath(host, scope);
    if (now.error) return { outcome: 'failed', message: now.error };
    if (persistedValue(now.path) === change.before) return { outcome: 'undone' };
    if (now.path?.value !== change.after) {
      return { outcome: 'kept', reason: envText.pathEditedAfter(scope), fix: change.before === null ? envText.noPathBefore(scope) : envText.valueInJournal(change.before) };
    }
    const error = await setPersistedPath(host, scope, change.before, change.valueKind);
    return error ? { outcome: 'failed', message: envText.couldNotRestorePath(scope, error) } : { outcome: 'undone' };
  }
  if (change.kind === 'package') {
    const r = await undoPackageChange(host, change);
    return r.ok ? { outcome: 'undone' } : { outcome: 'failed', message: r.message };
  }
  return { outcome: 'undone' };
}

/**
 * What undoing one change came to. `kept` with `handedOver`: the change stays on the machine and only
 * the user can take it back (a toolkit in Programs and Features): said once, and the entry leaves the
 * journal, since no later run of cudawiz could do more.
 */
export type Undo = { outcome: 'undone' } | { outcome: 'kept'; reason: string; fix?: string; handedOver?: true } | { outcome: 'failed'; message: string; notRun?: true };

export interface RollbackOptions {
  host: Host;
  /** Takes a venv's activate block out through its record (src/pip, above this layer). */
  undoVenv?: (venvDir: string) => Promise<Undo>;
  /** Removes a toolkit cudawiz installed with NVIDIA's installer, or says why it stays (the command asks first). */
  removeInstallerToolkit?: (change: EnvChange) => Promise<Undo>;
  /** List what would be undone, change nothing. */
  dryRun?: boolean;
}

/** Undoes every journalled change, newest first, then rebuilds the loader cache if a conf file went. */
export async function rollbackEnvChanges(journalFile: string, options: RollbackOptions): Promise<EnvRollbackResult> {
  const result: EnvRollbackResult = { ok: true, undone: [], kept: [], failed: [] };
  const journal = await readEnvJournal(journalFile);
  // Nothing recorded: nothing to undo, and no journal file to create.
  if (journal.entries.length === 0) return result;
  const left: EnvJournalEntry[] = [];
  let rebuildCache: EnvChange | undefined;
  for (const entry of [...journal.entries].reverse()) {
    const { change } = entry;
    if (change.kind === 'ldconfig' || options.dryRun) {
      if (change.kind === 'ldconfig') rebuildCache = change;
      result.undone.push(change);
      continue;
    }
    const undo = await undoOne(options.host, change, options);
    if (undo.outcome === 'undone') result.undone.push(change);
    else if (undo.outcome === 'kept') {
      result.kept.push({ change, reason: undo.reason, fix: undo.fix });
      if (!undo.handedOver) left.unshift(entry);
    } else {
      result.failed.push({ change, message: undo.message, ...(undo.notRun ? { notRun: undo.notRun } : {}) });
      left.unshift(entry);
    }
  }
  if (options.dryRun) return result;
  if (rebuildCache?.command) {
    // The journal names this ldconfig: it runs only if it passes the same check as any run now.
    const checked = await checkRecordedProgram(rebuildCache.command, options.host.env);
    if ('refused' in checked) result.failed.push({ change: rebuildCache, message: `${checked.refused.reason}\n    ${trustText.undoRunYourself(commandLine({ file: checked.refused.program, args: rebuildCache.command.args }))}` });
    else {
      const r = await options.host.run('program' in checked ? checked.program : rebuildCache.command.file, rebuildCache.command.args, { env: options.host.env });
      if (r.exitCode !== 0) result.failed.push({ change: rebuildCache, message: `${commandLine(rebuildCache.command)} failed: ${r.failure ?? r.stderr.trim()}` });
    }
  }
  await writeEnvJournal(journalFile, { format: 1, entries: left });
  result.ok = result.failed.length === 0;
  return result;
}

/**
 * Journals a venv's activate block before it is added (its record, in the venv, says what was added):
 * rollback finds the venv here and undoes the block through that record. Returns how to take the
 * entry out again when nothing was added.
 */
export async function journalVenvFix(journalFile: string, venvDir: string, why: string): Promise<() => Promise<void>> {
  const journal = await readEnvJournal(journalFile);
  const known = journal.entries.some((e) => e.change.kind === 'venv-activate' && e.change.target === venvDir);
  if (known) return async () => undefined;
  const entry: EnvJournalEntry = { at: new Date().toISOString(), state: 'applied', change: { kind: 'venv-activate', target: venvDir, before: null, after: null, why } };
  journal.entries.push(entry);
  await writeEnvJournal(journalFile, journal);
  return async () => {
    const now = await readEnvJournal(journalFile);
    await writeEnvJournal(journalFile, { format: 1, entries: now.entries.filter((e) => !(e.change.kind === 'venv-activate' && e.change.target === venvDir)) });
  };
}
