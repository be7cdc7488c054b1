// Each remedy as a record: its place in the order and the steps it takes (factories from src/plan/steps/),
// from what the plan knows — the findings it fixes, the doctor's facts, the context settled when the
// plan was chosen, and the route's own steps. The repair's steps are these records in order, then what
// is left to the user and the proof: a loop, with no remedy written into it.
import type { Finding } from '../../doctor/finding.js';
import type { RemedyId } from '../../doctor/finding-kinds.js';
import { toolkitLibraryDir } from '../../platform.js';
import { resolveLibrary } from '../../probe/resolution.js';
import type { MachineFacts } from '../../probe/types.js';
import { cudnnTargetDir, type PlanContext } from '../context.js';
import type { Step } from '../runner.js';
import { cudaServesStep } from '../steps/cuda-serves.js';
import { cudnnOnlySpaceStep, importCudnnBesideStep, importCudnnStep, obtainCudnnStep } from '../steps/cudnn.js';
import { cudnnForEveryoneStep, loadOrderStep, removeOwnConfStep } from '../steps/load-order.js';
import { newShellVerifyStep } from '../steps/new-shell-verify.js';
import { packageLeftStep, packageManagerStep, unlessReplaced } from '../steps/package-manager.js';
import { leftToUserStep } from '../steps/repair-stop.js';
import { settleInterruptedCopy } from '../steps/settle.js';
import { wheelLoaderPathRemedy } from '../steps/wheel-loader.js';
import type { CudnnPlace } from './place.js';
import type { RepairItem, RepairPlan } from './types.js';

/** A route's own steps a repair may take: its whole setup (where no toolkit TF can load exists), and the repair of its own files. */
export interface RouteRepairSteps {
  install: Step<PlanContext>[];
  /** The redist route's: every file against its sha256, the broken components fetched and unpacked again. */
  files?: Step<PlanContext>[];
}

/** What a remedy's steps are made from. */
export interface RemedyInput {
  plan: RepairPlan;
  /** The plan's findings no step fixes and no stop names (listed with their own fix). */
  unremedied: RepairItem[];
  facts: MachineFacts;
  ctx: PlanContext;
  route: RouteRepairSteps;
  /** Where cuDNN goes, decided when the plan was chosen. */
  cudnn: CudnnPlace;
  /** The findings a remedy fixes. */
  fixing(id: RemedyId): Finding[];
  has(id: RemedyId): boolean;
  /** A workaround whose every finding is offered to its package manager first runs only on a no. */
  orOnNo(step: Step<PlanContext>, fixes: Finding[]): Step<PlanContext>;
}

export interface Remedy {
  /** Its place: the package manager first (if it fails, nothing else has changed yet), the proof last. */
  order: number;
  steps(a: RemedyInput): Step<PlanContext>[];
}

/** cuDNN alone comes (no toolkit install, nor a redist repair that brings it): where it goes, and whether its folder must be put first. */
function importing(a: RemedyInput): { perUser: boolean; forEveryone: boolean; lib: string } {
  const lib = toolkitLibraryDir(a.ctx.os, cudnnTargetDir(a.ctx));
  if (!a.has('import-cudnn') || a.has('install-toolkit')) return { perUser: false, forEveryone: false, lib };
  const beside = a.cudnn.place !== 'toolkit';
  const file = a.ctx.req.libraries.find((l) => l.from === 'cudnn')?.file;
  const winner = file ? resolveLibrary(a.facts.search, file).winner : undefined;
  // cuDNN's own folder is on no loader path yet; a toolkit's is, unless another copy wins today.
  const first = beside ? winner?.dir !== lib : Boolean(winner && winner.dir !== lib);
  return { perUser: first && a.cudnn.place !== 'for-everyone', forEveryone: first && a.cudnn.place === 'for-everyone', lib };
}

