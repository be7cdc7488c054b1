// The one way cudawiz runs a program (#37): the program is located by cudawiz itself in this run (a
// bare name is looked up in PATH's absolute folders, never a relative one), and only that absolute path
// runs. As root it runs only when root or this user owns it and no other user can change it or any
// folder above it (the one rule, ownership.ts); otherwise it is refused with the reason and the fix —
// a program named by a data file (the journal, CONDA_EXE) is checked the same way at the moment it runs.
// Every child process in src/ starts here (test/unit/one-way-to-run.test.ts holds it so).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { access, constants, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Options as ExecaOptions, ResultPromise } from 'execa';
import { CudawizError } from '../errors.js';
import type { CommandResult, ProgramRefusal, RunOptions } from '../command-result.js';
import { trustText } from '../i18n/trust.js';
import type { Env } from '../platform.js';
import { checksOwnership, fileWritableByOthers, ownUid, whyNotOurs, writableByOthers } from './ownership.js';

const isRoot = (): boolean => ownUid() === 0;

/**
 * The absolute path `file` names: itself when it has a folder part, else the first executable of that
 * name in PATH's absolute folders; undefined when there is none.
 */
export async function locateProgram(file: string, env: Env = process.env): Promise<string | undefined> {
  if (!checksOwnership()) return file;
  // A program named by its path is found only where an executable file is there (else it is missing, never started).
  if (file.includes('/')) return path.isAbsolute(file) && (await isExecutableFile(path.normalize(file))) ? path.normalize(file) : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    // A relative PATH entry (".", "") would hand the choice to whatever folder the run started in.
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, file);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

const isExecutableFile = (file: string): Promise<boolean> =>
  access(file, constants.X_OK).then(
    () => stat(file).then((s) => s.isFile(), () => false),
    () => false,
  );

/** Why `program` (absolute) cannot be trusted to run: it, its real file or a folder above either is not root's or this user's alone. */
export async function whyNotRunnable(program: string): Promise<string | undefined> {
  if (!checksOwnership()) return undefined;
  const real = await realpath(program).catch(() => program);
  for (const p of new Set([program, real])) {
    const folder = await writableByOthers(path.dirname(p));
    if (folder) {
      const s = await stat(folder).catch(() => undefined);
      return trustText.folderOthersCanChange(p, (s && whyNotOurs(folder, s)) ?? trustText.writableByOthers(folder));
    }
  }
  if (await fileWritableByOthers(real)) {
    const s = await stat(real).catch(() => undefined);
    return trustText.fileOthersCanChange(real, (s && whyNotOurs(real, s)) ?? trustText.writableByOthers(real));
  }
  return undefined;
}

