// Where an archive member or a bookkeeping path may land: the one containment check every archive
// path shares (the cuDNN import, the redist unpack, their staging). Member names are normalised
// first (`a//b`, `./a/./b` → `a/b`), so a name cannot slip past a check by being spelled twice; and
// before each write the real folder the write lands in (realpath of its nearest existing parent, so
// a link laid earlier — by this archive, another component, or anyone — is seen) must be inside.
// The lowest module of cudnn/: it imports none of the others.
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * A `/`-separated path that stays below its folder whatever the OS: not empty, not absolute, no
 * drive letter, no backslash, no `.`/`..`/empty segment, no control characters.
 */
export function isRelativeInside(rel: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (rel === '' || /^[a-zA-Z]:/.test(rel) || rel.startsWith('/') || rel.includes('\\') || /[\u0000-\u001f]/.test(rel)) return false;
  return rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * A member name in one spelling: empty and `.` segments dropped (`T//lib/./x` → `T/lib/x`), a
 * trailing `/` dropped, a leading `/` kept (so an absolute name is still seen as one), `..` kept
 * (so it is still refused as climbing out).
 */
export function normaliseMemberName(name: string): string {
  const parts = name.split('/').filter((s) => s !== '' && s !== '.');
  return (name.startsWith('/') ? '/' : '') + parts.join('/');
}

/** A manifest path ("lib/x64/cudnn.lib") under a host directory. */
export function hostPath(base: string, rel: string): string {
  return path.join(base, ...rel.split('/'));
}

export const within = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** The realpath of the nearest existing folder at or above `dir`, with the part below it (to be created) appended. */
export async function nearestReal(dir: string): Promise<string> {
  let d = dir;
  for (;;) {
    const real = await realpath(d).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? undefined : Promise.reject(error)));
    if (real !== undefined) return path.join(real, path.relative(d, dir));
    const up = path.dirname(d);
    if (up === d) return dir;
    d = up;
  }
}

/**
 * The real folder a write of `target` would land in, when that is outside `rootReal` (a realpath);
 * undefined when it stays inside. Checked right before each write, so links laid by earlier members,
 * other components or anyone else are followed here, never by the write.
 */
export async function landsOutside(rootReal: string, target: string): Promise<string | undefined> {
  const parent = await nearestReal(path.dirname(target));
  return within(rootReal, parent) ? undefined : parent;
}

/**
 * Whether a link at `linkAt` (a host path whose folder is inside `rootReal`) pointing at `target`
 * stays inside: relative, and not climbing out of the root from where it sits.
 */
export async function linkStaysInside(rootReal: string, linkAt: string, target: string): Promise<boolean> {
  if (target === '' || path.isAbsolute(target) || path.posix.isAbsolute(target) || /^[a-zA-Z]:/.test(target) || target.includes('\\')) return false;
  const from = await nearestReal(path.dirname(linkAt));
  return within(rootReal, await nearestReal(path.resolve(from, target)));
}
