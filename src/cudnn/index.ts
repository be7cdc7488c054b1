// The cuDNN service: inspect an archive, import it into a toolkit under a manifest, finish or roll back.
export { inspectCudnnArchive, DEFAULT_LIMITS, type ArchiveReport, type ArchiveProblem, type InspectOptions, type RefusalCode } from './inspect.js';
export { importCudnn } from './import.js';
export { refusalError, toolkitPartDir } from './import-checks.js';
export type { ImportOptions, ImportProgress } from './import-options.js';
export { finishImport, importState, type ImportState } from './import-place.js';
export { rollbackImport, type RollbackReport } from './import-rollback.js';
export { readManifest, manifestPaths, type Manifest, type ManifestFile } from './manifest.js';
export { findArchiveInDownloads, isDownloadOf, waitForArchiveInDownloads } from './downloads.js';
export { checkZlibwapi, peMachine, zlibwapiFix, type ZlibwapiCheck } from './zlibwapi.js';
export { factsFromName, parseCudnnVersionHeader, type LayoutEra } from './layout.js';
