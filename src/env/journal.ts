// The record of every environment change cudawiz made, so rollback can undo exactly those.
// Read back, it is checked before anything acts on it: its shape (a truncated or edited file is a
// CudawizError with a fix), and that every change is one cudawiz makes: a conf file of its own name
// in an ld.so.conf.d, an env script of its own name beside the journal, a line in a shell's rc
// file, a PATH scope, plain `ldconfig`, and a package manager's way back to a recorded state. A journal rewritten by someone else cannot make a
// rollback write, delete or run anything else.
import { envText } from '../i18n/env.js';
import { lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { CudawizError } from '../errors.js';
import { CUDAWIZ_LD_SO_CONF_NAME } from '../platform.js';
import { safetyText } from '../i18n/safety.js';
import type { EnvChange, EnvJournal } from './types.js';
import { unsafePackageUndo } from './package-change.js';
import { replaceFile } from '../trust/write.js';

const text = z.string().nullable();
const changeSchema = z.object({
  kind: z.enum(['ld-so-conf', 'ldconfig', 'env-script', 'rc-line', 'windows-path', 'package']),
  target: z.string().min(1),
  before: text,
  after: text,
  command: z.object({ file: z.string(), args: z.array(z.string()), script: z.string().optional(), owner: z.number().int().optional() }).optional(),
  why: z.string(),
  line: z.string().optional(),
  valueKind: z.enum(['REG_SZ', 'REG_EXPAND_SZ']).optional(),
  libraries: z.array(z.string()).optional(),
  undo: z.object({ file: z.string(), args: z.array(z.string()), owner: z.number().int().optional() }).optional(),
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
      return (await isLink(t)) ? envText.isALink : undefined;
    case 'env-script': {
      if (!cleanAbsolute(t) || !ENV_SCRIPT_NAME.test(base(t))) return envText.notOurScript;
      const dir = path.dirname(t);
      const own = path.dirname(journalFile);
      const [a, b] = await Promise.all([realpath(dir).catch(() => dir), realpath(own).catch(() => own)]);
      if (a !== b) return envText.notBesideJournal;
      return (await isLink(t)) ? envText.isALink : undefined;
    }
    case 'rc-line':
      if (!cleanAbsolute(t) || !RC_FILES.has(base(t))) return envText.notRcFile;
      return change.line === undefined ? envText.noLineRecorded : undefined;
    case 'package':
      // Rollback runs only the undo: one of three managers back to a recorded state.
      if (t !== 'apt' && !cleanAbsolute(t)) return envText.notPackageTarget;
      return unsafePackageUndo(change);
  }
}

const isLink = (p: string) => lstat(p).then(
  (s) => s.isSymbolicLink(),
  () => false,
);

export async function readEnvJournal(file: string): Promise<EnvJournal> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, entries: [] };
    throw new CudawizError(safetyText.journalUnreadable(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), { code: 'journal-invalid', fix: safetyText.journalUnreadableFix(file) });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
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

/** Written to a temp file and renamed, so an interrupted write never leaves half a journal. */
export async function writeEnvJournal(file: string, journal: EnvJournal): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await replaceFile(file, `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o600 });
}
