import { writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { ProgressLine } from '../../components/ProgressLine.js';
import { finishedPrefix } from '../../components/finished.js';
import { StepView } from '../../components/StepView.js';
import { UiContext } from '../../components/UiContext.js';
import { en } from '../../src/i18n/en.js';
import { zh } from '../../src/i18n/zh.js';
import { initialRunnerState, reduceRunner, type RunnerEvent } from '../../src/plan/events.js';
import { NeedsInput, runPlan, type Step } from '../../src/plan/runner.js';
import { WizardController, type ScanSummary, type WizardServices } from '../../src/wizard/controller.js';
import { KEY, press, waitForFrame } from '../helpers/ink.js';
import { tempDir } from '../helpers/tmp.js';

const seedLaptop: ScanSummary = {
  lines: [
    { label: 'gpu', status: 'pass', text: 'NVIDIA GeForce RTX 2060 (compute capability 7.5)' },
    { label: 'driver', status: 'pass', text: '456.71' },
    { label: 'toolkits', status: 'warn', text: 'CUDA 11.0' },
    { label: 'cudnn', status: 'warn', text: 'cuDNN 8.0.4 in CUDA 11.0' },
    { label: 'python', status: 'pass', text: 'Python 3.8.5, TensorFlow 2.3.0' },
  ],
  problems: [{ title: 'CUDA 10.1 is missing (TensorFlow 2.3 loads cudart64_101.dll)', fix: 'install CUDA 10.1 beside 11.0' }],
  canRepair: true,
  installedTf: '2.3.0',
};

/** Services over a real plan of real file-writing steps in a temp dir; the archive step asks. */
function servicesIn(dir: string): WizardServices {
  const exists = (p: string) => access(p).then(() => true, () => false);
  const ctx: { archive?: string } = {};
  const steps: Step<typeof ctx>[] = [
    {
      id: 'install-cuda',
      title: 'Install CUDA 10.1',
      check: async () => ({ done: await exists(path.join(dir, 'cuda')) }),
      run: async (_c, io) => {
        io.progress({ bytes: 50, total: 100 });
        await writeFile(path.join(dir, 'cuda'), '10.1');
        return { summary: 'installed' };
      },
    },
    {
      id: 'import-cudnn',
      title: 'Import cuDNN 7.6.5',
      check: async () => ({ done: await exists(path.join(dir, 'cudnn')) }),
      run: async (c) => {
        if (!c.archive) throw new NeedsInput({ kind: 'cudnn-archive', file: 'cudnn-10.1-windows10-x64-v7.6.5.32.zip', page: 'https://developer.nvidia.com/rdp/cudnn-archive', downloadsDir: dir, why: 'TensorFlow 2.3 loads cudnn64_7.dll' });
        await writeFile(path.join(dir, 'cudnn'), c.archive);
        return { summary: `copied from ${c.archive}` };
      },
      accept: (c, answer) => {
        c.archive = answer;
      },
    },
  ];
  return {
    scan: async () => seedLaptop,
    choices: () => ({
      choices: [
        { version: '2.10.0', cuda: '11.2', cudnn: '8.1', python: '3.7–3.10' },
        { version: '2.3.0', cuda: '10.1', cudnn: '7.6', python: '3.5–3.8' },
        { version: '2.11.0', cuda: '12.5', cudnn: '9.3', python: '3.7–3.10', blocked: 'no native Windows GPU support after 2.10: use WSL2' },
      ],
      defaultVersion: '2.3.0',
    }),
    routes: (tf) => (tf === '2.10.0' ? ['pip', 'toolkit'] : ['toolkit']),
    run: (_tf, _mode, o) => runPlan(steps, ctx, { signal: o.signal, dryRun: o.dryRun, onEvent: o.onEvent, ask: o.ask }),
    whatNow: (tf) => ({ pip: `tensorflow==${tf}` }),
  };
}

function mount(controller: WizardController, t = en) {
  return render(
    <UiContext.Provider value={{ t, unicode: true }}>
      <App controller={controller} />
    </UiContext.Provider>,
  );
}

/** The wizard on the seed's laptop, moved by keys from the scan to the version list. */
async function atVersionList() {
  const controller = new WizardController(servicesIn(await tempDir()));
  const mounted = mount(controller);
  await controller.start();
  await waitForFrame(mounted.lastFrame, 'Repair it');
  await press(mounted.stdin, KEY.down, mounted.lastFrame, /❯ New setup/);
  await press(mounted.stdin, KEY.enter, mounted.lastFrame, 'Which TensorFlow version?');
  return mounted;
}

describe('the wizard, driven by keys', () => {
  it("walks the seed's laptop from scan to a finished setup of TF 2.3, asking for the cuDNN zip", async () => {
    const dir = await tempDir();
    const controller = new WizardController(servicesIn(dir));
    const { stdin, lastFrame, unmount } = mount(controller);
    await controller.start();
    let frame = await waitForFrame(lastFrame, 'Repair it');
    expect(frame).toContain('RTX 2060');
    expect(frame).toContain('1 problem found');
    await press(stdin, KEY.down, lastFrame, /❯ New setup/);
    frame = await press(stdin, KEY.enter, lastFrame, 'Which TensorFlow version?');
    expect(frame).toContain('cannot run here: 2.11.0');
    expect(frame).toMatch(/❯ TensorFlow 2\.3\.0 +CUDA 10\.1 · cuDNN 7\.6/);
    frame = await press(stdin, KEY.enter, lastFrame, 'The plan for TensorFlow 2.3.0');
    expect(frame).toContain('1. Install CUDA 10.1');
    frame = await press(stdin, KEY.enter, lastFrame, 'Pick exactly this file: cudnn-10.1-windows10-x64-v7.6.5.32.zip');
    expect(frame).toContain('TensorFlow 2.3 loads cudnn64_7.dll');
    for (const ch of '/dl/cudnn.zip') stdin.write(ch);
    await waitForFrame(lastFrame, '/dl/cudnn.zip');
    frame = await press(stdin, KEY.enter, lastFrame, 'Your machine is ready');
    expect(frame).toContain('pip install tensorflow==2.3.0');
    stdin.write('q');
    expect(await controller.exited).toBe(0);
    unmount();
  });

  it('where a pip route exists, asks how to get CUDA first (pip recommended), and Esc goes back to the versions', async () => {
    const { stdin, lastFrame, unmount } = await atVersionList();
    await press(stdin, KEY.down, lastFrame, /❯ TensorFlow 2\.10\.0/);
    let frame = await press(stdin, KEY.enter, lastFrame, 'How should TensorFlow 2.10.0 get CUDA and cuDNN?');
    expect(frame).toMatch(/❯ pip wheels in a virtual environment \(changes nothing outside it\) — recommended/);
    frame = await press(stdin, KEY.esc, lastFrame, 'Which TensorFlow version?');
    unmount();
  });

  it('Esc on the version list goes back to the scan', async () => {
    const { stdin, lastFrame, unmount } = await atVersionList();
    const frame = await press(stdin, KEY.esc, lastFrame, 'Repair it');
    expect(frame).not.toContain('Which TensorFlow version?');
    unmount();
  });

  it('speaks Simplified Chinese when asked', async () => {
    const controller = new WizardController(servicesIn(await tempDir()));
    const { lastFrame, unmount } = mount(controller, zh);
    await controller.start();
    const frame = await waitForFrame(lastFrame, '修复');
    expect(frame).toContain('发现 1 个问题');
    unmount();
  });
});

describe('the run screen', () => {
  it('sends finished steps to scrollback only as a growing prefix, so none is printed twice', () => {
    const events: RunnerEvent[] = [
      { type: 'plan', steps: [{ id: 'a', title: 'A', done: false }, { id: 'b', title: 'B', done: false }, { id: 'c', title: 'C', done: true }] },
      { type: 'step-start', id: 'a' },
    ];
    let state = events.reduce(reduceRunner, initialRunnerState);
    expect(finishedPrefix(state)).toEqual([]);
    state = reduceRunner(state, { type: 'step-done', id: 'a' });
    expect(finishedPrefix(state).map((s) => s.id)).toEqual(['a']);
    state = reduceRunner(reduceRunner(state, { type: 'step-start', id: 'b' }), { type: 'step-done', id: 'b' });
    expect(finishedPrefix(state).map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });

  it('shows bytes, speed, ETA and where a resumed download started', () => {
    const { lastFrame } = render(<ProgressLine progress={{ bytes: 1536 * 1024 * 1024, total: 2560 * 1024 * 1024, speed: 10 * 1024 * 1024, eta: 102, resumedFrom: 1024 * 1024 * 1024 }} />);
    expect(lastFrame()).toContain('60% 1.5 GiB / 2.5 GiB · 10.0 MiB/s · ETA 1m42s · resumed from 1.0 GiB');
  });

  it('keeps finished steps above and shows a failed step with its fix and log', () => {
    const events: RunnerEvent[] = [
      { type: 'plan', steps: [{ id: 'a', title: 'Download CUDA 10.1', done: false }, { id: 'b', title: 'Install CUDA 10.1', done: false }] },
      { type: 'step-start', id: 'a' },
      { type: 'step-done', id: 'a', summary: 'verified sha256' },
      { type: 'step-start', id: 'b' },
      { type: 'step-failed', id: 'b', message: 'The installer exited with 1', fix: 'Read the log below', logFile: '/var/log/cuda-installer.log' },
    ];
    const state = events.reduce(reduceRunner, initialRunnerState);
    expect(finishedPrefix(state).map((s) => s.id)).toEqual(['a', 'b']);
    const { lastFrame } = render(
      <>
        {finishedPrefix(state).map((s) => (
          <StepView key={s.id} step={s} />
        ))}
      </>,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain('✓ Download CUDA 10.1: verified sha256');
    expect(frame).toContain('✗ Install CUDA 10.1');
    expect(frame).toContain('→ Read the log below');
    expect(frame).toContain('log: /var/log/cuda-installer.log');
  });
});
