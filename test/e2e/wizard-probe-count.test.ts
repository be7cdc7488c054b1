// Python and TensorFlow are probed once per wizard run. A real `import tensorflow` takes seconds, so
// the laptop's TensorFlow here is slow to import and counts its imports: from the scan through the
// version, the plan and "Go ahead" to the first step, exactly one; the verify step's fresh import
// after the install is the only other.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/cli/args.js';
import { realHost } from '../../src/host.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import { WizardController, type WizardState } from '../../src/wizard/controller.js';
import { realWizardServices } from '../../src/wizard/services.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { laptop, type Laptop } from '../helpers/laptop.js';

let machine: Laptop | undefined;
afterEach(async () => {
  await machine?.mirror.close();
  machine = undefined;
});

/** Resolves with the first state that passes `test`, as the controller publishes them. */
function stateWhere(controller: WizardController, test: (s: WizardState) => boolean): Promise<WizardState> {
  return new Promise((resolve) => {
    if (test(controller.getState())) return resolve(controller.getState());
    const stop = controller.subscribe(() => {
      const s = controller.getState();
      if (test(s)) {
        stop();
        resolve(s);
      }
    });
  });
}

const imports = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('one Python probe per wizard run', () => {
  it('scan → version → plan → Go ahead → first step: TensorFlow is imported once; verify imports it afresh', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-slow-import') });
    const log = path.join(machine.home, 'tf-imports.log');
    const env = { ...machine.env, CUDAWIZ_FIXTURE_TF_IMPORTS: log, CUDAWIZ_FIXTURE_TF_IMPORT_SECONDS: '2' };
    const { globals } = parseArgv(machine.globals, env, false);
    // The real doctor, counted: one TF pick (its routes, their sizes, the plan and its preview) runs it once.
    let doctorRuns = 0;
    const doctor: typeof diagnose = (...args) => (doctorRuns++, diagnose(...args));
    const controller = new WizardController(realWizardServices({ globals, host: { ...realHost(env), home: machine.home }, doctor }));

    await controller.start();
    expect(controller.getState()).toMatchObject({ screen: 'scan', scan: { installedTf: '2.3.0' } });
    await controller.chooseMode('setup');
    expect(controller.getState().screen).toBe('choose');
    await controller.pickTf('2.3.0');
    expect(controller.getState().screen).toBe('plan');
    expect(doctorRuns).toBe(1);
    // Back and the same TF again: the target of that pick is kept, the doctor not run again.
    controller.back();
    await stateWhere(controller, (s) => s.screen === 'choose');
    await controller.pickTf('2.3.0');
    expect(controller.getState().screen).toBe('plan');
    expect(doctorRuns).toBe(1);
    const running = controller.confirm();
    await stateWhere(controller, (s) => s.screen === 'run' && s.runner.steps.some((x) => x.id === 'preflight' && x.status === 'done'));
    expect(await imports(log)).toBe(1);

    // The loader-path question: say no; then the install finishes and verify imports TF in a fresh process.
    await stateWhere(controller, (s) => s.screen === 'run' && s.waiting?.kind === 'confirm');
    controller.answer('no');
    await running;
    expect(controller.getState()).toMatchObject({ screen: 'done', result: { ok: true } });
    expect(await imports(log)).toBe(2);
  }, 120_000);
});

describe('one Python probe per headless run', () => {
  it('install --yes: the plan imports TensorFlow once before its steps, and verify once afresh', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-slow-import') });
    const log = path.join(machine.home, 'tf-imports.log');
    const env = { ...machine.env, CUDAWIZ_FIXTURE_TF_IMPORTS: log, CUDAWIZ_FIXTURE_TF_IMPORT_SECONDS: '2' };
    const r = await runCli(['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', machine.archive, ...machine.globals], { host: { ...realHost(env), home: machine.home } });
    expect(r.code, r.stderr).toBe(0);
    expect(await imports(log)).toBe(2);
    // repair afterwards, on a healthy machine: the doctor's probe serves its whole plan, and its proof
    // (the doctor's verdicts as a new shell sees them, unchanged here) reuses that probe: one import.
    const before = await imports(log);
    const again = await runCli(['repair', '--yes', '--configure-env', 'no', ...machine.globals], { host: { ...realHost(env), home: machine.home } });
    // This host's Python is outside TF 2.3's range (3.5–3.8): repair leaves that to the user and says so (exit 3).
    expect(again.code, again.stderr).toBe(3);
    expect(again.stdout).toContain('what is left to you is listed above');
    expect((await imports(log)) - before).toBe(1);
  }, 120_000);
});
