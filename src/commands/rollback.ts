// `cudawiz rollback [--cuda-dir DIR] [--json]`: undo cudawiz's cuDNN copy from each manifest,
// restoring what it overwrote; without --cuda-dir, every toolkit under --cuda-root that has one.
import { commandsText } from '../i18n/commands.js';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../cli/context.js';
import type { Output } from '../cli/output.js';
import { rollbackImport, type RollbackReport } from '../cudnn/import.js';
import { manifestPaths } from '../cudnn/manifest.js';
import { envPlaces, rollbackEnvChanges, type EnvRollbackResult } from '../env/index.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import { safetyText } from '../i18n/safety.js';
import { defaultCudaRoot, elevationHint, userToolkitRoot } from '../platform.js';
import { redistText } from '../i18n/redist.js';
import { readRedistManifest, redistToolkitsUnder, removeRedistToolkit } from '../redist/toolkit.js';
import { withLock } from '../lock/index.js';
import { stepsText } from '../i18n/steps.js';

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
 * Run as root over a whole --cuda-root, a manifest anyone else can rewrite would hand them root's
 * writes: the toolkit, its .cudawiz folder, backup and manifest must be root's and not group/other-writable.
 */
async function untrustedBookkeeping(dir: string): Promise<string | undefined> {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return undefined;
  const p = manifestPaths(dir);
  for (const file of [await realpath(dir), p.dir, p.manifest, p.backup]) {
    const s = await lstat(file).catch(() => undefined);
    if (!s || s.isSymbolicLink()) continue;
    if (s.uid !== 0) return safetyText.ownedByOther(file, s.uid);
    if (s.mode & 0o022) return safetyText.writableByOthers(file);
  }
  return undefined;
}

interface Refusal {
  toolkitDir: string;
  message: string;
  fix?: string;
}

function render(reports: RollbackReport[], refused: Refusal[], root: string | undefined, out: Output): void {
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
  }
}

function renderEnv(env: EnvRollbackResult, out: Output): void {
  if (env.undone.length + env.kept.length + env.failed.length === 0) return;
  for (const c of env.undone) out.line(`${out.symbol('pass')} ${commandsText.envUndone(c.target)}`);
  for (const k of env.kept) out.line(`${out.symbol('warn')} ${commandsText.envKept(k.change.target, k.reason, k.fix)}`);
  for (const f of env.failed) out.line(`${out.symbol('fail')} ${f.change.target}: ${f.message}`);
}

export async function run(ctx: CommandContext): Promise<number> {
  const cudaDir = ctx.values['cuda-dir'] as string | undefined;
  let dirs: string[];
  let root: string | undefined;
  if (cudaDir !== undefined) {
    if (!(await stat(cudaDir).then((s) => s.isDirectory(), () => false)))
      throw new UsageError(commandsText.notAFolder(cudaDir), commandsText.notAFolderFix);
    dirs = [path.resolve(cudaDir)];
  } else {
    root = ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env);
    dirs = await toolkitsWithManifest(root);
  }
  // A toolkit laid out from redist archives is all cudawiz's: it goes whole (its cuDNN with it).
  const redistDirs = cudaDir !== undefined
    ? ((await readRedistManifest(dirs[0])) ? [dirs[0]] : [])
    : [...new Set([...(await redistToolkitsUnder(root!)), ...(await redistToolkitsUnder(userToolkitRoot(ctx.host.os, ctx.host.env, ctx.host.home)))])];
  const removedRedist: { dir: string; release?: string; files: number }[] = [];
  const reports: RollbackReport[] = [];
  const refused: Refusal[] = [];
  for (const dir of redistDirs) {
    // A whole folder is removed only when its bookkeeping is trustworthy, as for a cuDNN copy.
    const untrusted = cudaDir === undefined ? await untrustedBookkeeping(dir) : undefined;
    if (untrusted) refused.push({ toolkitDir: dir, message: safetyText.unsafeOwner(dir, untrusted), fix: safetyText.unsafeOwnerFix(dir) });
    else removedRedist.push({ dir, ...(await removeRedistToolkit(dir)) });
  }
  dirs = dirs.filter((d) => !redistDirs.includes(d));
  for (const dir of dirs) {
    // Walking a whole root, one toolkit's untrusted or hostile bookkeeping is named and skipped; the others go on.
    const untrusted = cudaDir === undefined ? await untrustedBookkeeping(dir) : undefined;
    if (untrusted) {
      refused.push({ toolkitDir: dir, message: safetyText.unsafeOwner(dir, untrusted), fix: safetyText.unsafeOwnerFix(dir) });
      continue;
    }
    try {
      reports.push(await withLock(dir, () => rollbackImport(dir), { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM')
        throw new CudawizError(commandsText.noPermission(dir), { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: elevationHint(ctx.host.os, `cudawiz rollback --cuda-dir "${dir}"`) });
      if (cudaDir === undefined && error instanceof CudawizError && (error.code === 'manifest-invalid' || error.code === 'manifest-unsafe')) {
        refused.push({ toolkitDir: dir, message: error.message, fix: error.fix });
        continue;
      }
      throw error;
    }
  }
  // A whole-machine rollback also undoes what cudawiz wrote to the environment (ld.so.conf.d, rc files, PATH).
  const env = cudaDir === undefined ? await rollbackEnvChanges(envPlaces({ host: ctx.host, root: ctx.host.fsRoot }).journalFile, { host: ctx.host }) : undefined;
  if (ctx.out.json) ctx.out.writeJson({ toolkits: reports, ...(removedRedist.length ? { redistToolkits: removedRedist.map((r) => ({ dir: r.dir, release: r.release, files: r.files })) } : {}), ...(refused.length ? { refused } : {}), environment: env ? { undone: env.undone.map((c) => c.target), kept: env.kept.map((k) => ({ target: k.change.target, reason: k.reason })), failed: env.failed.map((f) => ({ target: f.change.target, message: f.message })) } : null });
  else {
    for (const r of removedRedist) ctx.out.line(`${ctx.out.symbol('pass')} ${redistText.removed(r.dir, r.release ?? '?', r.files)}`);
    if (reports.length || refused.length || !removedRedist.length) render(reports, refused, root, ctx.out);
    if (env) renderEnv(env, ctx.out);
  }
  return (env && !env.ok) || refused.length > 0 ? EXIT.problems : EXIT.ok;
}
