// The remedies as plan steps: the table's remedy ids become steps whose titles say which finding
// each fixes (text, --json and the wizard show the title), a stop becomes the one step that ends the
// run before anything changes, and the proof is the doctor's own checks run as a new shell sees them.
import path from 'node:path';
import { cliText } from '../../i18n/cli.js';
import { remediesText as R } from '../../i18n/remedies.js';
import { doctorText as T } from '../../i18n/doctor.js';
import { diagnose } from '../../doctor/diagnose.js';
import type { Finding } from '../../doctor/finding.js';
import { applyEnvChanges, envLinesToRunYourself, loadOrderExportLine, prepareLoadOrder } from '../../env/index.js';
import { newShellHost } from '../../env/new-shell.js';
import { CudawizError } from '../../errors.js';
import { applyWheelLibraryFix } from '../../pip/index.js';
import { toolkitLibraryDir } from '../../platform.js';
import { probeMachine } from '../../probe/index.js';
import { resolveLibrary } from '../../probe/resolution.js';
import type { MachineFacts } from '../../probe/types.js';
import type { PlanContext } from '../context.js';
import { envPlanFor } from '../steps/env.js';
import { settleInterruptedCopy } from '../steps/settle.js';
import { NeedsInput, type Step } from '../runner.js';
import { cudnnInToolkit, importCudnnStep, obtainCudnnStep } from '../steps/cudnn.js';
import { spaceStep } from '../steps/space.js';

/** Space for the one download a cuDNN-only repair makes. */
const cudnnSpaceStep = spaceStep(async (ctx) => ({ cuda: false, cudnn: !(await cudnnInToolkit(ctx)) }));
import { planRepair, unremedied, type RepairItem, type RepairPlan } from './plan.js';

const titled = (base: string, fixes: Finding[]) => (fixes.length ? `${base} — ${R.fixes(cliText.semicolons(fixes.map((f) => f.title)))}` : base);

/** Ends the run before any step changes anything: the actions, and why cudawiz will not take them. */
export function stopStep(stops: RepairItem[]): Step<PlanContext> {
  return {
    id: 'stop',
    get title() {
      return R.stopStep(cliText.semicolons(stops.map((s) => s.finding.title)));
    },
    check: async () => ({ done: false, reason: stops[0].action }),
    async run() {
      throw new CudawizError(cliText.semicolons(stops.map((s) => s.finding.title)), {
        code: 'repair-stop',
        fix: [...stops.map((s) => `${s.action} (${R.stopReason(s.why ?? '')})`), R.stopsBefore].join('\n'),
        details: { stops: stops.map((s) => ({ finding: s.finding.id, action: s.action, why: s.why, cause: s.finding.cause })) },
      });
    },
  };
}

/**
 * What repair lists and leaves to the user — actions that do not stop the remedies, and findings no
 * step fixes — shown in the plan like any step (text, --json, the wizard), changing nothing.
 */
export function leftToUserStep(items: RepairItem[]): Step<PlanContext> {
  const lines = items.map((i) => (i.stop ? `${i.finding.title}: ${i.action} (${R.stopReason(i.why ?? '')})` : R.noRemedy(i.finding.title, i.finding.fix ?? '')));
  return {
    id: 'left-to-you',
    get title() {
      return R.leftToYouTitle(cliText.semicolons(items.map((i) => i.finding.title)));
    },
    check: async () => ({ done: false, reason: lines[0] }),
    run: async () => ({ summary: R.leftToYouSummary(items.length), evidence: lines }),
  };
}

/**
 * The right folders first for this user's new shells (Linux: a journalled env script and one rc line;
 * Windows: the saved PATH with the right toolkit's bin first, as the toolkit route sets it).
 */
