// The wizard's state and intents, outside React: components render getState() and call intents;
// every side effect happens here, through the services passed in.
import type { RouteId } from '../plan/choose.js';
import { EXIT } from '../errors.js';
import { initialRunnerState, reduceRunner, type InputNeed, type RunnerEvent, type RunnerState } from '../plan/events.js';
import type { RunResult } from '../plan/runner.js';
import type { Status } from '../io/output.js';

export interface ScanLine {
  label: 'gpu' | 'driver' | 'toolkits' | 'cudnn' | 'python';
  status: Status;
  text: string;
}

export interface ScanSummary {
  lines: ScanLine[];
  /** Findings that failed, as one line each (title — fix). */
  problems: { title: string; fix?: string }[];
  /** The doctor found something: repair fixes it or says where it stops (any machine: a toolkit, pip's wheels, conda, a distro's CUDA). */
  canRepair: boolean;
  /** Findings no setup gets past (the driver, the GPU, the platform): New setup stops at them too, before anything changes. */
  blocking?: { title: string; fix?: string }[];
  /** The pip-installed TensorFlow, if any. */
  installedTf?: string;
  /** The installed TF is newer than the catalog: the headline and what still works. */
  beyond?: Beyond;
  /** What the catalog overlay said that may not be what was meant. */
  warnings?: string[];
}

/** A TensorFlow newer than the catalog, as the wizard shows it: a headline and the options left. */
export interface Beyond {
  headline: string;
  options: BeyondOption[];
}

import type { BeyondOption } from '../catalog/newer-tf.js';
import type { TfChoice as CatalogChoice } from '../catalog/tf-choices.js';
import { CudawizError } from '../errors.js';
import { wizardText } from '../i18n/wizard.js';
import { redactCredentials } from '../redact.js';

/** A version in the list; `pythonCannot` says why this machine's Python cannot install it. */
export type TfChoice = CatalogChoice & { pythonCannot?: string };

export type Mode = 'setup' | 'repair';
export type Route = RouteId;

/** What the route screen says beside the routes, from the same target the plan is made on. */
export interface RouteNotes {
  /** One line: why the first route is the recommended one (the rule `install` without --route follows too). */
  why: string;
  /** Each route's label; a size claim ("small download") only where the sizes prove it. */
  labels: Partial<Record<Route, string>>;
  /** The CUDA each route installs, and why where it is not the one the version list names. */
  cuda: Partial<Record<Route, { version: string; newer?: string }>>;
  /**
   * What every route's plan stops at before anything changes (no driver, no GPU TF can use, a driver too
   * old for TF's CUDA): the screen says it beside the routes, so they promise nothing the plan refuses.
   */
  stops?: { cause: string; fix?: string };
}

/** A bundle the wizard found: its folder and the route it holds. */
export interface WizardBundle {
  dir: string;
  route: Route;
}

export interface WizardServices {
  scan(signal: AbortSignal): Promise<ScanSummary>;
  choices(scan: ScanSummary): { choices: TfChoice[]; defaultVersion?: string };
  /** The ways to set that TF up here, the first the recommended one (redist where it exists, then pip). */
  routes(tf: string): Route[];
  /** What each route downloads, in words ("9 files, 2.0 GiB in all"), as `requirements` says it. */
  routeSizes?(tf: string): Partial<Record<Route, string>>;
  /** Why the first route is recommended, each route's label and the CUDA it installs (`RouteNotes`). */
  routeNotes?(tf: string): RouteNotes;
  /** Bundles made by `cudawiz download --tf` for this TF and OS, found in Downloads: the wizard offers to use one. */
  bundles?(tf: string): Promise<WizardBundle[]>;
  run(
    tf: string | undefined,
    mode: Mode,
    options: { signal: AbortSignal; dryRun: boolean; route?: Route; bundle?: string; onEvent(e: RunnerEvent): void; ask?(need: InputNeed): Promise<string | undefined> },
  ): Promise<RunResult>;
  /** What to tell the user at the end: the pip command where that TF is not installed yet, the Python it needs where there is none that fits. */
  whatNow(tf: string | undefined): WhatNow;
}

export type WizardState =
  | { screen: 'scan'; scan?: ScanSummary }
  | { screen: 'newer'; scan: ScanSummary; beyond: Beyond }
  | { screen: 'preparing'; scan: ScanSummary; tf?: string }
  /** Something went wrong: what, what to do, and where Esc goes back to (none: only quit, exit 1). */
  | { screen: 'error'; message: string; fix?: string; back?: WizardState }
  /** `mode`: repair where no TF is installed to repair for (the user says which), else a new setup. */
  | { screen: 'choose'; scan: ScanSummary; choices: TfChoice[]; defaultVersion?: string; mode?: Mode }
  | { screen: 'route'; scan: ScanSummary; tf: string; routes: Route[]; sizes?: Partial<Record<Route, string>>; notes?: RouteNotes; bundles?: WizardBundle[] }
  | { screen: 'plan'; scan: ScanSummary; tf?: string; mode: Mode; route?: Route; bundle?: string; preview: RunnerState }
  | { screen: 'run'; scan: ScanSummary; tf?: string; mode: Mode; route?: Route; bundle?: string; runner: RunnerState; waiting?: InputNeed }
  | { screen: 'done'; tf?: string; mode: Mode; runner: RunnerState; result: RunResult; whatNow?: WhatNow };