/** The command as a user would type it, for "run it yourself". */
const typed = (file: string, args: readonly string[]) => [file, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/**
 * The absolute program to run for `file`, or why not: not found, or (as root) not root's or this
 * user's alone. Not root, a user's own programs are theirs to run.
 */
export async function checkProgram(file: string, args: readonly string[], env: Env = process.env): Promise<{ program: string } | { refused: ProgramRefusal } | { missing: true }> {
  const program = await locateProgram(file, env);
  if (program === undefined) return { missing: true };
  if (!isRoot()) return { program };
  const reason = await whyNotRunnable(program);
  if (!reason) return { program };
  return { refused: { program, reason: trustText.refused(program, reason), fix: trustText.refusedFix(path.dirname(program), typed(program, args)) } };
}

/** The refusal as the error a change stops with. */
export const refusalError = (r: ProgramRefusal): CudawizError => new CudawizError(r.reason, { code: 'program-untrusted', fix: r.fix });

/** The program to run for `file`, checked; throws CudawizError when refused or not found. */
export async function trustedProgram(file: string, args: readonly string[], env: Env = process.env): Promise<string> {
  const c = await checkProgram(file, args, env);
  if ('refused' in c) throw refusalError(c.refused);
  if ('missing' in c) throw new CudawizError(trustText.notFound(file), { code: 'program-missing', fix: trustText.notFoundFix(file) });
  return c.program;
}

/** Runs a checked program to its end; never throws (a refused or missing program is a result that did not start). */
export async function runProgram(file: string, args: readonly string[], options: RunOptions = {}): Promise<CommandResult> {
  try {
    const c = await checkProgram(file, args, options.env ?? process.env);
    if ('missing' in c) return { exitCode: null, stdout: '', stderr: '', failure: 'ENOENT' };
    if ('refused' in c) return { exitCode: null, stdout: '', stderr: '', failure: c.refused.reason, refused: c.refused };
    // Loaded on first use: execa costs start-up time that commands which run nothing should not pay.
    const { execa } = await import('execa');
    const r = await execa(c.program, [...args], {
      env: options.env as Record<string, string> | undefined,
      extendEnv: options.env === undefined,
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 20_000,
      reject: false,
      stdin: 'ignore',
      windowsHide: true,
    });
    if (r.failed && r.exitCode === undefined) {
      return { exitCode: null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), failure: r.timedOut ? 'timed out' : (r.code ?? r.shortMessage) };
    }
    return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), failure: r.timedOut ? 'timed out' : undefined };
  } catch (error) {
    return { exitCode: null, stdout: '', stderr: '', failure: (error as Error).message };
  }
}

/**
 * Starts a checked program whose output the caller streams (installers, pip); throws CudawizError when
 * refused. The child is wrapped: a bare ResultPromise returned from here would be awaited to its end.
 */
export async function startProgram<O extends ExecaOptions>(file: string, args: readonly string[], options: O): Promise<{ child: ResultPromise<O> }> {
  const env = (options.extendEnv === false ? options.env : { ...process.env, ...options.env }) as Env | undefined;
  const program = await trustedProgram(file, args, env ?? process.env);
  const { execa } = await import('execa');
  return { child: execa(program, [...args], options) as unknown as ResultPromise<O> };
}

/** Starts a checked program with piped stdout/stderr (the xz reader); throws CudawizError when refused. */
export async function spawnProgram(file: string, args: readonly string[], env: Env): Promise<ChildProcessByStdio<null, Readable, Readable>> {
  const program = await trustedProgram(file, args, env);
  return spawn(program, [...args], { stdio: ['ignore', 'pipe', 'pipe'], env: env as NodeJS.ProcessEnv, windowsHide: true });
}

/** What a journalled change ran: the program cudawiz located (absolute) and who owned it then. */
export interface RecordedProgram {
  file: string;
  args: string[];
  owner?: number;
}

/** The program to record for `file`, checked now; throws CudawizError when refused or not found. */
export async function programToRecord(file: string, args: readonly string[], env: Env = process.env): Promise<RecordedProgram> {
  const program = await trustedProgram(file, args, env);
  const owner = checksOwnership() ? (await stat(program).catch(() => undefined))?.uid : undefined;
  return { file: program, args: [...args], ...(owner !== undefined ? { owner } : {}) };
}

/**
 * Whether a program a data file names (the journal's undo) may run now: the same check as any run,
 * and the owner it had when cudawiz ran it. Refused, the user gets the command to run themselves.
 */
export async function checkRecordedProgram(recorded: RecordedProgram, env: Env = process.env): Promise<{ program: string } | { refused: ProgramRefusal } | { missing: true }> {
  const c = await checkProgram(recorded.file, recorded.args, env);
  if (!('program' in c) || recorded.owner === undefined || !checksOwnership()) return c;
  const now = (await stat(c.program).catch(() => undefined))?.uid;
  if (now === undefined || now === recorded.owner) return c;
  const why = trustText.recordedOwnerChanged(c.program, recorded.owner, now);
  return { refused: { program: c.program, reason: trustText.refused(c.program, why), fix: trustText.refusedFix(path.dirname(c.program), typed(c.program, recorded.args)) } };
}
