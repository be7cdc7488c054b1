// The toolkit's checks before a cuDNN import changes anything: the folder is there and writable, each
// part's folder (bin, include, lib) stays inside it, every member's destination resolves inside it; and
// the error an archive's refusal becomes.
import { access, constants, lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { cudnnText as T } from '../i18n/cudnn.js';
import { safetyText } from '../i18n/safety.js';
import { elevationHint, runsAsRoot, toolkitSubdirs, type OsName } from '../platform.js';
import { nearestReal, within } from './contain.js';
import type { ArchiveReport } from './inspect.js';
import type { ToolkitPart } from './layout.js';
import { hostPath, manifestPaths } from './manifest.js';

/** The toolkit folder each part goes to, `/`-separated: Windows `lib/x64`, Linux `lib64`. */
export function toolkitPartDir(os: OsName, part: ToolkitPart): string {
  return toolkitSubdirs(os)[part].split(/[\\/]/).join('/');
}

export function refusalError(report: ArchiveReport): CudawizError {
  const first = report.problems[0];
  const more = report.problems.length > 1 ? T.andMore(report.problems.length - 1, report.problems.slice(1).map((p) => p.code).join(', ')) : '';
  return new CudawizError(T.refusing(path.basename(report.file), first.message, more), {
    code: 'cudnn-archive-refused',
    fix: first.fix,
    details: { problems: report.problems },
  });
}

export async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

export async function assertWritableToolkit(toolkitDir: string, os: OsName): Promise<void> {
  const s = await lstat(toolkitDir).catch(() => undefined);
  if (!s?.isDirectory() && !(s?.isSymbolicLink() && (await realpath(toolkitDir).then((r) => lstat(r)).then((r) => r.isDirectory(), () => false))))
    throw new CudawizError(T.noToolkitFolder(toolkitDir), { code: 'no-toolkit', fix: T.noToolkitFolderFix });
  try {
    await access(toolkitDir, constants.W_OK);
  } catch {
    throw new CudawizError(T.noWritePermission(toolkitDir), { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: os === 'linux' && runsAsRoot() ? safetyText.rootCannotWrite(toolkitDir) : elevationHint(os, 'cudawiz install …') });
  }
}

/** Each part's folder, refusing one that is a link out of the toolkit (Linux lib64 → targets/… inside is normal). */
export async function resolvePartDirs(toolkitDir: string, os: OsName): Promise<Record<ToolkitPart, string>> {
  const root = await realpath(toolkitDir);
  // cudawiz's own folder must be a real folder of the toolkit: staging, backups and the manifest are written there.
  const own = manifestPaths(toolkitDir).dir;
  const ownStat = await lstat(own).catch(() => undefined);
  if (ownStat && !ownStat.isDirectory()) {
    const real = await realpath(own).catch(() => own);
    throw new CudawizError(safetyText.pathEscapes(own, real, toolkitDir), { code: 'link-out', fix: safetyText.bookkeepingNotFolderFix(own) });
  }
  const out = {} as Record<ToolkitPart, string>;
  for (const part of ['bin', 'include', 'lib'] as const) {
    const rel = toolkitPartDir(os, part);
    out[part] = rel;
    const real = await realpath(hostPath(toolkitDir, rel)).catch(() => undefined);
    if (real !== undefined && real !== root && !real.startsWith(root + path.sep))
      throw new CudawizError(T.pointsOutside(hostPath(toolkitDir, rel), real), {
        code: 'link-out',
        fix: T.pointsOutsideFix,
      });
  }
  return out;
}

/** Every member's destination folder resolves inside the toolkit (no folder link carries it out). */
export async function checkDestinations(report: ArchiveReport, partDirs: Record<ToolkitPart, string>, toolkitDir: string): Promise<void> {
  const root = await realpath(toolkitDir);
  for (const m of report.members) {
    const dir = path.dirname(hostPath(toolkitDir, `${partDirs[m.part]}/${m.rel}`));
    const real = await nearestReal(dir);
    if (!within(root, real)) throw new CudawizError(safetyText.pathEscapes(dir, real, toolkitDir), { code: 'link-out', fix: safetyText.pathEscapesFix });
  }
}
