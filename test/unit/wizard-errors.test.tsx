// Every intent the wizard starts has an error path: whatever a service throws lands on a screen that
// says what went wrong and what to do (q quits with 1), and a service that never answers still
// yields to Ctrl+C. The services are the controller's seam; the plan they run is a real one.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { UiContext } from '../../components/UiContext.js';
import { loadCatalog } from '../../src/catalog/load.js';
import { beyondCatalogError, tfBeyondCatalog } from '../../src/catalog/newer-tf.js';
import { CudawizError } from '../../src/errors.js';
import { en } from '../../src/i18n/en.js';
import { runPlan, type Step } from '../../src/plan/runner.js';
import { WizardController, type ScanSummary, type WizardServices } from '../../src/wizard/controller.js';
import { KEY, press, waitForFrame } from '../helpers/ink.js';

const laptopScan: ScanSummary = {
  lines: [{ label: 'gpu', status: 'pass', text: 'NVIDIA GeForce RTX 2060 (compute capability 7.5)' }],
  problems: [],
  canRepair: true,
  installedTf: '2.3.0',
};

const steps: Step<object>[] = [{ id: 'install-cuda', title: 'Install CUDA 10.1', check: async () => ({ done: false }), run: async () => ({ summary: 'installed' }) }];

function services(over: Partial<WizardServices> = {}): WizardServices {
  return {
    scan: async () => laptopScan,
    choices: () => ({ choices: [{ version: '2.3.0', cuda: '10.1', cudnn: '7.6', python: '3.5–3.8' }], defaultVersion: '2.3.0' }),
    routes: () => ['toolkit'],
    run: (_tf, _mode, o) => runPlan(steps, {}, { signal: o.signal, dryRun: o.dryRun, onEvent: o.onEvent, ask: o.ask }),
    whatNow: (tf) => ({ pip: `tensorflow==${tf}` }),
    ...over,
  };
}

function mount(s: WizardServices) {
  const controller = new WizardController(s);
  const mounted = render(
    <UiContext.Provider value={{ t: en, unicode: true }}>
      <App controller={controller} />
    </UiContext.Provider>,
  );
  void controller.start();
  return { controller, ...mounted };
}

const fails = () => {
  throw new CudawizError('The catalog overlay /home/me/overlay.json is not valid JSON', { fix: 'Fix the JSON syntax and run again.' });
};
/** A bug of ours, thrown as a plain Error with a stack: the user must never see the stack. */
const bug = () => {
  throw new TypeError("Cannot read properties of undefined (reading 'cuda')");
};

/** From the scan, by keys: New setup → the version → (preview) → the plan → Go ahead. */
async function toPlan(m: ReturnType<typeof mount>) {
  await waitForFrame(m.lastFrame, 'Repair it');
  await press(m.stdin, KEY.down, m.lastFrame, /❯ New setup/);
  await press(m.stdin, KEY.enter, m.lastFrame, 'Which TensorFlow version?');
  return press(m.stdin, KEY.enter, m.lastFrame, 'Go ahead?');
}

