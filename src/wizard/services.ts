// The wizard's services over the real ones: the doctor's probes for the scan, the catalog for the
// version list, and the plan chosen and run the one way `install` and `repair` choose and run it.
import { LockedError } from '../lock/index.js';
import { beyondCatalogOptions, tfBeyondCatalog } from '../catalog/newer-tf.js';
import { requirementsFor } from '../catalog/queries.js';
import { planText } from '../i18n/plan.js';
import { wizardText } from '../i18n/wizard.js';
import { defaultTfChoice, tfChoicesFor } from '../catalog/tf-choices.js';
import type { Catalog } from '../catalog/schema.js';
import { loadCatalog } from '../catalog/load.js';
import type { GlobalOptions } from '../io/flags.js';
import { blockersIn, SETUP_BLOCKERS } from '../doctor/blockers.js';
import { cliText } from '../i18n/cli.js';
import { diagnose } from '../doctor/diagnose.js';
import type { Host } from '../host.js';
import { defaultCudaRoot, defaultDownloadsDir, type OsName } from '../platform.js';
import { typedOrFoundInDownloads } from '../plan/archive-answer.js';
import { loadRedistCatalog, type RedistCatalog } from '../redist/catalog.js';
import { chooseRepairPlan, choosePlan, recommendRoute, repairCauses, repairTarget, resolveTarget, runChosenPlan, stopsEverySetup, toolkitServedElsewhere, type PlanMachine, type PlanTarget } from '../plan/choose.js';
import type { Finding } from '../doctor/finding.js';
import type { RunnerEvent } from '../plan/events.js';
import { ProbeCache } from '../probe/cache.js';
import { pythonFits } from '../plan/steps/python.js';
import { majorMinor } from '../version.js';
import type { MachineFacts } from '../probe/types.js';
import type { RouteNotes, ScanLine, ScanSummary, TfChoice, WhatNow, WizardServices } from './controller.js';
import { stepsText } from '../i18n/steps.js';
import { onlyKinds, routeFacts } from '../routes/index.js';
import { routeTotal } from '../bundle/describe.js';
import { findBundles } from '../bundle/find.js';
import { useBundle } from '../bundle/use.js';

/** Which scan line a failing finding is about: the ✓ on that line would be wrong. */
function lineOf(f: Finding): ScanLine['label'] | undefined {
  const id = f.id.split(':')[0];
  if (id === 'gpu' || id === 'compute-capability') return 'gpu';
  if (id === 'driver' || id === 'conda-driver' || f.id === 'libraries:driver' || f.id === 'library:cuda') return 'driver';
  if (/cudnn/i.test(f.id) || /cudnn/i.test(f.title)) return 'cudnn';
  if (id === 'python' || id === 'pip-pin' || id === 'tensorflow') return 'python';
  if (id.startsWith('toolkit') || id === 'load-order' || id.startsWith('library')) return 'toolkits';
  return undefined;
}

export function scanSummary(catalog: Catalog, facts: MachineFacts): ScanSummary {
  const installedTf = facts.python.tensorflow?.version;
  const findings = diagnose(catalog, facts, { tf: installedTf });
  // The causes in the order the repair plan acts on them (what stops it first), the plan's own rule.
  const causes = repairCauses(findings, facts.os);
  const wrong = new Set(causes.map((c) => lineOf(c.finding)));
  const gpu = facts.gpu.gpus;
  const judged = (label: ScanLine['label'], status: ScanLine['status']): ScanLine['status'] => (wrong.has(label) ? 'fail' : status);
  const lines: ScanLine[] = [
    {
      label: 'gpu',
      status: judged('gpu', gpu.length ? 'pass' : 'fail'),
      // No GPU read: the doctor's words for why, in the run's language (nvidia-smi's own line is English, and the doctor quotes it).
      text: gpu.length ? cliText.list(gpu.map((g) => `${g.name}${g.computeCapability ? stepsText.scanCc(g.computeCapability) : ''}`)) : findings.find((f) => f.status === 'fail' && lineOf(f) === 'gpu')?.title ?? facts.gpu.evidence ?? stepsText.scanNone,
    },
    { label: 'driver', status: judged('driver', facts.gpu.driver.version ? 'pass' : 'fail'), text: facts.gpu.driver.version ?? stepsText.scanNone },
    {
      label: 'toolkits',
      status: judged('toolkits', facts.toolkits.length ? (facts.toolkits.some((t) => t.missing.length === 0) ? 'pass' : 'warn') : 'info'),
      text: facts.toolkits.length ? cliText.list(facts.toolkits.map((t) => `CUDA ${t.majorMinor ?? '?'}${t.missing.length ? stepsText.scanPartial : ''}`)) : stepsText.scanNone,
    },
    { label: 'cudnn', status: judged('cudnn', facts.cudnn.length ? 'pass' : 'info'), text: facts.cudnn.length ? cliText.list(facts.cudnn.map((c) => stepsText.scanCudnnIn(c.version ?? '?', c.path))) : stepsText.scanNone },
    {
      label: 'python',
      // No Python is never a pass: TensorFlow needs one (the version list says which range each takes).
      status: facts.python.state === 'found' ? judged('python', 'pass') : 'warn',
      text: facts.python.state === 'found' ? `Python ${facts.python.version}${installedTf ? stepsText.scanTf(installedTf) : stepsText.scanNoTfYet}` : stepsText.scanNoPython,
    },
  ];
  const beyond = installedTf ? tfBeyondCatalog(catalog, installedTf, facts.os, { installed: true }) : undefined;
  // Those every plan's preflight already checks (no GPU, TF's own driver floor) stop on the plan screen with their fix.
  const blocking = stopsEverySetup(findings, facts.os).filter((f) => !SETUP_BLOCKERS.includes(f.id));
  return {
    lines,
    problems: causes.map((c) => ({ title: c.finding.title, fix: c.finding.fix ?? undefined })),
    // Whatever the doctor finds is repair's to fix or to stop at, on any machine (pip's wheels, conda, a distro's CUDA).
    canRepair: causes.length > 0 || Boolean(beyond),
    ...(blocking.length ? { blocking: blocking.map((f) => ({ title: f.title, fix: f.fix ?? undefined })) } : {}),
    installedTf,
    ...(catalog.warnings?.length ? { warnings: catalog.warnings } : {}),
    ...(beyond
      ? {
          beyond: {
            headline: wizardText.scanBeyond(planText.beyondHeadline(beyond.catalogEnd, installedTf!), planText.pipInstalled(facts.python.tensorflow?.package ?? 'tensorflow', installedTf!)),
            options: beyondCatalogOptions(beyond, facts.os),
          },
        }
      : {}),
  };
}

