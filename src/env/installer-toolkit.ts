// A toolkit cudawiz put in with NVIDIA's installer, as a journalled change (#39.4): the entry is written
// before the installer runs (which installer, which version, the folder, the uninstaller NVIDIA's
// installer leaves), marked applied when the toolkit is complete, and taken out again when a failed run
// left nothing. Rollback removes it only with NVIDIA's own uninstaller of that folder, asked first, and
// runs it only as src/trust/run.ts allows (as root: root's, and no one else can change it). A toolkit
// cudawiz did not install is never in the journal, so it is never offered for removal.
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Host } from '../host.js';
import { runsAsRoot } from '../platform.js';
import { catalogText } from '../i18n/catalog.js';
import { envText } from '../i18n/env.js';
import { trustText } from '../i18n/trust.js';
import { toolkitUninstaller, uninstallerCommandLine, type ToolkitUninstaller } from '../cuda/uninstaller.js';
import { checkRecordedProgram } from '../trust/run.js';
import { readEnvJournal, writeEnvJournal } from './journal.js';
import { lastLines } from './package-change.js';
import type { EnvChange, EnvJournalEntry } from './types.js';
import type { Undo } from './apply.js';

/** NVIDIA's uninstaller removes a whole toolkit: minutes on a real disk. */
const UNINSTALL_TIMEOUT_MS = 30 * 60_000;

export interface InstallerToolkitRecord {
  toolkitDir: string;
  /** The installer as downloaded (its name is NVIDIA's). */
  installerFile: string;
  version: string;
  sha256?: string;
  why: string;
}

const isInstallerEntry = (e: EnvJournalEntry, dir: string) => e.change.kind === 'toolkit-installer' && e.change.target === dir;

/** The uninstaller a journalled toolkit names, as derived from its folder and version. */
export function journalledUninstaller(change: EnvChange): ToolkitUninstaller {
  return toolkitUninstaller(change.target.startsWith('/') ? 'linux' : 'windows', change.target, change.installer?.version ?? '0.0');
}

/**
 * Journals the toolkit before NVIDIA's installer runs. Returns what to do after: `installed` marks it
 * applied (with who owns the uninstaller it left), `failed` forgets it when the run left no toolkit.
 */
export async function journalInstallerToolkit(journalFile: string, r: InstallerToolkitRecord, os: Host['os']): Promise<{ installed: () => Promise<void>; failed: (leftNothing: boolean) => Promise<void> }> {
  const journal = await readEnvJournal(journalFile);
  if (journal.entries.some((e) => isInstallerEntry(e, r.toolkitDir))) return { installed: async () => undefined, failed: async () => undefined };
  const u = toolkitUninstaller(os, r.toolkitDir, r.version);
  const change: EnvChange = {
    kind: 'toolkit-installer',
    target: r.toolkitDir,
    before: null,
    after: null,
    why: r.why,
    installer: { file: path.basename(r.installerFile), version: r.version, ...(r.sha256 ? { sha256: r.sha256 } : {}) },
    uninstaller: u.kind === 'program' ? { file: u.file, args: u.args } : { entries: u.entries },
  };
  journal.entries.push({ at: new Date().toISOString(), state: 'pending', change });
  await writeEnvJournal(journalFile, journal);
  const update = async (edit: (entry: EnvJournalEntry, all: EnvJournalEntry[]) => void) => {
    const now = await readEnvJournal(journalFile);
    const entry = now.entries.find((e) => isInstallerEntry(e, r.toolkitDir));
    if (entry) edit(entry, now.entries);
    await writeEnvJournal(journalFile, now);
  };
  return {
    installed: async () => {
      // Who owned the uninstaller when cudawiz's run left it: rollback runs it only while that still holds.
      const owner = u.kind === 'program' ? (await stat(u.file).catch(() => undefined))?.uid : undefined;
      await update((entry) => {
        entry.state = 'applied';
        if (owner !== undefined) entry.change.uninstaller = { ...entry.change.uninstaller, owner };
      });
    },
    failed: (leftNothing) => (leftNothing ? update((entry, all) => void all.splice(all.indexOf(entry), 1)) : Promise.resolve()),
  };
}

