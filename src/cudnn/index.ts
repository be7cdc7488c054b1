// The cuDNN service: inspect an archive, import it into a toolkit under a manifest, finish or roll back.
export { inspectCudnnArchive, DEFAULT_LIMITS, type ArchiveReport, type ArchiveProblem, type InspectOptions, type RefusalCode } from './inspect.js';
export { importCudnn, importState, finishImport, rollbackImport, toolkitPartDir, refusalError, type ImportOptions, type ImportProgress, type ImportState, type RollbackReport } from './import.js';
export { readManifest, manifestPaths, type Manifest, type ManifestFile } from './manifest.js';
export { findArchiveInDownloads, isDownloadOf, waitForArchiveInDownloads } from './downloads.js';
export { checkZlibwapi, peMachine, zlibwapiFix, type ZlibwapiCheck } from './zlibwapi.js';
export { factsFromName, parseCudnnVersionHeader, type LayoutEra } from './layout.js';
