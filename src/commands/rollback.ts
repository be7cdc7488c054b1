// `cudawiz rollback [--cuda-dir DIR] [--json]`: undo cudawiz's cuDNN copy from each manifest,
// restoring what it overwrote; without --cuda-dir, every toolkit under --cuda-root that has one.
import { commandsText } from '../i18n/commands.js';
import { removeEmptyFolder } from '../trust/write.js';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../io/context.js';
import type { Output } from '../io/output.js';
import { rollbackImport, type RollbackReport } from '../cudnn/import-rollback.js';
import { manifestPaths, readManifest } from '../cudnn/manifest.js';
import { commandLine, envPlaces, rollbackEnvChanges, type EnvRollbackResult } from '../env/index.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import { safetyText } from '../i18n/safety.js';
import { defaultCudaRoot, elevationHint, isCudnnHomeDir, runsAsRoot, userCudnnRoot, userToolkitRoot, venvActivateScript, type OsName } from '../platform.js';
import { redistText } from '../i18n/redist.js';
import { hasRedistManifest, readRedistManifest, redistToolkitsUnder, removeRedistToolkit, type RedistRemoval } from '../redist/toolkit.js';
import { untrustedBookkeeping } from '../trust/ownership.js';
import { withLock } from '../lock/index.js';
import { stepsText } from '../i18n/steps.js';
import { cliText } from '../i18n/cli.js';
import { undoWheelLibraryFix } from '../pip/index.js';
import type { EnvChange, Undo } from '../env/index.js';
import { readEnvJournal } from '../env/index.js';
import { handedOverUndo, howToRemove, uninstallInstallerToolkit, unverifiedUninstallerNote } from '../env/installer-toolkit.js';
import { askable, confirm } from './plan-command.js';


/** The toolkits the journal says cudawiz installed with NVIDIA's installer (none when the journal cannot be read: its own error says why). */
async function installerToolkits(journalFile: string | undefined): Promise<EnvChange[]> {
  if (!journalFile) return [];
  const journal = await readEnvJournal(journalFile).catch(() => undefined);
  return journal?.entries.filter((e) => e.change.kind === 'toolkit-installer').map((e) => e.change) ?? [];
}

/** Asked first (#39.4): --keep-toolkits keeps, --yes removes, a terminal asks, anything else keeps and says how. */
function installerToolkitConsent(ctx: CommandContext, keep: boolean, yes: boolean): (change: EnvChange) => Promise<Undo> {
  return async (change) => {
    const version = change.installer?.version ?? '?';
    // Nothing to ask where cudawiz could not run the way out itself: say how, once.
    if (handedOverUndo(change)) return uninstallInstallerToolkit(ctx.host, change);
    const how = commandsText.removeItWith(howToRemove(change));
    if (keep) return { outcome: 'kept', reason: commandsText.installerToolkitKeptFlag(version), fix: how };
    if (!yes) {
      if (!askable(ctx)) return { outcome: 'kept', reason: commandsText.installerToolkitNotAsked(version), fix: how };
      // Told before the answer: the removal rests on a flag no source gives.
      const note = unverifiedUninstallerNote(change);
      if (note) ctx.out.error(`${ctx.out.symbol('warn')} ${note}`);
      if (!(await confirm(ctx, commandsText.removeInstallerToolkit(version, change.target)))) return { outcome: 'kept', reason: commandsText.installerToolkitDeclined(version), fix: how };
    }
    return uninstallInstallerToolkit(ctx.host, change);
  };
}

/** A venv's activate block, taken out through the venv's own record (believed only as src/trust/bookkeeping.ts says). */
async function undoVenv(venv: string): Promise<Undo> {
  try {
    await undoWheelLibraryFix(venv);
    return { outcome: 'undone' };
  } catch (error) {
    if (error instanceof CudawizError) return { outcome: 'kept', reason: error.message, fix: error.fix };
    return { outcome: 'failed', message: (error as Error).message };
  }
}

