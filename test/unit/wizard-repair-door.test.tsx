// The wizard is repair's front door (#39): on every repair class — a stale toolkit first, conda's
// cuDNN first, conda's CUDA on an old driver, apt's cuDNN a minor too old, pip's wheels off the loader
// path, torch's cuDNN pin, a distribution's CUDA with no cuDNN (all test/fixtures/repair-classes.ts) —
// the scan offers "Repair it" first, shows the causes the plan acts on with ✗ on the line at fault, and
// its plan is the one headless `repair --dry-run --json` lists.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { setLang } from '../../src/i18n/localized.js';
import type { RunnerEvent } from '../../src/plan/events.js';
import { WizardController, type ScanSummary } from '../../src/wizard/controller.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { REPAIR_CLASSES, type RepairClass } from '../fixtures/repair-classes.js';
import { hostOf } from '../helpers/broken-machine.js';
import { runCli } from '../helpers/cli.js';
import { waitForFrame } from '../helpers/ink.js';

let open: RepairClass | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

type PlanEvent = Extract<RunnerEvent, { type: 'plan' }>;

function servicesOn(c: RepairClass) {
  const flag = (name: string) => (c.flags.includes(name) ? c.flags[c.flags.indexOf(name) + 1] : undefined);
  return realWizardServices({ globals: { cudaRoot: c.m.cudaRoot, cacheDir: c.m.cache, catalog: flag('--catalog'), mirror: flag('--mirror') } as never, host: hostOf(c.m, c.env) });
}

/**
 * A step as the plan lists it. The one difference the two doors may have is the question a terminal
 * asks: the wizard asks before running a package manager's command (the workaround kept for a no),
 * `--json` cannot ask and lists that command as left to the user.
 */
const asListed = (p: PlanEvent) =>
  p.steps.map((s) => `${s.id.replace(/^package-manager-left$/, 'package-manager')}`).sort();
const titles = (p: PlanEvent) => p.steps.filter((s) => !s.id.startsWith('package-manager')).map((s) => s.title.replace(' (only on a no to the package manager)', ''));

/** The scan lines that must carry ✗ on each class. */
const AT_FAULT: Partial<Record<keyof typeof REPAIR_CLASSES, string[]>> = {
  'stale toolkit first on LD_LIBRARY_PATH': ['cudnn'],
  "conda env's older cuDNN first": ['cudnn'],
  'conda CUDA needs a newer driver (stop)': ['driver'],
  'system cuDNN one minor too old': ['cudnn'],
  "another framework's cuDNN pin (stop)": ['cudnn'],
  "a distribution's CUDA (apt's 11.8), no cuDNN": ['cudnn'],
};

describe("the wizard's Repair it is `cudawiz repair`", () => {
  for (const [name, make] of Object.entries(REPAIR_CLASSES)) {
    it(`${name}: offered first, the causes shown, the same plan as headless repair --dry-run --json`, async () => {
      const c = (open = await make());
      const services = servicesOn(c);
      const scan: ScanSummary = await services.scan(new AbortController().signal);
      expect(scan.canRepair).toBe(true);
      expect(scan.problems.length).toBeGreaterThan(0);
      // ✗ on the line at fault, never ✓ on the driver or the cuDNN that is the problem.
      const status = (label: string) => scan.lines.find((l) => l.label === label)?.status;
      for (const label of AT_FAULT[name as keyof typeof REPAIR_CLASSES] ?? []) expect(status(label), label).toBe('fail');
      if (name !== 'conda CUDA needs a newer driver (stop)') expect(status('driver')).toBe('pass');
      if (name === 'stale toolkit first on LD_LIBRARY_PATH') {
        // Two toolkits, listed in the run's language: "CUDA 11.2, CUDA 11.8"; in Chinese with 、.
        expect(scan.lines.find((l) => l.label === 'toolkits')?.text).toBe('CUDA 11.2, CUDA 11.8');
        setLang('zh');
        const zhScan = await services.scan(new AbortController().signal).finally(() => setLang('en'));
        expect(zhScan.lines.find((l) => l.label === 'toolkits')?.text).toBe('CUDA 11.2、CUDA 11.8');
      }
      // Nothing set up gets past a driver too old for what TF would load: New setup stops there too.
      if (name === 'conda CUDA needs a newer driver (stop)') expect(scan.blocking?.[0].title).toMatch(/too old for the conda env's CUDA 12\.2/);
      else expect(scan.blocking).toBeUndefined();

      const events: RunnerEvent[] = [];
      await services.run(c.tf, 'repair', { signal: new AbortController().signal, dryRun: true, onEvent: (e) => events.push(e) });
      const wizard = events.find((e) => e.type === 'plan') as PlanEvent;
      const headless = await runCli(['repair', '--tf', c.tf, '--dry-run', '--json', ...c.m.globals, ...c.flags], { host: hostOf(c.m, c.env) });
      const line = headless.stdout.split('\n').find((l) => l.startsWith('{"type":"plan"'));
      expect(line, headless.stderr).toBeDefined();
      const plan = JSON.parse(line!) as PlanEvent;
      expect(asListed(wizard)).toEqual(asListed(plan));
      expect(titles(wizard)).toEqual(titles(plan));
      // A stop is a stop through either door, with the same words.
      expect(wizard.stop?.message).toBe(plan.stop?.message);
      // apt's 11.8 serves TF 2.12 exactly: cuDNN alone, into a folder of its own (no toolkit, nothing in /usr).
      if (name === "a distribution's CUDA (apt's 11.8), no cuDNN") expect(plan.steps.map((s) => s.id)).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'verify']);

      // The scan screen: Repair it first, and the first cause wrapped whole, never cut at the screen's edge.
      const controller = new WizardController(services);
      const ui = render(
        <UiContext.Provider value={{ t: en, unicode: true }}>
          <App controller={controller} />
        </UiContext.Provider>,
      );
      void controller.start();
      const frame = await waitForFrame(ui.lastFrame, 'New setup', 20_000);
      expect(frame).toMatch(/❯ Repair it[^\n]*\n\s+New setup/);
      expect(frame.replace(/\s+/g, ' ')).toContain(scan.problems[0].title.replace(/\s+/g, ' '));
      // Every row of the causes at their indent: a cause that wraps keeps it.
      const rows = frame.split('\n');
      const causes = rows.slice(rows.findIndex((r) => /problems? found/.test(r)) + 1, rows.findIndex((r) => r.startsWith('What would you like')));
      for (const r of causes.filter((r) => r.trim())) expect(r, frame).toMatch(/^ {2,3}\S/);
      ui.unmount();
    }, 60_000);
  }
});
