// The record of every environment change cudawiz made, so rollback can undo exactly those.
// Read back, it is checked before anything acts on it: its shape (a truncated or edited file is a
// CudawizError with a fix), and that every change is one cudawiz makes: a conf file of its own name
// in an ld.so.conf.d, an env script of its own name beside the journal, a line in a shell's rc
// file, a PATH scope, plain `ldconfig`, and a package manager's way back to a recorded state. A journal rewritten by someone else cannot make a
// rollback write, delete or run anything else. The journal is believed only as src/trust/bookkeeping.ts
// says (owned by root or this user, writable by no one else, its folders too), is kept 0600 in a 0700
// folder, and holds cudawiz's own lines and hashes, never a copy of the user's files: an rc change is
// the line cudawiz added and the file's sha256 before and after (#37.4, E5).
import { envText } from '../i18n/env.js';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { CudawizError } from '../errors.js';
import { CUDAWIZ_FILE_MARK, CUDAWIZ_LD_SO_CONF_NAME } from '../platform.js';
import { safetyText } from '../i18n/safety.js';
import { readBookkeeping, removeBookkeeping, writeOwnState } from '../trust/bookkeeping.js';
import type { EnvChange, EnvJournal } from './types.js';
import { unsafePackageUndo } from './package-undo.js';
import { rcSourceLine } from './linux-plan.js';
import { toolkitUninstaller } from '../cuda/uninstaller.js';
import { VENV_LOADER_PTH } from '../wheels/venv-loader.js';

const text = z.string().nullable();
const changeSchema = z.object({
  kind: z.enum(['ld-so-conf', 'ldconfig', 'env-script', 'rc-line', 'windows-path', 'package', 'venv-activate', 'venv-loader', 'toolkit-installer']),
  target: z.string().min(1),
  before: text,
  after: text,
  command: z.object({ file: z.string(), args: z.array(z.string()), script: z.string().optional(), owner: z.number().int().optional() }).optional(),
  why: z.string(),
  line: z.string().optional(),
  valueKind: z.enum(['REG_SZ', 'REG_EXPAND_SZ']).optional(),
  libraries: z.array(z.string()).optional(),
  undo: z.object({ file: z.string(), args: z.array(z.string()), owner: z.number().int().optional() }).optional(),
  sha256Before: z.string().regex(/^[0-9a-f]{64}$/).nullable().optional(),
  sha256After: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  installer: z.object({ file: z.string(), version: z.string().regex(/^\d+\.\d+(\.\d+)*$/), sha256: z.string().regex(/^[0-9a-f]{64}$/).optional() }).optional(),
  uninstaller: z.object({ file: z.string().optional(), args: z.array(z.string()).optional(), owner: z.number().int().optional(), entries: z.array(z.string()).optional() }).optional(),
});
const journalSchema = z.object({
  format: z.literal(1),
  entries: z.array(z.object({ at: z.string(), state: z.enum(['pending', 'applied']), change: changeSchema })),
});

/** The rc files shellRcFile (platform.ts) names. */
const RC_FILES = new Set(['.bashrc', '.zshrc', 'config.fish']);
/** cudawiz's own loader files (platform.ts names them). */
const LD_CONF_NAME = CUDAWIZ_LD_SO_CONF_NAME;
const ENV_SCRIPT_NAME = /^env-cuda-\d+\.\d+\.(sh|fish)$/;

/** A clean absolute path: no `.`/`..` segments, no control characters. */
function cleanAbsolute(p: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(p)) return false;
  const posix = p.startsWith('/');
  const win = /^[a-zA-Z]:[\\/]/.test(p);
  if (!posix && !win) return false;
  return p.split(/[\\/]/).every((s, i) => (i === 0 ? true : s !== '.' && s !== '..'));
}

const base = (p: string) => p.split(/[\\/]/).pop() ?? '';
const parentName = (p: string) => base(p.split(/[\\/]/).slice(0, -1).join('/'));

/** Why a journalled change is not one cudawiz makes; undefined when it is. */
async function unsafeChange(change: EnvChange, journalFile: string): Promise<string | undefined> {
  const t = change.target;
  switch (change.kind) {
    case 'windows-path':
      return t === 'Machine' || t === 'User' ? undefined : envText.notScope;
    case 'ldconfig': {
      const c = change.command;
      if (t !== 'ld.so.cache') return envText.notLoaderCache;
      if (c && (base(c.file) !== 'ldconfig' || (c.file !== 'ldconfig' && !cleanAbsolute(c.file)) || c.args.length > 0)) return envText.runsCommand([c.file, ...c.args].join(' '));
      return undefined;
    }
    case 'ld-so-conf':
      if (!cleanAbsolute(t) || !LD_CONF_NAME.test(base(t)) || parentName(t) !== 'ld.so.conf.d') return envText.notOurConf;
      // `before` is what rollback writes back; `after` is only compared.
      if (change.before !== null && notOwnLoaderContent(change.before) !== undefined) return safetyText.notOwnLoaderLines(notOwnLoaderContent(change.before)!);
      return (await isLink(t)) ? envText.isALink : undefined;
    case 'env-script': {
      if (!cleanAbsolute(t) || !ENV_SCRIPT_NAME.test(base(t))) return envText.notOurScript;
      if (change.before !== null && notOwnScriptContent(change.before) !== undefined) return safetyText.notOwnScriptLines(notOwnScriptContent(change.before)!);
      const dir = path.dirname(t);
      const own = path.dirname(journalFile);
      const [a, b] = await Promise.all([realpath(dir).catch(() => dir), realpath(own).catch(() => own)]);
      if (a !== b) return envText.notBesideJournal;
      return (await isLink(t)) ? envText.isALink : undefined;
    }
    case 'rc-line':
      if (!cleanAbsolute(t) || !RC_FILES.has(base(t))) return envText.notRcFile;
      if (change.line === undefined) return envText.noLineRecorded;
      return ownRcLine(change.line, journalFile) ? undefined : safetyText.notOwnRcLine(change.line);
    case 'venv-activate':
      // The venv's folder only: its activate script and record are derived from it at undo.
      return cleanAbsolute(t) ? undefined : envText.notOurScript;
    case 'toolkit-installer':
      return unsafeInstallerToolkit(change);
    case 'venv-loader':
      return unsafeVenvLoader(change);
    case 'package':
      // Rollback runs only the undo: one of three managers back to a recorded state.
      if (t !== 'apt' && !cleanAbsolute(t)) return envText.notPackageTarget;
      return unsafePackageUndo(change);
  }
}