export const REMEDIES: Record<RemedyId, Remedy> = {
  'settle-copy': { order: 10, steps: (a) => a.fixing('settle-copy').map((f) => settleInterruptedCopy(f.id.slice(f.id.indexOf(':') + 1))) },
  // The package managers' commands, one step per command, before anything else changes the machine.
  'package-manager': {
    order: 20,
    steps(a) {
      const byCommand = new Map<string, RepairItem[]>();
      for (const i of a.plan.items.filter((x) => x.replace && (x.remedy === 'package-manager' || x.ask))) byCommand.set(i.replace!.command, [...(byCommand.get(i.replace!.command) ?? []), i]);
      return [...byCommand.values()].map((items, n) => packageManagerStep(items[0].replace!, items, n ? `package-manager-${n + 1}` : 'package-manager'));
    },
  },
  // The route's own steps that change the machine (not its preflight or verify), only where no toolkit TF can load exists.
  'install-toolkit': { order: 30, steps: (a) => (a.has('install-toolkit') ? a.route.install.filter((s) => s.changesMachine !== false).map((s) => a.orOnNo(s, a.fixing('install-toolkit'))) : []) },
  'redist-files': { order: 35, steps: (a) => (a.has('redist-files') ? (a.route.files ?? []).map((s) => a.orOnNo(s, a.fixing('redist-files'))) : []) },
  'import-cudnn': {
    order: 40,
    steps(a) {
      if (!a.has('import-cudnn') || a.has('install-toolkit')) return [];
      const serves = cudaServesStep(a.facts, a.ctx);
      const beside = a.cudnn.place !== 'toolkit';
      const steps = [cudnnOnlySpaceStep, obtainCudnnStep, beside ? importCudnnBesideStep : importCudnnStep].map((s) => a.orOnNo(s, a.fixing('import-cudnn')));
      return [...(serves ? [serves] : []), ...steps];
    },
  },
  // One load-order step for every folder that must come first: the causes the doctor found, and the
  // toolkit a cuDNN goes into when the copy that wins today is elsewhere (a system folder's, apt's).
  'load-order': {
    order: 50,
    steps(a) {
      const ordered = a.fixing('load-order').flatMap((f) => (f.cause?.kind === 'load-order' ? [{ f, cause: f.cause }] : []));
      // An older cudawiz run's own ld.so.conf.d file behind the stale copy: removed, for every program.
      const own = ordered.filter((o) => o.cause.ownConfs?.length);
      const out: Step<PlanContext>[] = own.length ? [removeOwnConfStep([...new Set(own.flatMap((o) => o.cause.ownConfs!))], own.map((o) => o.f))] : [];
      const rest = ordered.filter((o) => !o.cause.ownConfs?.length);
      const { perUser, forEveryone, lib } = importing(a);
      // For every user: the loader's own conf file for cuDNN's folder, not a per-user order.
      if (forEveryone) out.push(a.orOnNo(cudnnForEveryoneStep(lib, a.fixing('import-cudnn')), a.fixing('import-cudnn')));
      const dirs = [...new Set([...(perUser ? [lib] : []), ...rest.flatMap((o) => o.cause.rightDirs)])];
      const fixes = [...rest.map((o) => o.f), ...(perUser ? a.fixing('import-cudnn') : [])];
      return dirs.length ? [...out, a.orOnNo(loadOrderStep(dirs, fixes), fixes)] : out;
    },
  },
  'wheel-loader-path': {
    order: 60,
    steps(a) {
      const step = a.has('wheel-loader-path') ? wheelLoaderPathRemedy(a.facts, a.fixing('wheel-loader-path')) : undefined;
      return step ? [step] : [];
    },
  },
};

/** After the remedies: what is left to the user, the package managers' commands not run, and the proof. */
const AFTER: Remedy[] = [
  {
    order: 70,
    steps(a) {
      // A redist repair with no route to make it (another route's plan): listed with its fix like a finding no step fixes.
      const noFiles = a.route.files ? [] : a.plan.items.filter((i) => i.remedy === 'redist-files');
      const listed = [...a.plan.leftToUser, ...a.unremedied.filter((i) => i.finding.status === 'fail'), ...noFiles];
      return listed.length ? [leftToUserStep(listed)] : [];
    },
  },
  {
    order: 80,
    steps(a) {
      // Without consent the package managers' commands are listed, each with the finding it would fix; none runs.
      if ((a.ctx.packageManager ?? 'no') !== 'no') return [];
      const notRun = new Map<string, RepairItem[]>();
      for (const i of a.plan.items.filter((x) => x.remedy && x.replace)) notRun.set(i.replace!.command, [...(notRun.get(i.replace!.command) ?? []), i]);
      return [...notRun.values()].map((items, n) => packageLeftStep(items[0].replace!, items, n ? `package-manager-left-${n + 1}` : 'package-manager-left'));
    },
  },
  { order: 90, steps: (a) => [newShellVerifyStep(new Set(a.plan.leftToUser.map((i) => i.finding.id)))] },
];

/** The remedies in their order (plan.ts orders a plan's remedy ids by it). */
export const REMEDY_ORDER: readonly RemedyId[] = (Object.keys(REMEDIES) as RemedyId[]).sort((x, y) => REMEDIES[x].order - REMEDIES[y].order);

/** Every part of a repair that takes no stop, in order: the loop the steps come from. */
export function assemble(a: RemedyInput): Step<PlanContext>[] {
  return [...Object.values(REMEDIES), ...AFTER].sort((x, y) => x.order - y.order).flatMap((r) => r.steps(a));
}
