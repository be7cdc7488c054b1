// A repair plan as data: for every finding that is not a pass, its remedy, its stop, or neither.
import type { PackageReplacement } from '../../doctor/cause.js';
import type { Finding } from '../../doctor/finding.js';
import type { RemedyId, StopId } from '../../doctor/finding-kinds.js';

export interface RepairItem {
  finding: Finding;
  remedy?: RemedyId;
  stop?: StopId;
  /** A stop's action: what the user does (the finding's own fix, which names versions and commands). */
  action?: string;
  /** A stop's reason: why cudawiz will not do it. */
  why?: string;
  /** The package manager's command that replaces the stale copy, where its owner has one. */
  replace?: PackageReplacement;
  /**
   * Asked in the run (the wizard, a terminal): the manager's command is offered first; the remedy
   * (or the stop, kept in `action`/`why`) is what happens on a no.
   */
  ask?: boolean;
}

export interface RepairPlan {
  items: RepairItem[];
  /** The items that end the run before anything changes. */
  stops: RepairItem[];
  /** Actions left to the user that do not stop the remedies (a Python outside TF's range). */
  leftToUser: RepairItem[];
  /** The remedies to take, each once, in the records' order. */
  remedies: RemedyId[];
}