/**
 * The Done screen's next steps for `tf`: no pip command for the TF pip already has; the Python range it
 * needs where no Python that fits was found (never "ready" without one).
 */
export function whatNowFor(catalog: Catalog, os: OsName, tf: string | undefined, facts: MachineFacts | undefined): WhatNow {
  if (!tf) return {};
  const req = requirementsFor(catalog, tf, os);
  const py = facts?.python.state === 'found' ? facts.python.version : undefined;
  const fits = py !== undefined && pythonFits(py, req.python);
  const installed = facts?.python.tensorflow?.version;
  const rowOf = (v: string) => { try { return requirementsFor(catalog, v, os).row; } catch { return undefined; } };
  // TF already installed (it imports; verify said so): nothing to install, whatever the Python's version.
  const has = installed !== undefined && (installed === tf || rowOf(installed) === req.row);
  const range = pythonRange(req.python);
  return {
    ...(has ? {} : { pip: req.pip }),
    ...(has || fits ? {} : { python: py ? wizardText.pythonCannotTake(majorMinor(py), majorMinor(req.row), range) : wizardText.pythonNeeded(majorMinor(req.row), range) }),
  };
}

/** "3.5–3.8", or "3.8" where TF takes one. */
export const pythonRange = (p: { min: string; max: string }): string => (p.min === p.max ? p.min : `${p.min}–${p.max}`);

/** The version list for this machine: what its GPU can run, the installed TF first if runnable. */
export function tfChoices(catalog: Catalog, host: Host, scan: ScanSummary, facts?: MachineFacts): { choices: TfChoice[]; defaultVersion?: string } {
  const cc = facts?.gpu.gpus.find((g) => g.computeCapability)?.computeCapability;
  const py = facts?.python.state === 'found' ? facts.python.version : undefined;
  const choices: TfChoice[] = tfChoicesFor(catalog, host.os, cc ? { computeCapability: cc } : undefined).map((c) => {
    // "3.5–3.8": the wheels pip has for that TF. A Python outside it cannot install it.
    const [min, max = min] = c.python.split('–');
    return py && !pythonFits(py, { min, max }) ? { ...c, pythonCannot: wizardText.pythonCannot(majorMinor(py)) } : c;
  });
  return { choices, defaultVersion: defaultTfChoice(choices, scan.installedTf)?.version };
}

/**
 * `catalog`: one already loaded (the bundle's prebuilt one); otherwise it is loaded and validated here.
 * `doctor`: the doctor the targets run (a test wraps the real one to count its runs).
 */