/**
 * A toolkit NVIDIA's installer put in: rollback may only run NVIDIA's own uninstaller of that very folder,
 * as src/cuda/uninstaller.ts derives it from the folder and version; a journal naming anything else is refused.
 */
function unsafeInstallerToolkit(change: EnvChange): string | undefined {
  if (!cleanAbsolute(change.target) || !change.installer) return envText.notInstallerToolkit;
  const os = change.target.startsWith('/') ? 'linux' : 'windows';
  const derived = toolkitUninstaller(os, change.target, change.installer.version);
  const u = change.uninstaller ?? {};
  if (derived.kind === 'program') {
    const same = u.file === derived.file && JSON.stringify(u.args ?? []) === JSON.stringify(derived.args) && u.entries === undefined;
    return same ? undefined : envText.runsCommand([u.file ?? '', ...(u.args ?? [])].join(' '));
  }
  return u.file === undefined && JSON.stringify(u.entries ?? []) === JSON.stringify(derived.entries) ? undefined : envText.notInstallerToolkit;
}

/** The loader file cudawiz puts in a venv's site-packages: its own name, and (restored or removed) nothing but its own line. */
function unsafeVenvLoader(change: EnvChange): string | undefined {
  if (!cleanAbsolute(change.target) || base(change.target) !== VENV_LOADER_PTH || parentName(change.target) !== 'site-packages') return envText.notOurLoaderPth;
  return change.before === null ? undefined : envText.notOurLoaderPth;
}

/** The first line of a loader file's content that cudawiz would not write (its mark, then library folders); undefined when all are its own. */
export function notOwnLoaderContent(content: string): string | undefined {
  const lines = content.split('\n');
  if (!lines[0].startsWith(CUDAWIZ_FILE_MARK)) return lines[0];
  // A library folder of a toolkit or of cuDNN's own folder: an absolute clean path ending in lib or lib64.
  return lines.slice(1).find((l) => l !== '' && !(cleanAbsolute(l) && l.startsWith('/') && !/\s/.test(l) && /\/lib(64)?$/.test(l)));
}

/** The first line of an env script's content that cudawiz would not write (its mark, then PATH and LD_LIBRARY_PATH lines); undefined when all are its own. */
function notOwnScriptContent(content: string): string | undefined {
  const lines = content.split('\n');
  if (!lines[0].startsWith(CUDAWIZ_FILE_MARK)) return lines[0];
  return lines.slice(1).find((l) => l !== '' && !/^(export (PATH|LD_LIBRARY_PATH)=|set -gx (PATH|LD_LIBRARY_PATH) )/.test(l));
}

/** Is this the line cudawiz adds to an rc file: sourcing one of its env scripts beside the journal? */
function ownRcLine(line: string, journalFile: string): boolean {
  const name = /env-cuda-\d+\.\d+\.(sh|fish)/.exec(line)?.[0];
  if (!name) return false;
  const script = path.join(path.dirname(journalFile), name);
  return line === rcSourceLine(script, 'posix') || line === rcSourceLine(script, 'fish');
}

const isLink = (p: string) => lstat(p).then(
  (s) => s.isSymbolicLink(),
  () => false,
);

export async function readEnvJournal(file: string): Promise<EnvJournal> {
  const dir = path.dirname(file);
  const read = await readBookkeeping(file, [path.dirname(dir), dir]);
  if ('missing' in read) return { format: 1, entries: [] };
  if ('untrusted' in read) throw new CudawizError(safetyText.bookkeepingUntrusted(file, read.untrusted), { code: 'journal-untrusted', fix: safetyText.bookkeepingUntrustedFix(file) });
  if ('unreadable' in read) throw new CudawizError(safetyText.journalUnreadable(file, read.unreadable), { code: 'journal-invalid', fix: safetyText.journalUnreadableFix(file) });
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    throw new CudawizError(safetyText.journalUnreadable(file, envText.notCompleteJson), { code: 'journal-invalid', fix: safetyText.journalUnreadableFix(file) });
  }
  const parsed = journalSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CudawizError(safetyText.journalUnreadable(file, `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`), { code: 'journal-invalid', fix: safetyText.journalUnreadableFix(file) });
  }
  const journal = parsed.data as EnvJournal;
  for (const { change } of journal.entries) {
    const why = await unsafeChange(change, file);
    if (why) throw new CudawizError(safetyText.journalUnsafe(file, change.target, why), { code: 'journal-unsafe', fix: safetyText.journalUnsafeFix(file) });
  }
  return journal;
}

/**
 * Written to a private temp file and renamed, so an interrupted write never leaves half a journal;
 * 0600 in a 0700 folder. A journal with nothing left in it is removed rather than left empty.
 */
export async function writeEnvJournal(file: string, journal: EnvJournal): Promise<void> {
  if (journal.entries.length === 0) return removeBookkeeping(file);
  await writeOwnState(file, `${JSON.stringify(journal, null, 2)}\n`);
}
