// An installer runs as root, so it is checked at the last moment, not trusted from the cache: it is
// copied into a fresh directory only this user can enter (0700 dir, 0700 file), hashed while it is
// copied, and only that copy runs — a file swapped in the cache after its check never executes.
import { lstat, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CudawizError } from '../errors.js';
import { describeFsError } from '../fs-errors.js';
import { writableByOthers } from '../trust/ownership.js';
import { fetchText } from '../i18n/fetch.js';
import { copyVerified, VerifyFailure } from '../trust/verified-file.js';

export interface PrivateCopy {
  /** The copy to execute, under the installer's own file name (the runfile reads its version from it). */
  file: string;
  dir: string;
  sha256: string;
  remove(): Promise<void>;
}

const ownUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

async function privateBase(candidates: string[]): Promise<string> {
  for (const dir of candidates) {
    await mkdir(dir, { recursive: true }).catch(() => undefined);
    const exists = await stat(dir).then((s) => s.isDirectory(), () => false);
    if (exists && !(await writableByOthers(dir))) return dir;
  }
  throw new CudawizError(fetchText.noPrivatePlace(candidates), { code: 'no-private-dir', fix: fetchText.noPrivatePlaceFix });
}

/**
 * Copies `file` into a private directory under one of `bases` (first that only we can write; the
 * system temp dir as the last resort), hashing on the way, and refuses unless the copy's sha256 is
 * `expectedSha256`. The refused copy is deleted; the original is left as it is.
 */
export async function privateVerifiedCopy(file: string, expectedSha256: string, bases: string[]): Promise<PrivateCopy> {
  const base = await privateBase([...bases, os.tmpdir()]);
  const dir = await mkdtemp(path.join(base, 'cudawiz-exec-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const target = path.join(dir, path.basename(file));
    // The one way to take verified bytes (trust/verified-file.ts): one no-follow open of a regular file,
    // copied while hashed into a file created exclusively (0700); the copy is removed unless it is the expected one.
    const sha256 = await copyVerified(file, target, { sha256: expectedSha256.toLowerCase() }, { mode: 0o700 }).then(
      (got) => got.sha256,
      (error: unknown) => {
        if (!(error instanceof VerifyFailure)) throw error;
        const got = error.got?.sha256;
        throw new CudawizError(got ? fetchText.installerChanged(file, expectedSha256.toLowerCase(), got) : error.message, { code: 'installer-changed', fix: fetchText.installerChangedFix(file) });
      },
    );
    // The directory must still be ours and private, and the copy a plain file, right before it runs.
    const [d, f] = await Promise.all([lstat(dir), lstat(target)]);
    const uid = ownUid();
    if (process.platform !== 'win32' && (!d.isDirectory() || (d.mode & 0o077) !== 0 || d.uid !== uid || !f.isFile() || f.uid !== uid || (f.mode & 0o077) !== 0)) {
      throw new CudawizError(fetchText.privateCopyTampered(dir), { code: 'installer-changed', fix: fetchText.installerChangedFix(file) });
    }
    return { file: target, dir, sha256, remove };
  } catch (error) {
    await remove();
    if (error instanceof CudawizError) throw error;
    throw describeFsError(error, { path: file });
  }
}