/**
 * Toolkit folders under the root that hold cudawiz's bookkeeping (a manifest, or the scratch
 * folders a run killed before its manifest left), each once (cuda → cuda-10.1 links too).
 */
export async function toolkitsWithManifest(root: string): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const seen = new Set<string>();
  const out: string[] = [];
  // Real folders before links to them, so `cuda-10.1` is named rather than the `cuda` link.
  const isLink = async (n: string) => (await lstat(path.join(root, n)).catch(() => undefined))?.isSymbolicLink() ?? false;
  const ordered = [...(await Promise.all(names.sort().map(async (n) => [n, await isLink(n)] as const)))].sort((a, b) => Number(a[1]) - Number(b[1]));
  const present = (p: string) => lstat(p).then(() => true, () => false);
  for (const [name] of ordered) {
    const dir = path.join(root, name);
    const p = manifestPaths(dir);
    if (!(await present(p.manifest)) && !(await present(p.staging)) && !(await present(path.join(p.dir, 'incoming')))) continue;
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    out.push(dir);
  }
  return out;
}

/**
 * A manifest someone else could have rewritten would hand them cudawiz's deletions (as root: any
 * file): the toolkit, its .cudawiz folder, backup and manifest must be root's or this user's and
 * writable by no one else, with --cuda-dir too.
 */
async function untrustedCopy(dir: string): Promise<string | undefined> {
  const p = manifestPaths(dir);
  return untrustedBookkeeping([dir, p.dir, p.manifest, p.backup]);
}

/** The first few of a list, and how many more. */
const fewOf = (list: string[]) => cliText.list(list.slice(0, 5)) + (list.length > 5 ? ` (+${list.length - 5})` : '');

interface Refusal {
  toolkitDir: string;
  message: string;
  fix?: string;
}

function render(reports: RollbackReport[], refused: Refusal[], root: string | undefined, out: Output, os: OsName, journalled: Set<string>): void {
  for (const r of refused) {
    out.line(`${out.symbol('fail')} ${r.message}`);
    if (r.fix) out.line(`    ${r.fix}`);
  }
  for (const r of reports) if (r.clearedScratch) out.line(`${out.symbol('pass')} ${safetyText.leftoversCleared(r.toolkitDir)}`);
  if (refused.length > 0 && reports.every((r) => r.from === 'none')) return;
  if (reports.length === 0 || reports.every((r) => r.from === 'none')) {
    if (reports.some((r) => r.clearedScratch)) return;
    out.line(`${out.symbol('info')} ${stepsText.nothingToRollBack(root ? stepsText.inAnyUnder(root) : stepsText.inDir(String(reports[0]?.toolkitDir)))}`);
    return;
  }
  for (const r of reports) {
    if (r.from === 'none') {
      out.line(`${out.symbol('skip')} ${commandsText.nothingHere(r.toolkitDir)}`);
      continue;
    }
    out.line(`${out.symbol(r.kept.length ? 'warn' : 'pass')} ${commandsText.rolledBack(r.toolkitDir, r.from === 'copying', r.removed.length, r.restored.length)}`);
    for (const p of r.restored) out.line(`    ${commandsText.restoredLine(p)}`);
    for (const p of r.preexisting) out.line(`    ${safetyText.preexistingLine(p)}`);
    for (const k of r.kept) out.line(`  ${out.symbol('warn')} ${stepsText.settleKept(k.path, k.reason)}`);
    if (r.backup) out.line(`    ${safetyText.originalsInBackup(r.backup)}`);
    // Only cuDNN was cudawiz's here: the toolkit under it came from NVIDIA's installer, which alone removes it.
    // cudawiz's own installer run is in the journal: the journal's part says what became of it.
    if (!/^cudnn-/.test(path.basename(r.toolkitDir)) && !journalled.has(r.toolkitDir)) out.line(`    ${commandsText.toolkitStays(r.toolkitDir, os)}`);
  }
}