export function loadOrderStep(dirs: string[], fixes: Finding[]): Step<PlanContext> {
  const plan = async (ctx: PlanContext) => {
    if (ctx.os === 'windows') {
      // The right folder is a toolkit's bin: that toolkit goes first on the saved PATH. Planned as the
      // env step plans it — knowing the machine's other toolkits (which ones shadow it) and whether
      // this process is elevated — since a shadowing folder on the Machine PATH is beaten only there:
      // new processes get the User PATH after the Machine one.
      return envPlanFor(ctx, { toolkitDir: path.win32.dirname(dirs[0] ?? toolkitLibraryDir(ctx.os, ctx.toolkitDir)), rerunCommand: ctx.command });
    }
    return prepareLoadOrder({ host: ctx.host, tf: ctx.tf, cuda: ctx.cuda, dirs, root: ctx.host.fsRoot });
  };
  return {
    id: 'load-order',
    title: titled(R.loadOrderStep(dirs.join(', ')), fixes),
    async check(ctx) {
      const { plan: p } = await plan(ctx);
      if (p.refusals.length) return { done: false, reason: p.refusals[0].reason };
      return p.changes.length === 0 && p.manual.length === 0 ? { done: true, reason: R.loadOrderNothing } : { done: false, reason: R.loadOrderWill(T.list(p.changes.map((c) => c.target))) };
    },
    async run(ctx, io) {
      const { plan: p, places } = await plan(ctx);
      if (p.refusals.length) throw new CudawizError(p.refusals.map((r) => r.reason).join('\n'), { code: 'env-refused', fix: p.refusals[0].fix });
      const now = ctx.os === 'windows' ? [] : [R.thisShell(loadOrderExportLine(dirs))];
      if (p.changes.length === 0) return { summary: R.loadOrderNothing, evidence: [...p.notes, ...p.manual, ...now] };
      if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: R.askConsent(T.list(p.changes.map((c) => c.target))), flag: '--configure-env yes' });
      if (ctx.configureEnv === 'no') {
        const lines = envLinesToRunYourself(p);
        for (const l of lines) io.log(l);
        return { summary: R.leftToYou, evidence: [...lines, ...now] };
      }
      const r = await applyEnvChanges(p.changes, { host: ctx.host, journalFile: places.journalFile });
      if (!r.ok) throw new CudawizError(r.failed?.message ?? '', { fix: r.failed?.fix ?? envLinesToRunYourself(p).join('\n') });
      return { summary: R.loadOrderDone(r.applied.length), evidence: [...r.applied.map((c) => c.target), ...p.notes, ...now] };
    },
    accept(ctx, answer) {
      ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
    },
  };
}

/** The venv's wheel folders on its loader path: the pip route's marked block in bin/activate, from the doctor's facts. */
export function wheelLoaderPathRemedy(facts: MachineFacts, fixes: Finding[]): Step<PlanContext> | undefined {
  const fix = facts.pip?.fix;
  if (!fix) return undefined;
  return {
    id: 'wheel-loader-path',
    title: titled(R.loadOrderStep(fix.missingDirs.join(', ') || fix.dirs.join(', ')), fixes),
    check: async () => (fix.alreadyApplied ? { done: true, reason: R.loadOrderNothing } : { done: false, reason: R.loadOrderWill(fix.activateScript ?? '') }),
    async run(ctx, io) {
      if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: R.askConsent(fix.activateScript ?? ''), flag: '--configure-env yes' });
      if (ctx.configureEnv === 'no') {
        for (const l of fix.lines) io.log(l);
        return { summary: R.leftToYou, evidence: fix.lines };
      }
      const r = applyWheelLibraryFix(fix, { consent: true });
      return { summary: R.loadOrderDone(r.applied ? 1 : 0), evidence: [fix.activateScript ?? '', r.recordFile ?? ''].filter(Boolean) };
    },
    accept(ctx, answer) {
      ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
    },
  };
}

/**
 * The proof: the doctor's probe and verdicts, run with the environment a new shell gets. Passes only
 * when no failure is left for this TF; its evidence is the file each library loads from there.
 */
