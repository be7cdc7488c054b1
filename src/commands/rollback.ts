// `cudawiz rollback [--cuda-dir DIR] [--json]`: undo cudawiz's cuDNN copy from each manifest,
// restoring what it overwrote; without --cuda-dir, every toolkit under --cuda-root that has one.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandContext } from '../cli/context.js';
import type { Output } from '../cli/output.js';
import { rollbackImport, type RollbackReport } from '../cudnn/import.js';
import { manifestPaths } from '../cudnn/manifest.js';
import { envPlaces, rollbackEnvChanges, type EnvRollbackResult } from '../env/index.js';
import { CudawizError, EXIT, UsageError } from '../errors.js';
import { withLock } from '../lock/index.js';
import { defaultCudaRoot, elevationHint } from '../platform.js';

/** Toolkit folders under the root that hold a cudawiz manifest, each once (cuda → cuda-10.1 links too). */
export async function toolkitsWithManifest(root: string): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const seen = new Set<string>();
  const out: string[] = [];
  // Real folders before links to them, so `cuda-10.1` is named rather than the `cuda` link.
  const isLink = async (n: string) => (await lstat(path.join(root, n)).catch(() => undefined))?.isSymbolicLink() ?? false;
  const ordered = [...(await Promise.all(names.sort().map(async (n) => [n, await isLink(n)] as const)))].sort((a, b) => Number(a[1]) - Number(b[1]));
  for (const [name] of ordered) {
    const dir = path.join(root, name);
    if (!(await stat(manifestPaths(dir).manifest).then((s) => s.isFile(), () => false))) continue;
    const real = await realpath(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    out.push(dir);
  }
  return out;
}

function render(reports: RollbackReport[], root: string | undefined, out: Output): void {
  if (reports.length === 0 || reports.every((r) => r.from === 'none')) {
    out.line(`${out.symbol('info')} No cuDNN copy by cudawiz ${root ? `in any toolkit under ${root}` : `in ${reports[0]?.toolkitDir}`}: nothing to roll back.`);
    return;
  }
  for (const r of reports) {
    if (r.from === 'none') {
      out.line(`${out.symbol('skip')} ${r.toolkitDir}: nothing to roll back.`);
      continue;
    }
    const what = r.from === 'copying' ? 'interrupted cuDNN copy' : 'cuDNN copy';
    out.line(`${out.symbol(r.kept.length ? 'warn' : 'pass')} ${r.toolkitDir}: ${what} rolled back (removed ${r.removed.length} file${r.removed.length === 1 ? '' : 's'}, restored ${r.restored.length} original${r.restored.length === 1 ? '' : 's'}).`);
    for (const p of r.restored) out.line(`    restored ${p}`);
    for (const k of r.kept) out.line(`  ${out.symbol('warn')} kept ${k.path}: ${k.reason}`);
    if (r.kept.length) out.line(`    The originals of kept files stay in ${manifestPaths(r.toolkitDir).backup}.`);
  }
}

function renderEnv(env: EnvRollbackResult, out: Output): void {
  if (env.undone.length + env.kept.length + env.failed.length === 0) return;
  for (const c of env.undone) out.line(`${out.symbol('pass')} ${c.target}: cudawiz's change undone.`);
  for (const k of env.kept) out.line(`${out.symbol('warn')} ${k.change.target}: left as it is — ${k.reason}${k.fix ? ` (${k.fix})` : ''}`);
  for (const f of env.failed) out.line(`${out.symbol('fail')} ${f.change.target}: ${f.message}`);
}

export async function run(ctx: CommandContext): Promise<number> {
  const cudaDir = ctx.values['cuda-dir'] as string | undefined;
  let dirs: string[];
  let root: string | undefined;
  if (cudaDir !== undefined) {
    if (!(await stat(cudaDir).then((s) => s.isDirectory(), () => false)))
      throw new UsageError(`--cuda-dir ${cudaDir} is not a folder.`, 'Pass the toolkit folder, e.g. --cuda-dir /usr/local/cuda-10.1');
    dirs = [path.resolve(cudaDir)];
  } else {
    root = ctx.globals.cudaRoot ?? defaultCudaRoot(ctx.host.os, ctx.host.env);
    dirs = await toolkitsWithManifest(root);
  }
  const reports: RollbackReport[] = [];
  for (const dir of dirs) {
    try {
      reports.push(await withLock(dir, () => rollbackImport(dir), { onNotice: (l) => ctx.out.error(`${ctx.out.symbol('info')} ${l}`) }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM')
        throw new CudawizError(`No permission to change ${dir}.`, { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: elevationHint(ctx.host.os, `cudawiz rollback --cuda-dir "${dir}"`) });
      throw error;
    }
  }
  // A whole-machine rollback also undoes what cudawiz wrote to the environment (ld.so.conf.d, rc files, PATH).
  const env = cudaDir === undefined ? await rollbackEnvChanges(envPlaces({ host: ctx.host, root: ctx.host.fsRoot }).journalFile, { host: ctx.host }) : undefined;
  if (ctx.out.json) ctx.out.writeJson({ toolkits: reports, environment: env ? { undone: env.undone.map((c) => c.target), kept: env.kept.map((k) => ({ target: k.change.target, reason: k.reason })), failed: env.failed.map((f) => ({ target: f.change.target, message: f.message })) } : null });
  else {
    render(reports, root, ctx.out);
    if (env) renderEnv(env, ctx.out);
  }
  return env && !env.ok ? EXIT.problems : EXIT.ok;
}
