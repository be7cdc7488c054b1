// The repair plan from the doctor's findings, as data: for every finding that is not a pass, its
// remedy, its stop (the action, and why cudawiz will not), or neither (listed with its own fix).
// Pure: the findings already hold what the doctor saw; nothing is probed again here.
import type { Finding } from '../../doctor/finding.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { OsName } from '../../platform.js';
import { BLOCKING_STOPS, rowFor, type RemedyId, type StopId } from './table.js';

export interface RepairItem {
  finding: Finding;
  remedy?: RemedyId;
  stop?: StopId;
  /** A stop's action: what the user does (the finding's own fix, which names versions and commands). */
  action?: string;
  /** A stop's reason: why cudawiz will not do it. */
  why?: string;
}

export interface RepairPlan {
  items: RepairItem[];
  /** The items that end the run before anything changes. */
  stops: RepairItem[];
  /** Actions left to the user that do not stop the remedies (a Python outside TF's range). */
  leftToUser: RepairItem[];
  /** The remedies to take, each once, in the table's order of dependence. */
  remedies: RemedyId[];
}

const ORDER: RemedyId[] = ['settle-copy', 'install-toolkit', 'import-cudnn', 'load-order', 'wheel-loader-path'];

function stopWhy(stop: StopId): string {
  if (stop === 'driver') return R.stopDriverWhy;
  if (stop === 'pip-pin') return R.stopPinWhy;
  if (stop === 'package-manager') return R.stopCondaWhy;
  return R.stopOtherWhy;
}

/** Which finding each step fixes, and where repair must stop: the table applied to the findings. */
export function planRepair(findings: readonly Finding[], os: OsName = 'linux'): RepairPlan {
  const items: RepairItem[] = [];
  for (const finding of findings) {
    if (finding.status === 'pass' || finding.status === 'skip') continue;
    const row = rowFor(finding.id);
    // A warning is listed with its fix; only a failure takes a step or stops the run.
    if (!row || finding.status !== 'fail') {
      items.push({ finding });
      continue;
    }
    // conda's Python searches the env's Library\\bin before PATH: no PATH order beats its copy, only conda replaces it.
    const c = finding.cause;
    if (os === 'windows' && c?.kind === 'load-order' && c.staleDirs.some((d) => d.via === 'conda env')) {
      items.push({ finding, stop: 'package-manager', action: finding.fix ?? finding.title, why: stopWhy('package-manager') });
      continue;
    }
    // The right cuDNN is already on the machine: nothing is downloaded for it; listed with its fix.
    if (c?.kind === 'cudnn-elsewhere') {
      items.push({ finding });
      continue;
    }
    if (row.stop) items.push({ finding, stop: row.stop, action: finding.fix ?? finding.title, why: stopWhy(row.stop) });
    else items.push({ finding, remedy: row.remedy });
  }
  // The right cuDNN is on the machine: the cuDNN library's own line is the same fact, and downloads nothing either.
  if (items.some((i) => i.finding.cause?.kind === 'cudnn-elsewhere')) for (const i of items) if (i.remedy === 'import-cudnn') delete i.remedy;
  const stops = items.filter((i) => i.stop && BLOCKING_STOPS.has(i.stop));
  const leftToUser = items.filter((i) => i.stop && !BLOCKING_STOPS.has(i.stop));
  const wanted = new Set(items.flatMap((i) => (i.remedy ? [i.remedy] : [])));
  // A toolkit install brings its own libraries: the per-library "not found" items are covered by it.
  return { items, stops, leftToUser, remedies: ORDER.filter((r) => wanted.has(r)) };
}

/** The plan's lines for a finding without a step: what the user can do about it. */
export function unremedied(plan: RepairPlan): RepairItem[] {
  return plan.items.filter((i) => !i.remedy && !i.stop);
}