export const newShellVerifyStep = (leftToUser: ReadonlySet<string> = new Set()): Step<PlanContext> => ({
  id: 'verify',
  get title() {
    return R.newShellVerify;
  },
  check: async () => ({ done: false }),
  async run(ctx) {
    // The one model of a new shell (src/env/new-shell.ts): the same one verify and the env step use.
    const shell = await newShellHost(ctx.host);
    const facts = shell.changed ? await probeMachine(shell.host, { cudaRoot: ctx.root, catalog: ctx.catalog }) : await ctx.probes.machine({ cudaRoot: ctx.root, catalog: ctx.catalog });
    const findings = diagnose(ctx.catalog, facts, { tf: ctx.tf, os: ctx.os });
    const evidence = ctx.req.libraries.map((l) => {
      const w = resolveLibrary(facts.search, l.file).winner;
      return w ? R.loadsIn(l.file, w.dir) : R.loadsNowhere(l.file);
    });
    // What the plan left to the user (listed above) is theirs to fix; everything else must pass.
    const failed = findings.filter((f) => f.status === 'fail' && !leftToUser.has(f.id));
    if (failed.length) throw new CudawizError(cliText.semicolons(failed.map((f) => f.title)), { code: 'verify-failed', fix: failed[0].fix ?? undefined, details: { evidence } });
    return { summary: R.newShellPasses(ctx.tf), evidence };
  },
});

/**
 * The repair's steps from the doctor's findings and facts: a stop ends the run before anything
 * changes; otherwise each remedy once, in order, then the proof. Healthy parts take no step at all.
 * `routeSteps` are the route's own setup steps: taken (without their verify) only when no toolkit TF
 * can load is on the machine at all.
 */
export function remedySteps(findings: readonly Finding[], facts: MachineFacts, ctx: PlanContext, routeSteps: Step<PlanContext>[] = []): { plan: RepairPlan; steps: Step<PlanContext>[] } {
  const plan = planRepair(findings, facts.os);
  if (plan.stops.length) return { plan, steps: [stopStep(plan.stops)] };
  const fixing = (id: string) => plan.items.filter((i) => i.remedy === id).map((i) => i.finding);
  const steps: Step<PlanContext>[] = [];
  const has = (r: RepairPlan['remedies'][number]) => plan.remedies.includes(r);
  if (has('settle-copy')) steps.push(...fixing('settle-copy').map((f) => settleInterruptedCopy(f.id.slice(f.id.indexOf(':') + 1))));
  if (has('install-toolkit')) steps.push(...routeSteps.filter((s) => s.id !== 'verify' && s.id !== 'preflight'));
  else if (has('import-cudnn')) steps.push(cudnnSpaceStep, obtainCudnnStep, importCudnnStep);
  // One load-order step for every folder that must come first: the causes the doctor found, and the
  // toolkit a cuDNN goes into when the copy that wins today is elsewhere (a system folder's, apt's).
  const causes = fixing('load-order').flatMap((f) => (f.cause?.kind === 'load-order' ? [f.cause] : []));
  const toolkitLib = toolkitLibraryDir(ctx.os, ctx.toolkitDir);
  const cudnnFile = ctx.req.libraries.find((l) => l.from === 'cudnn')?.file;
  const cudnnWinner = cudnnFile ? resolveLibrary(facts.search, cudnnFile).winner : undefined;
  const importing = has('import-cudnn') && !has('install-toolkit') && Boolean(cudnnWinner && cudnnWinner.dir !== toolkitLib);
  const dirs = [...new Set([...(importing ? [toolkitLib] : []), ...causes.flatMap((c) => c.rightDirs)])];
  if (dirs.length) steps.push(loadOrderStep(dirs, [...fixing('load-order'), ...(importing ? fixing('import-cudnn') : [])]));
  if (has('wheel-loader-path')) {
    const step = wheelLoaderPathRemedy(facts, fixing('wheel-loader-path'));
    if (step) steps.push(step);
  }
  const listed = [...plan.leftToUser, ...unremedied(plan).filter((i) => i.finding.status === 'fail')];
  if (listed.length) steps.push(leftToUserStep(listed));
  steps.push(newShellVerifyStep(new Set(plan.leftToUser.map((i) => i.finding.id))));
  return { plan, steps };
}
