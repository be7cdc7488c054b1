// The repair's steps from the doctor's findings and facts: a stop ends the run before anything changes;
// otherwise the remedy records in their order (records.ts), then what is left to the user and the proof.
// Healthy parts take no step at all. The context comes settled (where cuDNN goes: `settleRepairContext`,
// when the plan is chosen); nothing here changes it.
import type { Finding } from '../../doctor/finding.js';
import type { RemedyId } from '../../doctor/finding-kinds.js';
import type { MachineFacts } from '../../probe/types.js';
import type { PlanContext } from '../context.js';
import type { Step } from '../runner.js';
import { unlessReplaced } from '../steps/package-manager.js';
import { stopStep } from '../steps/repair-stop.js';
import { placeCudnn } from './place.js';
import { planRepair, unremedied, type RepairPlan } from './plan.js';
import { assemble, type RouteRepairSteps } from './records.js';

const asRoute = (route: RouteRepairSteps | Step<PlanContext>[]): RouteRepairSteps => (Array.isArray(route) ? { install: route } : route);

/**
 * `route` is the route's own steps: its setup (taken, without what only looks, where no toolkit TF can
 * load is on the machine at all) and, for the redist route, the repair of its files.
 */
export function remedySteps(findings: readonly Finding[], facts: MachineFacts, ctx: PlanContext, route: RouteRepairSteps | Step<PlanContext>[] = []): { plan: RepairPlan; steps: Step<PlanContext>[] } {
  const plan = planRepair(findings, facts.os, ctx.packageManager ?? 'no');
  // A stop is the whole plan: what would follow depends on the action (a newer driver lets conda's
  // runtime serve; a venv of its own needs no cuDNN here), so nothing after it is planned from today's findings.
  if (plan.stops.length) return { plan, steps: [stopStep(plan.stops)] };
  const fixing = (id: RemedyId) => plan.items.filter((i) => i.remedy === id).map((i) => i.finding);
  const has = (id: RemedyId) => plan.remedies.includes(id);
  const asked = new Set(plan.items.filter((i) => i.ask).map((i) => i.finding.id));
  const orOnNo = (step: Step<PlanContext>, fixes: Finding[]) => (fixes.length && fixes.every((f) => asked.has(f.id)) ? unlessReplaced(step, fixes.map((f) => f.id)) : step);
  // Beside a distro's CUDA (apt's, in /usr: its packages' files), cuDNN gets a folder of its own.
  const cudnn = has('import-cudnn') && !has('install-toolkit') ? placeCudnn(facts, ctx) : { place: 'toolkit' as const };
  const steps = assemble({ plan, unremedied: unremedied(plan), facts, ctx, route: asRoute(route), cudnn, fixing, has, orOnNo });
  return { plan, steps };
}

/**
 * The context a repair plan runs with, settled when it is chosen: where a cuDNN-only remedy puts cuDNN
 * (`cudnnDir`), so the lock, the checks and the writes name one folder. A new context; `ctx` is untouched.
 */
export function settleRepairContext<C extends PlanContext>(findings: readonly Finding[], facts: MachineFacts, ctx: C): C {
  const plan = planRepair(findings, facts.os, ctx.packageManager ?? 'no');
  if (plan.stops.length || !plan.remedies.includes('import-cudnn') || plan.remedies.includes('install-toolkit')) return ctx;
  const { dir } = placeCudnn(facts, ctx);
  return dir ? { ...ctx, cudnnDir: dir } : ctx;
}
