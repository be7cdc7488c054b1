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
import type { GlobalOptions } from '../cli/args.js';
import { diagnose } from '../doctor/diagnose.js';
import type { Host } from '../host.js';
import { defaultCudaRoot, defaultDownloadsDir } from '../platform.js';
import { typedOrFoundInDownloads } from '../plan/archive-answer.js';
import { loadRedistCatalog, type RedistCatalog } from '../redist/catalog.js';
import { choosePlan, offeredRoutes, runChosenPlan, toolkitServedElsewhere, type PlanMachine } from '../plan/choose.js';
import type { RunnerEvent } from '../plan/events.js';
import { ProbeCache } from '../probe/cache.js';
import { pythonFits } from '../plan/steps/python.js';
import { majorMinor } from '../version.js';
import type { MachineFacts } from '../probe/types.js';
import type { ScanLine, ScanSummary, TfChoice, WizardServices } from './controller.js';
import { stepsText } from '../i18n/steps.js';
import { allRouteFiles, onlyKinds } from '../bundle/routes.js';
import { routeTotal } from '../bundle/describe.js';
import { findBundles } from '../bundle/find.js';
import { useBundle } from '../bundle/use.js';

export function scanSummary(catalog: Catalog, facts: MachineFacts): ScanSummary {
  const installedTf = facts.python.tensorflow?.version;
  const findings = diagnose(catalog, facts, { tf: installedTf });
  const gpu = facts.gpu.gpus;
  const lines: ScanLine[] = [
    {
      label: 'gpu',
      status: gpu.length ? 'pass' : 'fail',
      text: gpu.length ? gpu.map((g) => `${g.name}${g.computeCapability ? stepsText.scanCc(g.computeCapability) : ''}`).join(', ') : facts.gpu.evidence ?? stepsText.scanNone,
    },
    { label: 'driver', status: facts.gpu.driver.version ? 'pass' : 'fail', text: facts.gpu.driver.version ?? stepsText.scanNone },
    {
      label: 'toolkits',
      status: facts.toolkits.length ? (facts.toolkits.some((t) => t.missing.length === 0) ? 'pass' : 'warn') : 'info',
      text: facts.toolkits.length ? facts.toolkits.map((t) => `CUDA ${t.majorMinor ?? '?'}${t.missing.length ? stepsText.scanPartial : ''}`).join(', ') : stepsText.scanNone,
    },
    { label: 'cudnn', status: facts.cudnn.length ? 'pass' : 'info', text: facts.cudnn.length ? facts.cudnn.map((c) => stepsText.scanCudnnIn(c.version ?? '?', c.path)).join(', ') : stepsText.scanNone },
    {
      label: 'python',
      status: facts.python.state === 'found' ? 'pass' : 'warn',
      text: facts.python.state === 'found' ? `Python ${facts.python.version}${installedTf ? stepsText.scanTf(installedTf) : stepsText.scanNoTfYet}` : stepsText.scanNoPython,
    },
  ];
  const beyond = installedTf ? tfBeyondCatalog(catalog, installedTf, facts.os, { installed: true }) : undefined;
  return {
    lines,
    problems: findings.filter((f) => f.status === 'fail').map((f) => ({ title: f.title, fix: f.fix ?? undefined })),
    hasInstall: facts.toolkits.length > 0 && Boolean(installedTf),
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

/** `catalog`: one already loaded (the bundle's prebuilt one); otherwise it is loaded and validated here. */
export function realWizardServices(options: { globals: GlobalOptions; host: Host; catalog?: Catalog }): WizardServices {
  const { globals, host } = options;
  const catalog = options.catalog ?? loadCatalog({ overlayFile: globals.catalog });
  const cudaRoot = globals.cudaRoot ?? defaultCudaRoot(host.os, host.env);
  let facts: MachineFacts | undefined;
  let redistCatalog: RedistCatalog | undefined;
  const machine: PlanMachine = { catalog, host, redist: () => (redistCatalog ??= loadRedistCatalog(globals.catalog)) };
  // One probe cache for the whole wizard run: the scan's Python/TensorFlow facts serve every preview and step.
  const probes = new ProbeCache(host);
  return {
    async scan() {
      facts = await probes.machine({ cudaRoot, catalog });
      return scanSummary(catalog, facts);
    },
    choices: (scan) => tfChoices(catalog, host, scan, facts),
    routes: (tf) => offeredRoutes(machine, tf, facts),
    routeSizes: (tf) => {
      // Over a toolkit TF can already load, the installer route brings only cuDNN: its size says so.
      const cudnnOnly = facts !== undefined && toolkitServedElsewhere(machine, tf, facts);
      return Object.fromEntries(allRouteFiles(catalog, machine.redist(), tf, host.os).filter((r) => r.available).map((r) => [r.route, routeTotal(r.route === 'toolkit' && cudnnOnly ? onlyKinds(r, ['cudnn']) : r)]));
    },
    async bundles(tf) {
      const row = requirementsFor(catalog, tf, host.os).row;
      const found = await findBundles(defaultDownloadsDir(host.os, host.env, host.home), host.os);
      return found.filter((b) => b.manifest.complete && (() => { try { return requirementsFor(catalog, b.manifest.tensorflow, host.os).row === row; } catch { return false; } })()).map((b) => ({ dir: b.dir, route: b.manifest.route }));
    },
    async run(tf, mode, o) {
      const version = tf ?? facts?.python.tensorflow?.version;
      if (!version) return { ok: false, exitCode: 2, message: stepsText.noTfChosen };
      // A bundle the user picked: opened and re-hashed (or refused, nothing changed); every file then comes from it.
      const used = o.bundle ? await useBundle(o.bundle, { catalog, redist: machine.redist(), os: host.os, tf: version, route: o.route }) : undefined;
      const plan = choosePlan(machine, {
        mode: mode === 'repair' ? 'repair' : 'install',
        route: o.route,
        tf: version,
        facts,
        options: { cudaRoot: globals.cudaRoot, cacheDir: globals.cacheDir, mirror: globals.mirror, yes: true, configureEnv: 'ask', packageManager: 'ask', command: 'cudawiz', probes, ...(used ? { bundle: used.bundle, cudnnArchive: used.bundle.cudnnArchive, pinRelease: used.pinRelease } : {}) },
      });
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
    whatNow: (tf) => {
      const version = tf ?? facts?.python.tensorflow?.version;
      return { pip: version ? requirementsFor(catalog, version, host.os).pip : undefined };
    },
  };
}
