// The repair plan from the doctor's findings, as data: for every finding that is not a pass, its
// remedy, its stop (the action, and why cudawiz will not), or neither (listed with its own fix).
// Pure: the findings already hold what the doctor saw; nothing is probed again here.
import { replacementOf } from '../../doctor/cause.js';
import type { Finding } from '../../doctor/finding.js';
import { STOPS, type RemedyId, type StopId } from '../../doctor/finding-kinds.js';
import type { EnvConsent } from '../../env/index.js';
import { remediesText as R } from '../../i18n/remedies.js';
import type { OsName } from '../../platform.js';
import { REMEDY_ORDER } from './records.js';
import { BLOCKING_STOPS, rowFor } from './table.js';
import type { RepairItem, RepairPlan } from './types.js';

export type { RepairItem, RepairPlan } from './types.js';

/** Why cudawiz will not take a stop's action: the registry's words for it. */
const stopWhy = (stop: StopId): string => R[STOPS[stop].why];

/** Where the workaround (or the stop) for a finding can give way to the package manager's command. */
const REPLACEABLE: ReadonlySet<RemedyId | StopId> = new Set<RemedyId | StopId>(['load-order', 'import-cudnn', 'install-toolkit', 'package-manager']);

/**
 * The package manager's command in the plan, by consent: yes — it replaces the finding's workaround
 * (one or the other, never both); ask — it is offered first, the workaround kept for a no; no — the
 * workaround, and the command listed for the user.
 */
function withPackageManager(item: RepairItem, consent: EnvConsent): RepairItem {
  const replace = replacementOf(item.finding.cause);
  const what = item.remedy ?? item.stop;
  if (!replace || !what || !REPLACEABLE.has(what)) return item;
  if (consent === 'yes') return { finding: item.finding, remedy: 'package-manager', replace };
  if (consent === 'ask') return { ...item, replace, ask: true, ...(item.stop ? { stop: undefined } : {}) };
  return { ...item, replace };
}

/** Which finding each step fixes, and where repair must stop: the table applied to the findings. */
export function planRepair(findings: readonly Finding[], os: OsName = 'linux', packageManager: EnvConsent = 'no'): RepairPlan {
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
      items.push(withPackageManager({ finding, stop: 'package-manager', action: finding.fix ?? finding.title, why: stopWhy('package-manager') }, packageManager));
      continue;
    }
    // The right cuDNN is already on the machine: nothing is downloaded for it; listed with its fix.
    if (c?.kind === 'cudnn-elsewhere') {
      items.push({ finding });
      continue;
    }
    if (row.stop) items.push({ finding, stop: row.stop, action: finding.fix ?? finding.title, why: stopWhy(row.stop) });
    else items.push(withPackageManager({ finding, remedy: row.remedy }, packageManager));
  }
  // The right cuDNN is on the machine: the cuDNN library's own line is the same fact, and downloads nothing either.
  if (items.some((i) => i.finding.cause?.kind === 'cudnn-elsewhere')) for (const i of items) if (i.remedy === 'import-cudnn') delete i.remedy;
  // A toolkit the redist route made, with files missing or changed: repairing those files brings its libraries back, never a second toolkit.
  if (items.some((i) => i.remedy === 'redist-files')) for (const i of items) if (i.remedy === 'install-toolkit') i.remedy = 'redist-files';
  const stops = items.filter((i) => i.stop && BLOCKING_STOPS.has(i.stop));
  const leftToUser = items.filter((i) => i.stop && !BLOCKING_STOPS.has(i.stop));
  const wanted = new Set(items.flatMap((i): RemedyId[] => [...(i.remedy ? [i.remedy] : []), ...(i.ask ? ['package-manager' as const] : [])]));
  // A toolkit install brings its own libraries: the per-library "not found" items are covered by it.
  return { items, stops, leftToUser, remedies: REMEDY_ORDER.filter((r) => wanted.has(r)) };
}

/** The plan's lines for a finding without a step: what the user can do about it. */
export function unremedied(plan: RepairPlan): RepairItem[] {
  return plan.items.filter((i) => !i.remedy && !i.stop && !i.ask);
}