/** The Done screen's next steps. */
export interface WhatNow {
  /** `tensorflow==2.3.0`: only where that TF is not what pip already has. */
  pip?: string;
  /** Where no Python that can take this TF was found: the range it needs ("TensorFlow 2.3 needs 64-bit Python 3.5–3.8"). */
  python?: string;
}

/** How long a stopped run may take to reach its next await before the wizard exits anyway. */
const STOP_GRACE_MS = 5000;

export class WizardController {
  private state: WizardState = { screen: 'scan' };
  private listeners = new Set<() => void>();
  private controller = new AbortController();
  private pendingAnswer?: (answer: string | undefined) => void;
  private finished?: (code: number) => void;
  /** Resolves with the process exit code when the wizard ends. */
  readonly exited: Promise<number>;

  constructor(private readonly services: WizardServices) {
    this.exited = new Promise((resolve) => (this.finished = resolve));
  }

  getState = (): WizardState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: WizardState): void {
    this.state = next;
    for (const l of this.listeners) l();
  }

  async start(): Promise<void> {
    await this.attempt(undefined, async () => {
      const scan = await this.services.scan(this.controller.signal);
      this.set({ screen: 'scan', scan });
    });
  }

  /** Every intent runs through here: whatever a service throws lands on a screen that says what to do. */
  private async attempt(back: WizardState | undefined, work: () => Promise<void> | void): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.fail(error, back);
    }
  }

  private fail(error: unknown, back: WizardState | undefined): void {
    // Ctrl+C already ended the run; a service failing as it stops has nothing more to say.
    if (this.controller.signal.aborted) return this.finished?.(EXIT.interrupted);
    const e = error instanceof CudawizError ? error : undefined;
    const scan = back && 'scan' in back ? back.scan : undefined;
    const options = e?.code === 'tf-newer-than-catalog' ? (e.options.details?.options as BeyondOption[] | undefined) : undefined;
    if (options && scan) return this.set({ screen: 'newer', scan, beyond: { headline: e!.message, options } });
    // A --mirror with credentials in it is shown as https://***@host here too, as in every printed line.
    if (e) return this.set({ screen: 'error', message: redactCredentials(e.message), fix: e.fix && redactCredentials(e.fix), back });
    // Not one of ours: a bug. Say so plainly, with what still helps; never a stack trace.
    this.set({ screen: 'error', message: redactCredentials(wizardText.unexpected((error as Error)?.message ?? String(error))), fix: wizardText.unexpectedFix, back });
  }

  /** From the scan screen: repair what is there, or set up a TF version. */
  chooseMode(mode: Mode): Promise<void> {
    const s = this.state;
    if (s.screen !== 'scan' || !s.scan) return Promise.resolve();
    const scan = s.scan;
    // A TF newer than the catalog has nothing to repair against: its own screen says what still works.
    if (mode === 'repair' && scan.beyond) {
      this.set({ screen: 'newer', scan, beyond: scan.beyond });
      return Promise.resolve();
    }
    if (mode === 'repair' && scan.installedTf) return this.preview(s, scan, scan.installedTf, 'repair');
    // A finding no setup gets past stops a new setup here too, before anything is downloaded or changed.
    if (mode === 'setup' && scan.blocking?.length) {
      const [first] = scan.blocking;
      this.set({ screen: 'error', message: wizardText.setupBlocked(first.title), fix: first.fix, back: s });
      return Promise.resolve();
    }
    // Repair with no pip-installed TF: the user says which TF to repair for (headless: repair --tf V).
    return this.attempt(s, () => this.set({ screen: 'choose', scan, ...this.services.choices(scan), ...(mode === 'repair' ? { mode } : {}) }));
  }

  /** A version from the list, or a row the "newer than the catalog" screen offers. */
  pickTf(version: string): Promise<void> {
    const s = this.state;
    if (s.screen === 'choose') {
      const choice = s.choices.find((c) => c.version === version);
      if (!choice || choice.blocked) return Promise.resolve();
      if (s.mode === 'repair') return this.preview(s, s.scan, version, 'repair');
    } else if (s.screen !== 'newer') return Promise.resolve();
    const scan = s.scan;
    return this.attempt(s, async () => {
      const routes = this.services.routes(version);
      // A bundle in Downloads for this TF is offered beside the routes, even where only one route exists.
      const bundles = (await this.services.bundles?.(version)) ?? [];
      if (routes.length > 1 || bundles.length) this.set({ screen: 'route', scan, tf: version, routes, sizes: this.services.routeSizes?.(version), notes: this.services.routeNotes?.(version), bundles });
      else await this.preview(s, scan, version, 'setup', routes[0]);
    });
  }

  /** A route, or a bundle found in Downloads (its route comes with it). */
  chooseRoute(route: Route, bundle?: string): Promise<void> {
    const s = this.state;
    if (s.screen !== 'route') return Promise.resolve();
    return this.preview(s, s.scan, s.tf, 'setup', route, bundle);
  }

  private async preview(from: WizardState, scan: ScanSummary, tf: string | undefined, mode: Mode, route?: Route, bundle?: string): Promise<void> {
    this.set({ screen: 'preparing', scan, tf });
    await this.attempt(from, async () => {
      let preview = initialRunnerState;
      await this.services.run(tf, mode, {
        signal: this.controller.signal,
        dryRun: true,
        route,
        bundle,
        onEvent: (e) => (preview = reduceRunner(preview, e)),
      });
      // Ctrl+C while the plan was being prepared: the run has already ended.
      if (this.controller.signal.aborted) return;
      this.set({ screen: 'plan', scan, tf, mode, route, bundle, preview });
    });
  }

  back(): void {
    const s = this.state;
    void this.attempt(s, () => {
      if (s.screen === 'choose' || s.screen === 'newer') this.set({ screen: 'scan', scan: s.scan });
      else if (s.screen === 'route') this.set({ screen: 'choose', scan: s.scan, ...this.services.choices(s.scan) });
      else if (s.screen === 'plan') {
        if (s.mode === 'repair' && (s.scan.installedTf || !s.tf)) this.set({ screen: 'scan', scan: s.scan });
        else if (s.mode === 'repair') this.set({ screen: 'choose', scan: s.scan, ...this.services.choices(s.scan), mode: 'repair' });
        else this.set({ screen: 'choose', scan: s.scan, ...this.services.choices(s.scan) });
      } else if (s.screen === 'error' && s.back) this.set(s.back);
    });
  }

  async confirm(): Promise<void> {
    const s = this.state;
    // A plan that will stop is never run from here: its screen offers only back and quit.
    if (s.screen !== 'plan' || s.preview.stop) return;
    const { scan, tf, mode, route, bundle } = s;
    let runner = initialRunnerState;
    this.set({ screen: 'run', scan, tf, mode, route, bundle, runner });
    const onEvent = (e: RunnerEvent) => {
      runner = reduceRunner(runner, e);
      const cur = this.state;
      // A step that starts again got its answer some other way (the archive appeared in Downloads).
      if (e.type === 'step-start') this.pendingAnswer = undefined;
      const waiting = e.type === 'step-start' || cur.screen !== 'run' ? undefined : cur.waiting;
      this.set({ screen: 'run', scan, tf, mode, route, bundle, runner, waiting });
    };
    const ask = (need: InputNeed) =>
      new Promise<string | undefined>((resolve) => {
        this.pendingAnswer = resolve;
        this.set({ screen: 'run', scan, tf, mode, route, bundle, runner, waiting: need });
      });
    await this.attempt(s, async () => {
      const result = await this.services.run(tf, mode, { signal: this.controller.signal, dryRun: false, route, bundle, onEvent, ask });
      this.set({ screen: 'done', tf, mode, runner, result, whatNow: result.ok ? this.services.whatNow(tf) : undefined });
      if (result.exitCode === EXIT.interrupted || this.controller.signal.aborted) this.finished?.(EXIT.interrupted);
    });
  }

  /** The user's answer to what the running step asked (an archive path); undefined gives up. */
  answer(text: string | undefined): void {
    const resolve = this.pendingAnswer;
    this.pendingAnswer = undefined;
    const s = this.state;
    if (s.screen === 'run') this.set({ ...s, waiting: undefined });
    resolve?.(text);
  }

  /** Ctrl+C confirmed: stop the runner cleanly (resumable) and end with 130. */
  interrupt(): void {
    this.controller.abort();
    this.answer(undefined);
    if (this.state.screen !== 'run') return this.finished?.(EXIT.interrupted);
    // A running step stops at its next await; one that ignores the signal must not hold the exit.
    setTimeout(() => this.finished?.(EXIT.interrupted), STOP_GRACE_MS).unref();
  }

  /** The user leaves: the run's own code when it ran, 1 from a screen that says something went wrong (a plan that will stop, too). */
  quit(): void {
    const s = this.state;
    const problem = s.screen === 'error' || s.screen === 'newer' || (s.screen === 'plan' && Boolean(s.preview.stop));
    this.finished?.(s.screen === 'done' ? s.result.exitCode : problem ? EXIT.problems : EXIT.ok);
  }
}
