// One table from finding kind to what repair does about it: a remedy (the smallest step that fixes
// that cause) or a stop (what the user must do, and why cudawiz will not). Derived from the finding-kind
// registry (src/doctor/finding-kinds.ts), where each kind says it once. Read by `repair`, by `install`
// on a machine that already has parts and by the wizard's "Repair it" alike. A kind that is only listed
// has no row: the plan lists it with its own fix, never drops it.
import { FINDING_KINDS, kindOf, STOPS, type FindingKind, type KindEntry, type RemedyId, type StopId } from '../../doctor/finding-kinds.js';

export type { RemedyId, StopId } from '../../doctor/finding-kinds.js';

export type RemedyRow = { finding: string; remedy: RemedyId; stop?: never } | { finding: string; stop: StopId; remedy?: never };

/** Finding ids are `kind` or `kind:detail`; a row names the kind (library:<name> rows name the library). */
export const REMEDY_TABLE: readonly RemedyRow[] = (Object.entries(FINDING_KINDS) as [FindingKind, KindEntry][]).flatMap(([finding, e]): RemedyRow[] =>
  'remedy' in e.does ? [{ finding, remedy: e.does.remedy }] : 'stop' in e.does ? [{ finding, stop: e.does.stop }] : [],
);

/** The row for a finding id: the most specific kind that has one (library:cudnn before library). */
export function rowFor(id: string): RemedyRow | undefined {
  const kind = kindOf(id);
  return kind ? REMEDY_TABLE.find((r) => r.finding === kind) : undefined;
}

/**
 * Stops that end the run before anything changes (fixing anything else first would be wasted or
 * wrong). The others name the user's action and let the remedies run: a Python outside TF's range does
 * not make a CUDA repair pointless.
 */
export const BLOCKING_STOPS: ReadonlySet<StopId> = new Set((Object.keys(STOPS) as StopId[]).filter((s) => STOPS[s].blocksRepair));
