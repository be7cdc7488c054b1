// The wizard's state and intents, outside React: components render getState() and call intents;
// every side effect happens here, through the services passed in.
import { EXIT } from '../errors.js';
import { initialRunnerState, reduceRunner, type InputNeed, type RunnerEvent, type RunnerState } from '../plan/events.js';
import type { RunResult } from '../plan/runner.js';
import type { Status } from '../cli/output.js';

export interface ScanLine {
  label: 'gpu' | 'driver' | 'toolkits' | 'cudnn' | 'python';
  status: Status;
  text: string;
}

export interface ScanSummary {
  lines: ScanLine[];
  /** Findings that failed, as one line each (title — fix). */
  problems: { title: string; fix?: string }[];
  /** Something cudawiz could repair is already installed. */
  hasInstall: boolean;
  /** The pip-installed TensorFlow, if any. */
  installedTf?: string;
}

export type { TfChoice } from '../catalog/tf-choices.js';
import type { TfChoice } from '../catalog/tf-choices.js';

export type Mode = 'setup' | 'repair';
export type Route = 'toolkit' | 'pip' | 'redist';

export interface WizardServices {
  scan(signal: AbortSignal): Promise<ScanSummary>;
  choices(scan: ScanSummary): { choices: TfChoice[]; defaultVersion?: string };
  /** The ways to set that TF up here, the first the recommended one (redist where it exists, then pip). */
  routes(tf: string): Route[];
  run(
    tf: string | undefined,
    mode: Mode,
    options: { signal: AbortSignal; dryRun: boolean; route?: Route; onEvent(e: RunnerEvent): void; ask?(need: InputNeed): Promise<string | undefined> },
  ): Promise<RunResult>;
  /** What to tell the user at the end (pip command, check command). */
  whatNow(tf: string | undefined): { pip?: string };
}

export type WizardState =
  | { screen: 'scan'; scan?: ScanSummary; error?: string }
  | { screen: 'choose'; scan: ScanSummary; choices: TfChoice[]; defaultVersion?: string }
  | { screen: 'route'; scan: ScanSummary; tf: string; routes: Route[] }
  | { screen: 'plan'; scan: ScanSummary; tf?: string; mode: Mode; route?: Route; preview: RunnerState }
  | { screen: 'run'; scan: ScanSummary; tf?: string; mode: Mode; route?: Route; runner: RunnerState; waiting?: InputNeed }
  | { screen: 'done'; tf?: string; mode: Mode; runner: RunnerState; result: RunResult; pip?: string };

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
    try {
      const scan = await this.services.scan(this.controller.signal);
      this.set({ screen: 'scan', scan });
    } catch (error) {
      this.set({ screen: 'scan', error: (error as Error).message });
    }
  }

  /** From the scan screen: repair what is there, or set up a TF version. */
  chooseMode(mode: Mode): void {
    const s = this.state;
    if (s.screen !== 'scan' || !s.scan) return;
    if (mode === 'repair') {
      void this.preview(s.scan, s.scan.installedTf, 'repair');
      return;
    }
    const { choices, defaultVersion } = this.services.choices(s.scan);
    this.set({ screen: 'choose', scan: s.scan, choices, defaultVersion });
  }

  pickTf(version: string): void {
    const s = this.state;
    if (s.screen !== 'choose') return;
    const choice = s.choices.find((c) => c.version === version);
    if (!choice || choice.blocked) return;
    const routes = this.services.routes(version);
    if (routes.length > 1) this.set({ screen: 'route', scan: s.scan, tf: version, routes });
    else void this.preview(s.scan, version, 'setup', routes[0]);
  }

  chooseRoute(route: Route): void {
    const s = this.state;
    if (s.screen !== 'route') return;
    void this.preview(s.scan, s.tf, 'setup', route);
  }

  private async preview(scan: ScanSummary, tf: string | undefined, mode: Mode, route?: Route): Promise<void> {
    let preview = initialRunnerState;
    await this.services.run(tf, mode, {
      signal: this.controller.signal,
      dryRun: true,
      route,
      onEvent: (e) => (preview = reduceRunner(preview, e)),
    });
    this.set({ screen: 'plan', scan, tf, mode, route, preview });
  }

  back(): void {
    const s = this.state;
    if (s.screen === 'choose') this.set({ screen: 'scan', scan: s.scan });
    else if (s.screen === 'route') this.set({ screen: 'choose', scan: s.scan, ...this.services.choices(s.scan) });
    else if (s.screen === 'plan') {
      if (s.mode === 'repair') this.set({ screen: 'scan', scan: s.scan });
      else this.set({ screen: 'choose', scan: s.scan, ...this.services.choices(s.scan) });
    }
  }

  async confirm(): Promise<void> {
    const s = this.state;
    if (s.screen !== 'plan') return;
    const { scan, tf, mode, route } = s;
    let runner = initialRunnerState;
    this.set({ screen: 'run', scan, tf, mode, route, runner });
    const result = await this.services.run(tf, mode, {
      signal: this.controller.signal,
      dryRun: false,
      route,
      onEvent: (e) => {
        runner = reduceRunner(runner, e);
        const cur = this.state;
        // A step that starts again got its answer some other way (the archive appeared in Downloads).
        if (e.type === 'step-start') this.pendingAnswer = undefined;
        const waiting = e.type === 'step-start' || cur.screen !== 'run' ? undefined : cur.waiting;
        this.set({ screen: 'run', scan, tf, mode, route, runner, waiting });
      },
      ask: (need) =>
        new Promise((resolve) => {
          this.pendingAnswer = resolve;
          this.set({ screen: 'run', scan, tf, mode, route, runner, waiting: need });
        }),
    });
    this.set({ screen: 'done', tf, mode, runner, result, pip: this.services.whatNow(tf).pip });
    if (result.exitCode === EXIT.interrupted) this.finished?.(EXIT.interrupted);
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
    if (this.state.screen !== 'run') this.finished?.(EXIT.interrupted);
  }

  quit(): void {
    const s = this.state;
    this.finished?.(s.screen === 'done' ? s.result.exitCode : EXIT.ok);
  }
}