describe('the wizard when a service fails', () => {
  it('scan throws: says what went wrong and what to do; q quits with 1', async () => {
    const m = mount(services({ scan: async () => fails() }));
    const frame = await waitForFrame(m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('is not valid JSON');
    expect(frame).toContain('→ Fix the JSON syntax and run again.');
    m.stdin.write('q');
    expect(await m.controller.exited).toBe(1);
    m.unmount();
  });

  it('a message with a --mirror password shows it as ***: the screen is written like every printed line', async () => {
    const m = mount(services({ scan: async () => {
      throw new CudawizError('https://ann:s3cret@mirror.lab.example/compute/cuda answered HTTP 500', { fix: 'Check https://ann:s3cret@mirror.lab.example and run again.' });
    } }));
    const frame = await waitForFrame(m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('https://***@mirror.lab.example/compute/cuda answered HTTP 500');
    expect(frame).not.toContain('s3cret');
    m.stdin.write('q');
    expect(await m.controller.exited).toBe(1);
    m.unmount();
  });

  it('choices throws: the error screen, and Esc goes back to the scan', async () => {
    const m = mount(services({ choices: fails }));
    await waitForFrame(m.lastFrame, 'Repair it');
    await press(m.stdin, KEY.down, m.lastFrame, /❯ New setup/);
    let frame = await press(m.stdin, KEY.enter, m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('Esc back');
    frame = await press(m.stdin, KEY.esc, m.lastFrame, 'Repair it');
    expect(frame).not.toContain('cannot go on');
    m.unmount();
  });

  it('routes throws (a bug): a plain sentence and what still helps, never a stack trace', async () => {
    const m = mount(services({ routes: bug }));
    await waitForFrame(m.lastFrame, 'Repair it');
    await press(m.stdin, KEY.down, m.lastFrame, /❯ New setup/);
    await press(m.stdin, KEY.enter, m.lastFrame, 'Which TensorFlow version?');
    const frame = await press(m.stdin, KEY.enter, m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain("Something went wrong inside cudawiz: Cannot read properties of undefined (reading 'cuda')");
    expect(frame).toContain('cudawiz doctor');
    expect(frame).not.toMatch(/\n\s+at /);
    m.stdin.write('q');
    expect(await m.controller.exited).toBe(1);
    m.unmount();
  });

  it('the preview throws on Repair: the error screen instead of a frozen scan', async () => {
    const m = mount(services({ run: async () => bug() }));
    await waitForFrame(m.lastFrame, 'Repair it');
    const frame = await press(m.stdin, KEY.enter, m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('Something went wrong inside cudawiz');
    m.unmount();
  });

  it('the preview says the TF is newer than the catalog: the path, not an error', async () => {
    const catalog = loadCatalog();
    const beyond = tfBeyondCatalog(catalog, '2.22.0', 'linux', { installed: true })!;
    const m = mount(services({ run: async () => { throw beyondCatalogError(beyond, 'linux'); } }));
    await waitForFrame(m.lastFrame, 'Repair it');
    const frame = await press(m.stdin, KEY.enter, m.lastFrame, "cudawiz's catalog ends at");
    expect(frame).toContain('TensorFlow 2.22.0 came later');
    expect(frame).toContain('tensorflow[and-cuda]==2.22.0');
    expect(frame).toMatch(/❯ Set up for TensorFlow 2\.21\.0/);
    m.unmount();
  });

  it('the run throws after Go ahead: the error screen, q quits with 1', async () => {
    let calls = 0;
    const m = mount(
      services({
        run: (tf, mode, o) => {
          if (++calls > 1) throw new CudawizError('Cannot write /usr/local/cuda-10.1: permission denied', { fix: 'Run it again with sudo.' });
          return services().run(tf, mode, o);
        },
      }),
    );
    await toPlan(m);
    const frame = await press(m.stdin, KEY.enter, m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('permission denied');
    expect(frame).toContain('Run it again with sudo.');
    m.stdin.write('q');
    expect(await m.controller.exited).toBe(1);
    m.unmount();
  });

  it('whatNow throws at the end: the error screen, not a crash', async () => {
    const m = mount(services({ whatNow: fails }));
    await toPlan(m);
    const frame = await press(m.stdin, KEY.enter, m.lastFrame, 'cudawiz cannot go on from here');
    expect(frame).toContain('is not valid JSON');
    m.unmount();
  });
});

describe('the wizard when a service never answers', () => {
  const never = (signal: AbortSignal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

  it('a scan that never ends: one Ctrl+C stops with 130', async () => {
    const m = mount(services({ scan: (signal) => never(signal) }));
    await waitForFrame(m.lastFrame, en.scanning);
    m.stdin.write(KEY.ctrlC);
    expect(await m.controller.exited).toBe(130);
    m.unmount();
  });

  it('a plan that is never ready: a spinner says what it waits for, and Ctrl+C stops with 130', async () => {
    const m = mount(services({ run: (_tf, _mode, o) => never(o.signal) }));
    await waitForFrame(m.lastFrame, 'Repair it');
    await press(m.stdin, KEY.enter, m.lastFrame, 'Preparing the plan for TensorFlow 2.3.0');
    m.stdin.write(KEY.ctrlC);
    expect(await m.controller.exited).toBe(130);
    m.unmount();
  });

  it('a step that never ends: Ctrl+C asks, the second stops with 130', async () => {
    let calls = 0;
    const m = mount(services({ run: (tf, mode, o) => (++calls > 1 ? never(o.signal) : services().run(tf, mode, o)) }));
    await toPlan(m);
    await press(m.stdin, KEY.enter, m.lastFrame, en.keysRun);
    await press(m.stdin, KEY.ctrlC, m.lastFrame, 'Stop now?');
    m.stdin.write(KEY.ctrlC);
    expect(await m.controller.exited).toBe(130);
    m.unmount();
  });
});
