// A bundle as the place a plan's files come from: each file the plan asks for is the bundle's own,
// never a request to the network. It is copied into the cache while it is hashed again, and only that
// copy is used (#37): a file swapped in the bundle after it was opened is refused, never unpacked. A
// file the bundle does not hold is an error that names it, not a download.
import { CudawizError, EXIT } from '../errors.js';
import { cacheVerifiedCopy } from '../fetch/download.js';
import type { ChecksumSources, FetchResult } from '../fetch/index.js';
import { bundleText } from '../i18n/bundle.js';
import { VerifyFailure } from '../trust/verified-file.js';
import type { OpenBundle } from './check.js';

export async function fileFromBundle(bundle: OpenBundle, request: { file: string; checksum: ChecksumSources }, cacheDir: string, signal?: AbortSignal): Promise<FetchResult> {
  const f = bundle.files.get(request.file);
  if (!f) throw new CudawizError(bundleText.notInBundle(request.file, bundle.dir), { code: 'bundle-missing', exitCode: EXIT.problems, fix: bundleText.refusedFix('remake') });
  const want = request.checksum.sha256?.toLowerCase() ?? undefined;
  const wantMd5 = request.checksum.md5?.toLowerCase() ?? undefined;
  if ((want && want !== f.sha256) || (wantMd5 && wantMd5 !== f.md5)) {
    throw new CudawizError(bundleText.altered(request.file, want ?? wantMd5 ?? '', want ? f.sha256 : f.md5), { code: 'bundle-altered', fix: bundleText.refusedFix('redownload') });
  }
  return bundleCopy(bundle, request.file, cacheDir, signal);
}

/** The bundle's file copied into the cache while hashed again (or the proven copy already there); a file changed since the bundle was opened is refused. */
export async function bundleCopy(bundle: OpenBundle, file: string, cacheDir: string, signal?: AbortSignal): Promise<FetchResult> {
  const f = bundle.files.get(file)!;
  try {
    return await cacheVerifiedCopy({ source: f.path, file, cacheDir, want: { sha256: f.sha256, size: f.size }, from: bundleText.fromBundle(bundle.dir), signal });
  } catch (error) {
    if (!(error instanceof VerifyFailure)) throw error;
    throw new CudawizError(bundleText.changedSinceOpened(file, error.message), { code: 'bundle-altered', exitCode: EXIT.problems, fix: bundleText.refusedFix('redownload') });
  }
}
