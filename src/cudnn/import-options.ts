// What a cuDNN import is asked to do (ImportOptions) and how far it is (ImportProgress): the request every
// part of the import reads (import.ts runs it; import-checks, import-stage, import-place and
// import-rollback do one job each).
import type { OsName } from '../platform.js';
import type { InspectLimits } from './inspect.js';

/** For a tar's one-pass 'extract' phase, `bytes`/`totalBytes` say how far through the archive it is (totalBytes 0 while unknown). */
export interface ImportProgress {
  phase: 'extract' | 'hash' | 'copy';
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  current?: string;
}

export interface ImportOptions extends InspectLimits {
  archive: string;
  /** The archive's name as the user gave it, recorded in the manifest when `archive` is cudawiz's private checked copy of it. */
  recordedAs?: string;
  toolkitDir: string;
  os: OsName;
  /** What TensorFlow needs ("7.6"); checked when given. */
  tfCudnn?: string;
  /** The toolkit's CUDA ("10.1"); checked when given. */
  cudaVersion?: string;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Roll back a previous complete import first (a re-copy); without it a second import is refused. */
  replacePrevious?: boolean;
  /** For tests only: wait this long before putting each file in place, so a copy can be killed midway. */
  throttleMs?: number;
  /** What inspection noticed but did not refuse (the name says one version, the header another). */
  onWarning?: (line: string) => void;
}
