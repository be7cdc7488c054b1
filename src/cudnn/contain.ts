// Containment for every change cudawiz makes in a toolkit from its own bookkeeping: before each
// unlink, rename, symlink or mkdir, the real folder the change lands in (realpath of the nearest
// existing parent) must be inside the toolkit, and a backup inside `.cudawiz/backup`. A manifest
// rewritten by someone else, or a folder link such as `include/thrust → /elsewhere`, cannot carry a
// change outside.
import { cudnnText } from '../i18n/cudnn.js';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { safetyText } from '../i18n/safety.js';
import { manifestPaths } from './manifest.js';
import { hostPath, isRelativeInside, nearestReal, within } from './member-paths.js';

export { nearestReal, within };

export interface Containment {
  /** The toolkit's real path. */
  root: string;
  /** `rel` under the toolkit, once the folder it lands in is known to be inside; else the refusal. */
  inToolkit(rel: string): Promise<string>;
  /** `rel` under `.cudawiz/backup`, likewise. */
  inBackup(rel: string): Promise<string>;
  /** `rel` under `.cudawiz/staging`, likewise. */
  inStaging(rel: string): Promise<string>;
  /** Whether a link at `rel` with `target` would point inside the toolkit. */
  linkStaysInside(rel: string, target: string): Promise<boolean>;
}

export async function containment(toolkitDir: string, file = manifestPaths(toolkitDir).manifest): Promise<Containment> {
  const root = await realpath(toolkitDir);
  const p = manifestPaths(toolkitDir);
  const refuse = (rel: string, where: string) => new CudawizError(safetyText.manifestOutside(file, rel, where), { code: 'manifest-unsafe', fix: safetyText.manifestOutsideFix(toolkitDir) });
  /** A bookkeeping folder (.cudawiz, its backup or staging) must be a real folder of the toolkit, not a link elsewhere. */
  const ownFolder = async (dir: string, rel: string) => {
    const s = await lstat(dir).catch(() => undefined);
    if (s?.isSymbolicLink()) throw refuse(rel, cudnnText.aLink(dir));
    const real = await nearestReal(dir);
    if (!within(root, real)) throw refuse(rel, toolkitDir);
    return real;
  };
  const under = async (base: string, baseReal: string, rel: string, where: string) => {
    if (!isRelativeInside(rel)) throw refuse(rel, where);
    const target = hostPath(base, rel);
    const parentReal = await nearestReal(path.dirname(target));
    if (!within(baseReal, parentReal)) throw refuse(rel, cudnnText.resolvesTo(where, parentReal));
    return target;
  };
  return {
    root,
    inToolkit: (rel) => under(toolkitDir, root, rel, toolkitDir),
    async inBackup(rel) {
      await ownFolder(p.dir, rel);
      return under(p.backup, await ownFolder(p.backup, rel), rel, p.backup);
    },
    async inStaging(rel) {
      await ownFolder(p.dir, rel);
      return under(p.staging, await ownFolder(p.staging, rel), rel, p.staging);
    },
    async linkStaysInside(rel, target) {
      const at = await under(toolkitDir, root, rel, toolkitDir);
      const lexical = path.resolve(await nearestReal(path.dirname(at)), target);
      return within(root, await nearestReal(lexical));
    },
  };
}
