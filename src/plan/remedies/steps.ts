// The remedies as plan steps: the table's remedy ids become steps whose titles say which finding
// each fixes (text, --json and the wizard show the title), a stop becomes the one step that ends the
// run before anything changes, and the proof is the doctor's own checks run as a new shell sees them.
import path from 'node:path';
import { cliText } from '../../i18n/cli.js';
import { remediesText as R } from '../../i18n/remedies.js';
import { doctorText as T } from '../../i18n/doctor.js';
import { diagnose } from '../../doctor/diagnose.js';
import type { Finding } from '../../doctor/finding.js';
import { applyEnvChanges, envLinesToRunYourself, envPlaces, loadOrderExportLine, prepareLoadOrder } from '../../env/index.js';
import { confDirs, fileHead, sudoWriteConfLine } from '../../env/linux-plan.js';
import { untrustedLoaderFolder } from '../../trust/loader-folder.js';
import { newShellHost } from '../../env/new-shell.js';
import { readFile } from 'node:fs/promises';
import type { EnvChange } from '../../env/types.js';
import { CudawizError, EXIT } from '../../errors.js';
import { applyVenvFixJournalled } from '../venv-fix.js';
import { cudnnHomeDir, cudnnLdSoConfFileName, LINUX_LD_SO_CONF_DIR, runsAsRoot, toolkitLibraryDir, userCudnnRoot } from '../../platform.js';
import { toolkitInUse } from '../../doctor/toolkit-lookup.js';
import { major, majorMinor } from '../../version.js';
import { probeMachine } from '../../probe/index.js';
import { resolveLibrary } from '../../probe/resolution.js';
import type { MachineFacts } from '../../probe/types.js';
import { cudnnTargetDir, type PlanContext } from '../context.js';
import { envPlanFor } from '../steps/env.js';
import { settleInterruptedCopy } from '../steps/settle.js';
import { NeedsInput, type Step } from '../runner.js';
import { cudnnInToolkit, importCudnnBesideStep, importCudnnStep, obtainCudnnStep } from '../steps/cudnn.js';
import { spaceStep } from '../steps/space.js';
import { servingRuntimeFor } from '../../doctor/runtime-serving.js';
import { routeFiles } from '../../routes/index.js';
import { routeTotal } from '../../bundle/describe.js';
import { loadRedistCatalog } from '../../redist/catalog.js';
import { packageLeftStep, packageManagerStep, stopError, unlessReplaced } from './package-manager.js';

/** Space for the one download a cuDNN-only repair makes. */
const cudnnSpaceStep = spaceStep(async (ctx) => ({ cuda: false, cudnn: !(await cudnnInToolkit(ctx)) }));
import { planRepair, unremedied, type RepairItem, type RepairPlan } from './plan.js';

const titled = (base: string, fixes: Finding[]) => (fixes.length ? `${base} — ${R.fixes(cliText.semicolons(fixes.map((f) => f.title)))}` : base);

