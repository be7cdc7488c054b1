// A finding: one fact about the machine, its verdict, what shows it, and what to do.
import type { Status } from '../status.js';
import type { Cause } from './cause.js';
import type { FindingId } from './finding-kinds.js';

export type { FindingId, FindingKind } from './finding-kinds.js';

export type FindingStatus = Exclude<Status, 'info'>;

export interface Finding {
  /** Stable id for scripts: gpu, driver, toolkit, library:cudart, cudnn, python, … — a kind of the registry (finding-kinds.ts), or kind:detail. */
  id: FindingId;
  status: FindingStatus;
  title: string;
  /** The facts behind the verdict, one per line, as a user would check them. */
  evidence: string[];
  /** One instruction that fixes it; null when there is nothing to do. */
  fix: string | null;
  /** What the failure comes down to, as data the repair plan acts on (load order, a pin, a driver). */
  cause?: Cause;
}

export function finding(id: FindingId, status: FindingStatus, title: string, evidence: string[] = [], fix: string | null = null): Finding {
  return { id, status, title, evidence: evidence.filter((e) => e.length > 0), fix };
}

export const hasFailure = (findings: Finding[]): boolean => findings.some((f) => f.status === 'fail');

export const DRIVER_DOWNLOAD_PAGE = 'https://www.nvidia.com/Download/index.aspx';
