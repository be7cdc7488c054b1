// The facts every screen says about a download, from one place: whether a cuDNN archive needs NVIDIA's
// login or has a public copy, and where that copy is. The doctor, requirements, the plans and the
// wizard ask these functions, so they cannot disagree (issue 26: doctor said "login" where install
// used the public copy).
import type { CudnnArchive } from './schema.js';

type AccessFields = Pick<CudnnArchive, 'url' | 'gated' | 'publicUrl'>;

/** public: a copy downloads without a login (verified by its sha256 unless `unverified`); login: only behind NVIDIA's developer login. */
export function archiveAccess(archive: AccessFields): 'public' | 'login' {
  return archive.gated === false || archive.publicUrl ? 'public' : 'login';
}

/** The no-login URL of the archive, or undefined when only the login download exists. */
export function publicCopyUrl(archive: AccessFields): string | undefined {
  if (archive.publicUrl) return archive.publicUrl;
  return archive.gated === false ? archive.url : undefined;
}

/** A public, checksummed copy: downloadable without a login and verified on the way in. */
export function isPublicArchive(archive: (AccessFields & Pick<CudnnArchive, 'unverified'>) | undefined): boolean {
  return Boolean(archive && archiveAccess(archive) === 'public' && !archive.unverified);
}
