// What `download cuda|cudnn` (and the plan runner) fetch: a catalog entry turned into a URL, a file
// name and checksum sources, or the login page when NVIDIA offers no public copy.
import { publicCopyUrl } from '../catalog/archive-facts.js';
import { findCudaRelease } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { UsageError } from '../errors.js';
import { fetchText } from '../i18n/fetch.js';
import type { OsName } from '../platform.js';
import { majorMinor, versionHasPrefix } from '../version.js';
import type { ChecksumSources } from './checksum.js';
import { loginNeededError } from './download.js';

export interface DownloadTarget {
  /** "CUDA 10.1.243 (linux)", for messages. */
  label: string;
  url: string;
  file: string;
  checksum: ChecksumSources;
  size?: number;
}

export function cudaInstallerTarget(catalog: Catalog, version: string, os: OsName): DownloadTarget {
  const release = findCudaRelease(catalog, version, os);
  const installer = release?.installers[os];
  if (!release || !installer) {
    const known = catalog.cuda.releases.filter((r) => r.installers[os]).map((r) => r.version);
    throw new UsageError(fetchText.noCudaInstaller(os, version), fetchText.knownAddOverlay(known));
  }
  return {
    label: fetchText.cudaLabel(release.version, os),
    url: installer.url,
    file: installer.file,
    checksum: { sha256: installer.sha256, md5: installer.md5, md5sumUrl: installer.md5sumUrl },
    size: installer.size,
  };
}

export function cudnnArchiveTarget(catalog: Catalog, version: string, os: OsName, cuda?: string): DownloadTarget {
  const builds = catalog.cudnn.releases.filter(
    (r) => versionHasPrefix(r.version, version) && r.archives[os] && (!cuda || r.cuda === cuda || r.cuda === majorMinor(cuda) || (!r.cuda.includes('.') && versionHasPrefix(cuda, r.cuda))),
  );
  if (builds.length === 0) {
    const known = catalog.cudnn.releases.filter((r) => r.archives[os]).map((r) => ({ version: r.version, cuda: r.cuda }));
    throw new UsageError(fetchText.noCudnnArchive(os, version, cuda), fetchText.knownCudnn(known));
  }
  if (builds.length > 1 && !cuda) {
    throw new UsageError(fetchText.severalCudas(version, builds.map((b) => b.cuda)), fetchText.pickCuda(builds[0].cuda));
  }
  const release = builds[0];
  const archive = release.archives[os]!;
  const label = fetchText.cudnnLabel(release.version, release.cuda, os);
  const url = publicCopyUrl(archive);
  if (!url) throw loginNeededError(label, archive.file, release.downloadPage ?? catalog.cudnn.archivePage);
  return { label, url, file: archive.file, checksum: { sha256: archive.sha256, manifestUrl: archive.manifestUrl }, size: archive.size };
}
