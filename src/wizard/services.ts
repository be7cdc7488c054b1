// The wizard's services over the real ones: the doctor's probes for the scan, the catalog for the
// version list, and the same plans and runner as `install` and `repair`.
import { acquireLock, LockedError } from '../lock/index.js';
import { beyondCatalogOptions, tfBeyondCatalog } from '../catalog/newer-tf.js';
import { requirementsFor } from '../catalog/queries.js';
import { planText } from '../i18n/plan.js';
import { wizardText } from '../i18n/wizard.js';
import { defaultTfChoice, tfChoicesFor } from '../catalog/tf-choices.js';
import type { Catalog } from '../catalog/schema.js';
import { loadCatalog } from '../catalog/load.js';
import type { GlobalOptions } from '../cli/args.js';
import { diagnose } from '../doctor/diagnose.js';
import { toolkitServes } from '../doctor/toolkit-lookup.js';
import type { Host } from '../host.js';
import { defaultCudaRoot } from '../platform.js';
import { typedOrFoundInDownloads } from '../plan/archive-answer.js';
import { createPlanContext } from '../plan/context.js';
import { createPipPlanContext, pipRouteRefusal, pipRouteSteps } from '../plan/pip-route.js';
import path from 'node:path';
import { createRedistPlanContext, redistRepairSteps, redistRouteSteps } from '../plan/redist-route.js';
import { loadRedistCatalog, type RedistCatalog } from '../redist/catalog.js';
import { redistRouteFor } from '../redist/choose.js';
import { repairSteps } from '../plan/repair.js';
import { runPlan } from '../plan/runner.js';
import { setupSteps } from '../plan/setup.js';
import { ProbeCache } from '../probe/cache.js';
import { pythonFits } from '../plan/python-step.js';
import { majorMinor } from '../version.js';
import type { MachineFacts } from '../probe/types.js';
import type { ScanLine, ScanSummary, TfChoice, WizardServices } from './controller.js';
import { stepsText } from '../i18n/steps.js';

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
  const redist = () => (redistCatalog ??= loadRedistCatalog(globals.catalog));
  // One probe cache for the whole wizard run: the scan's Python/TensorFlow facts serve every preview and step.
  const probes = new ProbeCache(host);
  return {
    async scan() {
      facts = await probes.machine({ cudaRoot, catalog });
      return scanSummary(catalog, facts);
    },
    choices: (scan) => tfChoices(catalog, host, scan, facts),
    // redist first where it exists (no administrator, a fraction of the download), then pip (nothing
    // outside the virtual environment changes), the installer last.
    routes: (tf) => [
      ...(redistRouteFor(redist(), catalog, requirementsFor(catalog, tf, host.os), host.os).ok ? (['redist'] as const) : []),
      ...(pipRouteRefusal(catalog, tf, host.os) ? [] : (['pip'] as const)),
      'toolkit' as const,
    ],
    async run(tf, mode, o) {
      const version = tf ?? facts?.python.tensorflow?.version;
      if (!version) return { ok: false, exitCode: 2, message: stepsText.noTfChosen };
      const options = { tf: version, cudaRoot, cacheDir: globals.cacheDir, mirror: globals.mirror, yes: true, configureEnv: 'ask' as const, command: 'cudawiz', probes };
      const cuda = requirementsFor(catalog, version, host.os).cuda;
      const redistToolkit = mode === 'repair' && cuda ? facts?.toolkits.find((t) => t.redist && toolkitServes(t, cuda)) : undefined;
      if (o.route === 'redist' || redistToolkit) {
        const ctx = createRedistPlanContext(catalog, redist(), host, { ...options, cudaRoot: redistToolkit ? path.dirname(redistToolkit.path) : globals.cudaRoot, pinRelease: redistToolkit?.redist?.release });
        return runPlan(redistToolkit ? redistRepairSteps() : redistRouteSteps(), ctx, { signal: o.signal, dryRun: o.dryRun, onEvent: o.onEvent, ask: o.ask });
      }
      if (o.route === 'pip') {
        return runPlan(pipRouteSteps(), createPipPlanContext(catalog, host, options), { signal: o.signal, dryRun: o.dryRun, onEvent: o.onEvent, ask: o.ask });
      }
      const ctx = createPlanContext(catalog, host, options);
      const steps = mode === 'repair' && facts ? repairSteps(facts) : setupSteps();
      // One run per toolkit, as headless: another cudawiz on it ends this run with its pid (exit 3).
      const notices: string[] = [];
      const lock = o.dryRun ? undefined : await acquireLock(ctx.toolkitDir, { onNotice: (line) => notices.push(line) }).catch((error: unknown) => error as Error);
      if (lock instanceof LockedError) {
        const result = { ok: false, exitCode: lock.exitCode, message: `${lock.message} ${lock.fix ?? ''}`.trim() };
        o.onEvent({ type: 'result', ...result });
        return result;
      }
      if (lock instanceof Error) throw lock;
      return runPlan(steps, ctx, {
        signal: o.signal,
        dryRun: o.dryRun,
        // A lock taken over from a killed run is said under the first step, once the plan is on screen.
        onEvent: (e) => {
          o.onEvent(e);
          if (e.type === 'plan') for (const line of notices.splice(0)) o.onEvent({ type: 'log', id: 'preflight', line });
        },
        ask: typedOrFoundInDownloads(o.ask, o.signal),
      }).finally(() => lock?.release());
    },
    whatNow: (tf) => {
      const version = tf ?? facts?.python.tensorflow?.version;
      return { pip: version ? requirementsFor(catalog, version, host.os).pip : undefined };
    },
  };
}