const present = (p: string) => lstat(p).then(() => true, () => false);

/** The program line a user types to run a journalled toolkit's uninstaller (sudo where the toolkit is root's and they are not). */
const typedLine = (u: Extract<ToolkitUninstaller, { kind: 'program' }>, change: EnvChange) => uninstallerCommandLine(u, change.uninstaller?.owner === 0 && !runsAsRoot());

/** How a user removes a toolkit cudawiz installed with NVIDIA's installer: its uninstaller, or Windows' Settings. */
export function howToRemove(change: EnvChange): string {
  const u = journalledUninstaller(change);
  return u.kind === 'programs-and-features' ? envText.removeInSettings(u.entries) : typedLine(u, change);
}

/**
 * Where removing this toolkit rests on uninstaller flags the catalog marks unverified (--silent: NVIDIA's
 * guide does not name it), the words that say so and the command NVIDIA does name; undefined otherwise.
 */
export function unverifiedUninstallerNote(change: EnvChange): string | undefined {
  const u = journalledUninstaller(change);
  if (u.kind !== 'program' || !u.runs || u.unverifiedArgs.length === 0) return undefined;
  const flags = u.unverifiedArgs.join(' ');
  const manual = typedLine({ ...u, args: u.args.filter((a) => !u.unverifiedArgs.includes(a)) }, change);
  return envText.uninstallerArgsUnverified(catalogText.unverifiedCuda(change.installer?.version ?? '?', catalogText.unverifiedFacts.uninstallerArgs(flags)), flags, manual);
}

/**
 * A toolkit whose way out cudawiz cannot take itself (Windows' Programs and Features; NVIDIA's old perl
 * uninstaller, whose unattended flags are unknown): rollback says how to remove it and hands it over.
 */
export function handedOverUndo(change: EnvChange): Undo | undefined {
  const u = journalledUninstaller(change);
  if (u.kind === 'programs-and-features') return { outcome: 'kept', reason: envText.removeInSettings(u.entries), handedOver: true };
  if (!u.runs) return { outcome: 'kept', reason: envText.uninstallerNotUnattended, fix: envText.runItYourself(typedLine(u, change)), handedOver: true };
  return undefined;
}

/** Runs NVIDIA's uninstaller of a journalled toolkit (the caller asked first); never throws. */
export async function uninstallInstallerToolkit(host: Host, change: EnvChange): Promise<Undo> {
  const u = journalledUninstaller(change);
  if (!(await present(change.target))) return { outcome: 'undone' };
  const handedOver = handedOverUndo(change);
  // Programs and Features is always handed over: past here the way out is a program.
  if (handedOver || u.kind !== 'program') return handedOver ?? { outcome: 'undone' };
  const typed = typedLine(u, change);
  const checked = await checkRecordedProgram({ file: u.file, args: u.args, owner: change.uninstaller?.owner }, host.env);
  if ('missing' in checked) return { outcome: 'failed', message: envText.uninstallerMissing(u.file, change.target), notRun: true };
  if ('refused' in checked) return { outcome: 'failed', message: `${checked.refused.reason}\n    ${trustText.undoRunYourself(typed)}`, notRun: true };
  const out = await host.run(checked.program, u.args, { env: host.env, timeoutMs: UNINSTALL_TIMEOUT_MS });
  if (out.exitCode !== 0) {
    const why = out.failure ?? (lastLines(`${out.stdout}\n${out.stderr}`, 1)[0] || envText.exited(out.exitCode));
    return { outcome: 'failed', message: envText.undoYourself(typed, why) };
  }
  // Exit 0 is not proof (its flags may be unverified): the toolkit's compiler still there means it was not removed.
  const nvcc = path.join(change.target, 'bin', 'nvcc');
  if (await present(nvcc)) return { outcome: 'failed', message: envText.uninstallerLeftToolkit(typed, nvcc) };
  return { outcome: 'undone' };
}