export function realWizardServices(options: { globals: GlobalOptions; host: Host; catalog?: Catalog; doctor?: PlanMachine['doctor'] }): Required<WizardServices> {
  const { globals, host } = options;
  const catalog = options.catalog ?? loadCatalog({ overlayFile: globals.catalog });
  const cudaRoot = globals.cudaRoot ?? defaultCudaRoot(host.os, host.env);
  let facts: MachineFacts | undefined;
  let redistCatalog: RedistCatalog | undefined;
  const machine: PlanMachine = { catalog, host, redist: () => (redistCatalog ??= loadRedistCatalog(globals.catalog)), ...(options.doctor ? { doctor: options.doctor } : {}) };
  // One target per TF pick (its requirements, the doctor's findings on the scan's facts, every route's
  // files): the route list, its sizes and notes, the plan and its preview all read it.
  const targets = new Map<string, PlanTarget>();
  const targetFor = (tf: string): PlanTarget => {
    let t = targets.get(tf);
    if (!t || t.facts !== facts) targets.set(tf, (t = resolveTarget(machine, tf, facts)));
    return t;
  };
  const choiceFor = (tf: string) => recommendRoute(machine, targetFor(tf), globals.cudaRoot);
  // One probe cache for the whole wizard run: the scan's Python/TensorFlow facts serve every preview and step.
  const probes = new ProbeCache(host);
  /** The offered routes' files; over a toolkit TF can already load, the installer route's is only cuDNN. */
  const offeredFiles = (tf: string) => {
    const target = targetFor(tf);
    const cudnnOnly = toolkitServedElsewhere(machine, target, globals.cudaRoot);
    return choiceFor(tf).routes.map((id) => target.routes.find((r) => r.route === id)!).map((r) => (r.route === 'toolkit' && cudnnOnly ? onlyKinds(r, ['cudnn']) : r));
  };
  return {
    async scan() {
      facts = await probes.machine({ cudaRoot, catalog });
      return scanSummary(catalog, facts);
    },
    choices: (scan) => tfChoices(catalog, host, scan, facts),
    routes: (tf) => choiceFor(tf).routes,
    routeSizes: (tf) => Object.fromEntries(offeredFiles(tf).map((r) => [r.route, routeTotal(r)])),
    routeNotes(tf): RouteNotes {
      const target = targetFor(tf);
      const files = offeredFiles(tf);
      const stops = blockersIn(target.findings ?? [], SETUP_BLOCKERS).blocking;
      return {
        why: choiceFor(tf).why,
        labels: Object.fromEntries(files.map((r) => [r.route, routeFacts(r.route).label(target.routes)])),
        cuda: Object.fromEntries(files.filter((r) => r.cuda).map((r) => [r.route, { version: r.cuda!, ...(r.cudaWhy ? { newer: r.cudaWhy } : {}) }])),
        // The blockers every route's preflight checks (src/plan/steps/preflight.ts), said as it says them.
        ...(stops.length ? { stops: { cause: cliText.semicolons(stops.map((f) => f.title)), ...(stops[0].fix ? { fix: stops[0].fix } : {}) } } : {}),
      };
    },
    async bundles(tf) {
      const row = targetFor(tf).req.row;
      const found = await findBundles(defaultDownloadsDir(host.os, host.env, host.home), host.os);
      return found.filter((b) => b.manifest.complete && (() => { try { return requirementsFor(catalog, b.manifest.tensorflow, host.os).row === row; } catch { return false; } })()).map((b) => ({ dir: b.dir, route: b.manifest.route }));
    },
    async run(tf, mode, o) {
      const version = tf ?? facts?.python.tensorflow?.version;
      if (!version) return { ok: false, exitCode: 2, message: stepsText.noTfChosen };
      // A bundle the user picked: opened and re-hashed (or refused, nothing changed); every file then comes from it.
      const used = o.bundle ? await useBundle(o.bundle, { catalog, redist: machine.redist(), os: host.os, tf: version, route: o.route }) : undefined;
      const options = { cudaRoot: globals.cudaRoot, cacheDir: globals.cacheDir, mirror: globals.mirror, yes: true, configureEnv: 'ask' as const, packageManager: 'ask' as const, command: 'cudawiz', probes, ...(used ? { bundle: used.bundle, cudnnArchive: used.bundle.cudnnArchive, pinRelease: used.pinRelease } : {}) };
      // "Repair it" is `cudawiz repair` in a terminal: the same target rule and the same chooser.
      const repairTf = mode === 'repair' ? repairTarget(catalog, facts!, version, host.os) : undefined;
      const plan =
        repairTf !== undefined
          ? chooseRepairPlan(machine, { tf: repairTf, facts, ...(used ? {} : { target: targetFor(repairTf) }), options: { ...options, command: `cudawiz repair --tf ${version}` } })
          : choosePlan(machine, { mode: 'install', route: o.route, tf: version, facts, ...(used ? {} : { target: targetFor(version) }), options });
      // A lock taken over from a killed run is said under the first step, once the plan is on screen.
      const notices: string[] = [];
      const onEvent = (e: RunnerEvent) => {
        o.onEvent(e);
        if (e.type === 'plan') for (const line of notices.splice(0)) o.onEvent({ type: 'log', id: 'preflight', line });
      };
      try {
        return await runChosenPlan(plan, { signal: o.signal, dryRun: o.dryRun, onEvent, ask: typedOrFoundInDownloads(o.ask, o.signal) }, { onNotice: (line) => notices.push(line) });
      } catch (error) {
        // One run per toolkit, as headless: another cudawiz on it ends this run with its pid (exit 3).
        if (!(error instanceof LockedError)) throw error;
        const result = { ok: false, exitCode: error.exitCode, message: `${error.message} ${error.fix ?? ''}`.trim() };
        o.onEvent({ type: 'result', ...result });
        return result;
      }
    },
    whatNow: (tf) => whatNowFor(catalog, host.os, tf ?? facts?.python.tensorflow?.version, facts),
  };
}