/** Ends the run before any step changes anything: the actions, and why cudawiz will not take them. */
export function stopStep(stops: RepairItem[]): Step<PlanContext> {
  // One error for the plan's preview (a plan that will stop, plan/will-stop.ts) and the run.
  const stopped = () => stopError(stops);
  return {
    id: 'stop',
    get title() {
      return R.stopStep(cliText.semicolons(stops.map((s) => s.finding.title)));
    },
    check: async () => ({ done: false, reason: stops[0].action, stop: stopped() }),
    async run() {
      throw stopped();
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
    // Only an action the user must take keeps TensorFlow from working; a finding listed with its fix alone does not end the run waiting.
    run: async () => ({ summary: R.leftToYouSummary(items.length), evidence: lines, ...(items.some((i) => i.stop) ? { leftToUser: true } : {}) }),
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

/** One cudawiz loader file to write (`content`) or take away (`content: null`), by its name in ld.so.conf.d. */
interface ConfWrite {
  name: string;
  content: string | null;
}

/**
 * Loader files of cudawiz's own in /etc/ld.so.conf.d, then ldconfig, for every program: through the env
 * journal (`rollback` undoes them), asked like the other env changes (--configure-env), and as the two
 * sudo lines for a user who is not root (exit 3). The own-conf removal and cuDNN's folder for everyone.
 */
function loaderConfStep(spec: { id: string; title: string; writes: (ctx: PlanContext) => ConfWrite[]; will: string; ask: string; sudoLines: string[]; why: string }): Step<PlanContext> {
  const changes = async (ctx: PlanContext) => {
    const places = envPlaces({ host: ctx.host, root: ctx.host.fsRoot });
    const list: EnvChange[] = [];
    for (const w of spec.writes(ctx)) {
      const target = path.posix.join(places.ldSoConfDir, w.name);
      const before = await readFile(target, 'utf8').catch(() => null);
      if (before !== w.content) list.push({ kind: 'ld-so-conf', target, before, after: w.content, why: spec.why });
    }
    if (list.length) list.push({ kind: 'ldconfig', target: 'ld.so.cache', before: null, after: null, command: { file: 'ldconfig', args: [] }, why: spec.why, libraries: ctx.req.libraries.map((l) => l.file) });
    // A loader file for every program names only folders no one but root can change (#37).
    const untrusted = await untrustedLoaderFolder(list.flatMap((c) => (c.kind === 'ld-so-conf' && c.after !== null ? confDirs(c.after) : [])));
    const stop = untrusted && new CudawizError(untrusted.reason, { code: 'loader-folder-untrusted', fix: untrusted.fix });
    return { list, places, stop };
  };
  return {
    id: spec.id,
    title: spec.title,
    async check(ctx) {
      const { list, stop } = await changes(ctx);
      if (stop) return { done: false, reason: stop.message, stop };
      return list.length ? { done: false, reason: spec.will } : { done: true, reason: R.loadOrderNothing };
    },
    async run(ctx, io) {
      const { list, places, stop } = await changes(ctx);
      if (stop) throw stop;
      if (!list.length) return { summary: R.loadOrderNothing };
      if (ctx.configureEnv === 'ask') throw new NeedsInput({ kind: 'confirm', question: spec.ask, flag: '--configure-env yes' });
      if (ctx.configureEnv === 'no') {
        for (const l of spec.sudoLines) io.log(l);
        return { summary: R.leftToYou, evidence: spec.sudoLines };
      }
      const r = await applyEnvChanges(list, { host: ctx.host, journalFile: places.journalFile });
      if (!r.ok) throw new CudawizError(r.failed?.message ?? '', { code: 'needs-elevation', exitCode: EXIT.needsUser, fix: spec.sudoLines.join('\n') });
      return { summary: R.loadOrderDone(r.applied.length), evidence: [...list.filter((c) => c.kind === 'ld-so-conf').map((c) => c.target), ...r.ldconfigLines] };
    },
    accept(ctx, answer) {
      ctx.configureEnv = /^(y|yes|true|1)$/i.test(answer.trim()) ? 'yes' : 'no';
    },
  };
}

/** Takes away cudawiz's own ld.so.conf.d files an older run left, which hand every program an older copy. */
export function removeOwnConfStep(files: string[], fixes: Finding[]): Step<PlanContext> {
  const listed = files.join(', ');
  return loaderConfStep({
    id: 'remove-own-conf',
    title: titled(R.removeOwnConfStep(listed), fixes),
    writes: () => files.map((f) => ({ name: path.posix.basename(f), content: null })),
    will: R.removeOwnConfWill(listed),
    ask: R.removeOwnConfAsk(listed),
    sudoLines: [`sudo rm ${files.join(' ')}`, 'sudo ldconfig'],
    why: R.removeOwnConfStep(listed),
  });
}

/** cuDNN's own folder beside a distro's CUDA, for every program: its conf file (cuDNN only: it shadows none of the system's CUDA libraries). */
export function cudnnForEveryoneStep(libDir: string, fixes: Finding[]): Step<PlanContext> {
  const name = cudnnLdSoConfFileName(path.posix.dirname(libDir));
  const conf = path.posix.join(LINUX_LD_SO_CONF_DIR, name);
  return loaderConfStep({
    id: 'cudnn-for-everyone',
    title: titled(R.cudnnForEveryoneStep(libDir), fixes),
    writes: (ctx) => [{ name, content: `${fileHead({ tf: ctx.tf, cudnn: ctx.req.cudnn ?? undefined })}${libDir}\n` }],
    will: R.loadOrderWill(`${conf}, ldconfig`),
    ask: R.askConsent(conf),
    sudoLines: [sudoWriteConfLine(conf, [libDir]), 'sudo ldconfig'],
    why: R.cudnnForEveryoneStep(libDir),
  });
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
      const r = await applyVenvFixJournalled(ctx.host, fix, R.loadOrderStep(fix.missingDirs.join(', ') || fix.dirs.join(', ')));
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
 * Says why the CUDA TF loads already serves it (runtime-serving's rule, the doctor's own), so only cuDNN
 * comes, and names the full toolkit as the alternative with its size. Changes nothing: done from the start.
 */
export function cudaServesStep(facts: MachineFacts, ctx: PlanContext): Step<PlanContext> | undefined {
  const s = servingRuntimeFor(ctx.catalog, facts, ctx.tf, ctx.os);
  if (!s || !ctx.req.cudnn) return undefined;
  const { runtime, served } = s;
  const how = served.how === 'exact' ? R.servesExactly : R.servesByMinorCompat(String(major(served.cuda)), served.cuda, served.driverMin);
  const title = R.keepCuda(runtime.version ?? runtime.majorMinor ?? '', runtime.toolkit ?? runtime.dir, ctx.tf, how, ctx.req.cudnn);
  return {
    id: 'cuda-serves',
    title,
    check: async () => ({ done: false, reason: fullToolkitAlternative(ctx) }),
    run: async () => ({ summary: R.cudaKept }),
  };
}

/** The full toolkit instead of the smallest change: the redist route's command and download, else the installer's size. */
function fullToolkitAlternative(ctx: PlanContext): string | undefined {
  try {
    const redist = routeFiles(ctx.catalog, loadRedistCatalog(), ctx.tf, ctx.os, 'redist');
    if (redist.available) return R.fullToolkitInstead(`cudawiz install --tf ${ctx.tf} --route redist`, routeTotal(redist));
    const toolkit = routeFiles(ctx.catalog, loadRedistCatalog(), ctx.tf, ctx.os, 'toolkit');
    return toolkit.available ? R.fullToolkitSize(ctx.cuda, routeTotal(toolkit)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a cuDNN-only remedy puts cuDNN, from the toolkit TF loads its CUDA libraries from (the doctor's
 * `toolkitInUse`), set on `ctx.cudnnDir`: beside a distro's CUDA (apt's, in /usr: its packages' files,
 * never written) a folder of its own, per user — under --cuda-root when given, else beside the per-user
 * toolkits — returned as 'own-folder'; into another NVIDIA toolkit that serves TF (11.8 for TF 2.11, by
 * minor-version compatibility), that toolkit; else TF's own toolkit folder.
 */
export function placeCudnn(facts: MachineFacts, ctx: PlanContext): 'own-folder' | 'for-everyone' | 'toolkit' {
  const used = toolkitInUse(facts, ctx.req);
  if (!used || !ctx.req.cudnn) return 'toolkit';
  if (used.layout === 'distro packages') {
    // Run as root (sudo) with no --cuda-root: for every user, as the distro's CUDA is — the folder under
    // the system's CUDA root, given to the loader by a conf file of its own (it holds cuDNN only, so it
    // shadows none of the system's CUDA libraries). Otherwise per user, no administrator.
    const everyone = !ctx.cudaRoot && ctx.os === 'linux' && !ctx.host.fsRoot && runsAsRoot();
    const root = ctx.cudaRoot ?? (everyone ? ctx.root : userCudnnRoot(ctx.os, ctx.host.env, ctx.host.home));
    ctx.cudnnDir = cudnnHomeDir(ctx.os, root, majorMinor(ctx.req.cudnn), String(major(ctx.cuda)));
    return everyone ? 'for-everyone' : 'own-folder';
  }
  if (used.readable && !used.redist && used.path !== ctx.toolkitDir) ctx.cudnnDir = used.path;
  return 'toolkit';
}

/**
 * The repair's steps from the doctor's findings and facts: a stop ends the run before anything
 * changes; otherwise each remedy once, in order, then the proof. Healthy parts take no step at all.
 * `routeSteps` are the route's own setup steps: taken (without their verify) only when no toolkit TF
 * can load is on the machine at all.
 */
export function remedySteps(findings: readonly Finding[], facts: MachineFacts, ctx: PlanContext, routeSteps: Step<PlanContext>[] = []): { plan: RepairPlan; steps: Step<PlanContext>[] } {
  const plan = planRepair(findings, facts.os, ctx.packageManager ?? 'no');
  // A stop is the whole plan: what would follow depends on the action (a newer driver lets conda's
  // runtime serve; a venv of its own needs no cuDNN here), so nothing after it is planned from today's findings.
  if (plan.stops.length) return { plan, steps: [stopStep(plan.stops)] };
  const steps: Step<PlanContext>[] = [];
  const fixing = (id: string) => plan.items.filter((i) => i.remedy === id).map((i) => i.finding);
  const has = (r: RepairPlan['remedies'][number]) => plan.remedies.includes(r);
  if (has('settle-copy')) steps.push(...fixing('settle-copy').map((f) => settleInterruptedCopy(f.id.slice(f.id.indexOf(':') + 1))));
  // The package managers' commands, one step per command, before anything else changes the machine.
  const byCommand = new Map<string, RepairItem[]>();
  for (const i of plan.items.filter((x) => x.replace && (x.remedy === 'package-manager' || x.ask))) byCommand.set(i.replace!.command, [...(byCommand.get(i.replace!.command) ?? []), i]);
  [...byCommand.values()].forEach((items, n) => steps.push(packageManagerStep(items[0].replace!, items, n ? `package-manager-${n + 1}` : 'package-manager')));
  // A workaround whose every finding is offered to its package manager first runs only on a no.
  const asked = new Set(plan.items.filter((i) => i.ask).map((i) => i.finding.id));
  const orOnNo = (step: Step<PlanContext>, fixes: Finding[]) => (fixes.length && fixes.every((f) => asked.has(f.id)) ? unlessReplaced(step, fixes.map((f) => f.id)) : step);
  // Beside a distro's CUDA (apt's, in /usr: its packages' files), cuDNN gets a folder of its own.
  const place = has('import-cudnn') && !has('install-toolkit') ? placeCudnn(facts, ctx) : 'toolkit';
  const beside = place !== 'toolkit';
  if (has('install-toolkit')) steps.push(...routeSteps.filter((s) => s.id !== 'verify' && s.id !== 'preflight').map((s) => orOnNo(s, fixing('install-toolkit'))));
  else if (has('import-cudnn')) {
    const serves = cudaServesStep(facts, ctx);
    if (serves) steps.push(serves);
  }
  if (!has('install-toolkit') && has('import-cudnn')) steps.push(...[cudnnSpaceStep, obtainCudnnStep, beside ? importCudnnBesideStep : importCudnnStep].map((s) => orOnNo(s, fixing('import-cudnn'))));
  // One load-order step for every folder that must come first: the causes the doctor found, and the
  // toolkit a cuDNN goes into when the copy that wins today is elsewhere (a system folder's, apt's).
  const ordered = fixing('load-order').flatMap((f) => (f.cause?.kind === 'load-order' ? [{ f, cause: f.cause }] : []));
  // An older cudawiz run's own ld.so.conf.d file behind the stale copy: removed, for every program.
  const own = ordered.filter((o) => o.cause.ownConfs?.length);
  if (own.length) steps.push(removeOwnConfStep([...new Set(own.flatMap((o) => o.cause.ownConfs!))], own.map((o) => o.f)));
  const causes = ordered.filter((o) => !o.cause.ownConfs?.length).map((o) => o.cause);
  const toolkitLib = toolkitLibraryDir(ctx.os, cudnnTargetDir(ctx));
  const cudnnFile = ctx.req.libraries.find((l) => l.from === 'cudnn')?.file;
  const cudnnWinner = cudnnFile ? resolveLibrary(facts.search, cudnnFile).winner : undefined;
  // cuDNN's own folder is on no loader path yet; a toolkit's is, unless another copy wins today.
  const importing = has('import-cudnn') && !has('install-toolkit') && (beside ? cudnnWinner?.dir !== toolkitLib : Boolean(cudnnWinner && cudnnWinner.dir !== toolkitLib));
  // For every user: the loader's own conf file for cuDNN's folder, not a per-user order.
  if (importing && place === 'for-everyone') steps.push(orOnNo(cudnnForEveryoneStep(toolkitLib, fixing('import-cudnn')), fixing('import-cudnn')));
  const perUser = importing && place !== 'for-everyone';
  const dirs = [...new Set([...(perUser ? [toolkitLib] : []), ...causes.flatMap((c) => c.rightDirs)])];
  const loadOrderFixes = [...ordered.filter((o) => !o.cause.ownConfs?.length).map((o) => o.f), ...(perUser ? fixing('import-cudnn') : [])];
  if (dirs.length) steps.push(orOnNo(loadOrderStep(dirs, loadOrderFixes), loadOrderFixes));
  if (has('wheel-loader-path')) {
    const step = wheelLoaderPathRemedy(facts, fixing('wheel-loader-path'));
    if (step) steps.push(step);
  }
  const listed = [...plan.leftToUser, ...unremedied(plan).filter((i) => i.finding.status === 'fail')];
  if (listed.length) steps.push(leftToUserStep(listed));
  // Without consent the package managers' commands are listed, each with the finding it would fix; none runs.
  if ((ctx.packageManager ?? 'no') === 'no') {
    const notRun = new Map<string, RepairItem[]>();
    for (const i of plan.items.filter((x) => x.remedy && x.replace)) notRun.set(i.replace!.command, [...(notRun.get(i.replace!.command) ?? []), i]);
    [...notRun.values()].forEach((items, n) => steps.push(packageLeftStep(items[0].replace!, items, n ? `package-manager-left-${n + 1}` : 'package-manager-left')));
  }
  steps.push(newShellVerifyStep(new Set(plan.leftToUser.map((i) => i.finding.id))));
  return { plan, steps };
}
