// A plan that will stop is not offered as if it would run: on a machine without a GPU (no nvidia-smi
// at all), the wizard's plan screen says where it stops and the fix, marks the later steps as not
// reached, and offers only Go back and Quit (exit 1) — never "Go ahead". The real services and plan.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { App } from '../../components/App.js';
import { UiContext } from '../../components/UiContext.js';
import { realHost } from '../../src/host.js';
import { en } from '../../src/i18n/en.js';
import { WizardController } from '../../src/wizard/controller.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { KEY, press, waitForFrame } from '../helpers/ink.js';
import { startMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

async function noGpuMachine() {
  const home = await tempDir('cw-no-gpu-');
  // Nothing on PATH: no nvidia-smi (and no Python), whatever this host has.
  const bin = path.join(home, 'bin');
  await mkdir(bin);
  const host = { ...realHost({ HOME: home, PATH: bin }), os: 'linux' as const, home };
  // The loopback mirror, empty: a size the plan asks for is unknown, and nothing leaves this machine.
  const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const services = realWizardServices({ globals: { cudaRoot: path.join(home, 'cuda'), cacheDir: path.join(home, 'cache'), mirror: mirror.url } as never, host });
  const controller = new WizardController(services);
  const ui = render(
    <UiContext.Provider value={{ t: en, unicode: true }}>
      <App controller={controller} />
    </UiContext.Provider>,
  );
  void controller.start();
  return { home, controller, mirror, ...ui };
}

/** New setup (after Repair it) → TF 2.3 (one route: the plan comes next) → the plan screen. */
async function toPlan(m: Awaited<ReturnType<typeof noGpuMachine>>): Promise<string> {
  // The doctor finds no GPU: Repair it comes first; New setup is the second answer.
  await waitForFrame(m.lastFrame, /❯ Repair it/);
  await press(m.stdin, KEY.down, m.lastFrame, /❯ New setup/);
  let frame = await press(m.stdin, KEY.enter, m.lastFrame, 'Which TensorFlow version?');
  const focused = (f: string) => /❯ TensorFlow (\S+)/.exec(f)?.[1];
  for (let i = 0; i < 40 && focused(frame) !== '2.3.0'; i++) {
    const was = focused(frame);
    m.stdin.write(KEY.down);
    frame = await waitForFrame(m.lastFrame, { test: (f: string) => focused(f) !== was } as RegExp);
  }
  expect(focused(frame)).toBe('2.3.0');
  m.stdin.write(KEY.enter);
  return waitForFrame(m.lastFrame, 'The plan for TensorFlow 2.3.0', 50_000);
}

describe('the plan screen over a plan that will stop (no GPU)', () => {
  it('says the stop and its fix, marks later steps not reached, and has no Go ahead', async () => {
    const m = await noGpuMachine();
    const frame = await toPlan(m);
    expect(frame).not.toContain('Go ahead');
    expect(frame).toMatch(/✗ 1\. Check this machine — will stop: /);
    expect(frame).toMatch(/Download the CUDA installer \(not reached\)/);
    expect(frame).toMatch(/9\. Verify \(not reached\)/);
    expect(frame).toMatch(/✗ Will stop at "Check this machine": /);
    expect(frame).toMatch(/→ .*driver/);
    expect(frame).toMatch(/❯ Go back\s+Quit/);
    // Enter on "Go ahead"'s old place goes back, never runs: the version list again, nothing written.
    await press(m.stdin, KEY.enter, m.lastFrame, 'Which TensorFlow version?');
    expect(existsSync(path.join(m.home, 'cuda'))).toBe(false);
    expect(existsSync(path.join(m.home, '.config'))).toBe(false);
    m.unmount();
    await m.mirror.close();
  });

  it('Quit ends the wizard with 1 (a problem found), and Esc goes back', async () => {
    const m = await noGpuMachine();
    await toPlan(m);
    await press(m.stdin, KEY.esc, m.lastFrame, 'Which TensorFlow version?');
    // The list is back, its newest version first: it has routes to choose; the recommended one stops the same way.
    await press(m.stdin, KEY.enter, m.lastFrame, 'recommended');
    m.stdin.write(KEY.enter);
    const frame = await waitForFrame(m.lastFrame, /✗ Will stop at "[^"]+": No NVIDIA driver/, 50_000);
    expect(frame).not.toContain('Go ahead');
    // The confirm intent itself refuses a plan that will stop: no run starts, the screen stays.
    await m.controller.confirm();
    expect(m.controller.getState().screen).toBe('plan');
    await press(m.stdin, KEY.down, m.lastFrame, /❯ Quit/);
    m.stdin.write(KEY.enter);
    expect(await m.controller.exited).toBe(1);
    m.unmount();
    await m.mirror.close();
  });
});