function renderEnv(env: EnvRollbackResult, out: Output): void {
  if (env.undone.length + env.kept.length + env.failed.length === 0) return;
  for (const c of env.undone) {
    const line = c.kind === 'package' && c.undo
      ? commandsText.packageUndone(c.target, c.before ?? '', commandLine(c.undo))
      : c.kind === 'toolkit-installer'
        ? commandsText.installerToolkitRemoved(c.target, c.installer?.version ?? '?')
        : commandsText.envUndone(c.kind === 'venv-activate' ? venvActivateScript('linux', c.target) : c.target);
    out.line(`${out.symbol('pass')} ${line}`);
    unverifiedNote(c, out);
  }
  for (const k of env.kept) {
    out.line(`${out.symbol('warn')} ${commandsText.envKept(k.change.target, k.reason, k.fix)}`);
    unverifiedNote(k.change, out);
  }
  for (const f of env.failed) {
    out.line(`${out.symbol('fail')} ${f.change.target}: ${f.message}`);
    // Said only where the uninstaller ran: one missing or refused never took the unverified flag.
    if (!f.notRun) unverifiedNote(f.change, out);
  }
}

/** Under a line about a toolkit whose removal rests on an unverified uninstaller flag: that it does, and what NVIDIA names instead. */
function unverifiedNote(change: EnvChange, out: Output): void {
  const note = change.kind === 'toolkit-installer' ? unverifiedUninstallerNote(change) : undefined;
  if (note) out.line(`    ${note}`);
}

/** `--dry-run`: every item rollback would undo or remove, from the same bookkeeping, believed the same way; nothing changed. */
async function listOnly(ctx: CommandContext, dirs: string[], redistDirs: string[], keepToolkits: boolean, journalFile: string | undefined): Promise<number> {
  const lines: string[] = [];
  const items: { kind: string; target: string; detail?: string; unverified?: string }[] = [];
  const refused: Refusal[] = [];
  const say = (kind: string, target: string, line: string, detail?: string, unverified?: string) => {
    items.push({ kind, target, ...(detail ? { detail } : {}), ...(unverified ? { unverified } : {}) });
    lines.push(`${ctx.out.symbol('info')} ${line}`);
    if (unverified) lines.push(`    ${unverified}`);
  };
  const cudnnCopy = async (dir: string) => {
    const m = await readManifest(dir);
    if (m && m.state !== 'rolled-back') say('cudnn', dir, commandsText.wouldUndoCudnn(dir, m.files.length, m.files.filter((f) => f.original).length));
  };
  for (const dir of [...redistDirs, ...dirs.filter((d) => !redistDirs.includes(d))]) {
    try {
      const untrusted = await untrustedCopy(dir);
      if (untrusted) throw new CudawizError(safetyText.unsafeOwner(dir, untrusted), { code: 'manifest-unsafe', fix: safetyText.unsafeOwnerFix(dir) });
      if (!redistDirs.includes(dir)) await cudnnCopy(dir);
      else if (keepToolkits) say('toolkit-kept', dir, commandsText.toolkitKept(dir));
      else {
        const m = await readRedistManifest(dir);
        await cudnnCopy(dir);
        say('toolkit', dir, commandsText.wouldRemoveToolkit(dir, m?.release ?? '?', m?.files.length ?? 0));
      }
    } catch (error) {
      if (!(error instanceof CudawizError)) throw error;
      refused.push({ toolkitDir: dir, message: error.message, fix: error.fix });
    }
  }
  if (journalFile) {
    const env = await rollbackEnvChanges(journalFile, { host: ctx.host, dryRun: true });
    for (const c of env.undone) {
      if (c.kind === 'ldconfig') say(c.kind, c.target, commandsText.wouldRebuildCache);
      else if (c.kind === 'toolkit-installer') {
        const version = c.installer?.version ?? '?';
        if (keepToolkits) say('toolkit-kept', c.target, commandsText.installerToolkitWouldStay(c.target, version));
        else say(c.kind, c.target, commandsText.wouldUninstall(c.target, version, howToRemove(c)), howToRemove(c), unverifiedUninstallerNote(c));
      }
      else if (c.kind === 'package' && c.undo) say(c.kind, c.target, commandsText.wouldRunUndo(c.target, commandLine(c.undo)), commandLine(c.undo));
      else {
        const target = c.kind === 'venv-activate' ? venvActivateScript('linux', c.target) : c.target;
        say(c.kind, target, commandsText.wouldUndoEnv(target));
      }
    }
  }
  if (ctx.out.json) ctx.out.writeJson({ dryRun: true, items, ...(refused.length ? { refused } : {}) });
  else {
    for (const r of refused) {
      ctx.out.line(`${ctx.out.symbol('fail')} ${r.message}`);
      if (r.fix) ctx.out.line(`    ${r.fix}`);
    }
    for (const l of lines) ctx.out.line(l);
    ctx.out.line(items.length ? commandsText.dryRunNothingChanged : `${ctx.out.symbol('info')} ${stepsText.nothingToRollBack(stepsText.inAnyUnder(ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env)))}`);
  }
  return refused.length ? EXIT.problems : EXIT.ok;
}

