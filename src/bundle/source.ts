// A bundle as the place a plan's files come from: each file the plan asks for is the bundle's own
// (verified when the bundle was opened), never a request to the network. A file the bundle does not
// hold is an error that names it, not a download.
import { CudawizError, EXIT } from '../errors.js';
import type { ChecksumSources, FetchResult } from '../fetch/index.js';
import { bundleText } from '../i18n/bundle.js';
import type { OpenBundle } from './check.js';

export function fileFromBundle(bundle: OpenBundle, request: { file: string; checksum: ChecksumSources }): FetchResult {
  const f = bundle.files.get(request.file);
  if (!f) throw new CudawizError(bundleText.notInBundle(request.file, bundle.dir), { code: 'bundle-missing', exitCode: EXIT.problems, fix: bundleText.refusedFix('remake') });
  const want = request.checksum.sha256?.toLowerCase() ?? undefined;
  const wantMd5 = request.checksum.md5?.toLowerCase() ?? undefined;
  if ((want && want !== f.sha256) || (wantMd5 && wantMd5 !== f.md5)) {
    throw new CudawizError(bundleText.altered(request.file, want ?? wantMd5 ?? '', want ? f.sha256 : f.md5), { code: 'bundle-altered', fix: bundleText.refusedFix('redownload') });
  }
  return { path: f.path, bytes: f.size, sha256: f.sha256, md5: f.md5, source: bundleText.fromBundle(bundle.dir), url: null, resumedFrom: f.size, fromCache: true, seconds: 0, notices: [] };
}
