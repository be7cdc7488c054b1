// What explain's rules hand back, and what they are given: the lowest layer of explain. The rule
// modules (explain-driver, explain-pip, explain-installers, explain-build-info) import these types
// from here and never from explain.ts, which assembles them (one way only, no import cycle).
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface ExplainFinding {
  /** What kind of line this is: missing-toolkit-library, missing-cudnn, cudnn-mismatch, … (EXPLAIN_IDS) */
  id: string;
  severity: FindingSeverity;
  /** The file the log could not load, when there is one. */
  library?: string;
  meaning: string;
  fix: string;
  /** The first log line that says so (trimmed), as evidence. */
  line: string;
}

export interface FixContext {
  catalog: Catalog;
  os: OsName;
  wsl: boolean;
  /** The OS came from --os or the log itself, not the Linux default. */
  osKnown?: boolean;
  /** The log shows WSL 1's kernel: no GPU there at all. */
  wsl1?: boolean;
  cudaVersions: string[];
  /** The TensorFlow version the log names. */
  tf?: string;
  /** The TensorFlow a fix is for: --tf, else the log's, else the one installed here (the doctor's reading). */
  fixTf?: string;
  /** Set by a rule whose fix needed a TensorFlow version and had none (the command may then look for the installed one). */
  wantedTf?: boolean;
}

/** The log's lines, trimmed, without the empty ones. */
export function logLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
}