export async function run(ctx: CommandContext): Promise<number> {
  const cudaDir = ctx.values['cuda-dir'] as string | undefined;
  const dryRun = ctx.values['dry-run'] === true;
  const keepToolkits = ctx.values['keep-toolkits'] === true;
  const yes = ctx.values.yes === true;
  let dirs: string[];
  let root: string | undefined;
  if (cudaDir !== undefined) {
    if (!(await stat(cudaDir).then((s) => s.isDirectory(), () => false)))
      throw new UsageError(commandsText.notAFolder(cudaDir), commandsText.notAFolderFix);
    dirs = [path.resolve(cudaDir)];
  } else {
    root = ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env);
    // cuDNN's own folders beside a distro's CUDA live in the user's data folder when no --cuda-root was given.
    const own = ctx.globals.cudaRoot ? [] : await toolkitsWithManifest(userCudnnRoot(ctx.host.os, ctx.host.env, ctx.host.home));
    dirs = [...new Set([...(await toolkitsWithManifest(root)), ...own])];
  }
  // A toolkit laid out from redist archives: its cuDNN copy undone first, then the files its manifest lists.
  const redistDirs = cudaDir !== undefined
    ? ((await hasRedistManifest(dirs[0])) ? [dirs[0]] : [])
    : [...new Set([...(await redistToolkitsUnder(root!)), ...(await redistToolkitsUnder(userToolkitRoot(ctx.host.os, ctx.host.env, ctx.host.home)))])];
  const journalFile = cudaDir === undefined ? envPlaces({ host: ctx.host, root: ctx.host.fsRoot }).journalFile : undefined;
  if (dryRun) return listOnly(ctx, dirs, redistDirs, keepToolkits, journalFile);
  const removedRedist: ({ dir: string } & RedistRemoval)[] = [];
  const keptToolkits: string[] = [];
  const reports: RollbackReport[] = [];
  const refused: Refusal[] = [];
  const refusable = (error: unknown): error is CudawizError => error instanceof CudawizError && ['manifest-invalid', 'manifest-unsafe', 'redist-manifest-untrusted'].includes(error.code ?? '');
  for (const dir of redistDirs) {
    if (keepToolkits) {
      keptToolkits.push(dir);
      continue;
    }
    try {
      // Both pieces of bookkeeping are checked before anything is removed.
      await readRedistManifest(dir);
      const untrusted = await untrustedCopy(dir);
      if (untrusted) throw new CudawizError(safetyText.unsafeOwner(dir, untrusted), { code: 'redist-manifest-untrusted', fix: safetyText.unsafeOwnerFix(dir) });
      await withLock(dir, async () => {
        if (await lstat(manifestPaths(dir).manifest).then(() => true, () => false)) {
          const report = await rollbackImport(dir);
          if (report.from !== 'none') reports.push(report);
        }
        removedRedist.push({ dir, ...(await removeRedistToolkit(dir)) });
      }, { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) });
    } catch (error) {
      if (!refusable(error)) throw error;
      refused.push({ toolkitDir: dir, message: error.message, fix: error.fix });
    }
  }
  dirs = dirs.filter((d) => !redistDirs.includes(d));
  for (const dir of dirs) {
    // Walking a whole root, one toolkit's untrusted or hostile bookkeeping is named and skipped; the others go on.
    const untrusted = await untrustedCopy(dir);
    if (untrusted) {
      refused.push({ toolkitDir: dir, message: safetyText.unsafeOwner(dir, untrusted), fix: safetyText.unsafeOwnerFix(dir) });
      continue;
    }
    try {
      const report = await withLock(dir, () => rollbackImport(dir), { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) });
      reports.push(report);
      // cuDNN's own folder (cudnn-X.Y-cudaN, beside a distro's CUDA) is cudawiz's: emptied, it goes too (rmdir: never with anything left in it).
      if (isCudnnHomeDir(ctx.host.os, dir) && report.from !== 'none' && report.kept.length === 0) await removeEmptyFolder(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM')
        throw new CudawizError(commandsText.noPermission(dir), { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: ctx.host.os === 'linux' && runsAsRoot() ? safetyText.rootCannotWrite(dir) : elevationHint(ctx.host.os, `cudawiz rollback --cuda-dir "${dir}"`) });
      if (cudaDir === undefined && refusable(error)) {
        refused.push({ toolkitDir: dir, message: error.message, fix: error.fix });
        continue;
      }
      throw error;
    }
  }
  // A whole-machine rollback also undoes what cudawiz wrote to the environment (ld.so.conf.d, rc files, PATH).
  const journalled = new Set((await installerToolkits(journalFile)).map((c) => c.target));
  const env = journalFile ? await rollbackEnvChanges(journalFile, { host: ctx.host, undoVenv, removeInstallerToolkit: installerToolkitConsent(ctx, keepToolkits, yes) }) : undefined;
  if (ctx.out.json) ctx.out.writeJson({ toolkits: reports, ...(removedRedist.length ? { redistToolkits: removedRedist.map((r) => ({ dir: r.dir, release: r.release, files: r.files, changed: r.changed, left: r.left })) } : {}), ...(refused.length ? { refused } : {}), ...(keptToolkits.length ? { keptToolkits } : {}), environment: env ? { undone: env.undone.map((c) => c.target), kept: env.kept.map((k) => ({ target: k.change.target, reason: k.reason })), failed: env.failed.map((f) => ({ target: f.change.target, message: f.message })) } : null });
  else {
    for (const dir of keptToolkits) ctx.out.line(`${ctx.out.symbol('skip')} ${commandsText.toolkitKept(dir)}`);
    for (const r of removedRedist) {
      const whole = r.changed.length + r.left.length === 0;
      ctx.out.line(`${ctx.out.symbol(whole ? 'pass' : 'warn')} ${whole ? redistText.removed(r.dir, r.release ?? '?', r.files) : redistText.removedFiles(r.dir, r.release ?? '?', r.files)}`);
      if (r.changed.length) ctx.out.line(`    ${redistText.leftChanged(r.changed.length, fewOf(r.changed))}`);
      if (r.left.length) ctx.out.line(`    ${redistText.leftTheirs(r.left.length, fewOf(r.left))}`);
    }
    if (reports.length || refused.length || !(removedRedist.length || keptToolkits.length || journalled.size)) render(reports, refused, root, ctx.out, ctx.host.os, journalled);
    if (env) renderEnv(env, ctx.out);
  }
  return (env && !env.ok) || refused.length > 0 ? EXIT.problems : EXIT.ok;
}
