// The download service's public face: what the plan runner and the download command call.
export { cacheEntryOf, cachePaths, resolveCacheDir, type CachePaths } from './cache-paths.js';
export { resolveChecksum, type ChecksumSources, type ExpectedChecksum } from './checksum.js';
export { formatBytes } from '../format.js';
export { fetchVerified, loginNeededError, type FetchRequest, type FetchResult } from './download.js';
export { applyMirror, parseMirror } from './mirror.js';
export type { DownloadProgress, ProgressListener } from './progress.js';
export { cudaInstallerTarget, cudnnArchiveTarget, type DownloadTarget } from './targets.js';
