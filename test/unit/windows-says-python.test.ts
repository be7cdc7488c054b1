// Windows says what Windows needs (#40), as data on Linux: the seed's user (TF 2.3, an RTX 2060, no
// Python yet) reads the Python range TF 2.3 takes in the doctor, in the plan and on the wizard's Done
// screen; the plan says the toolkit route needs an administrator; install --help shows Windows examples;
// the PATH question is asked in plain words.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { commandHelp } from '../../src/cli/help.js';
import { stepsText } from '../../src/i18n/steps.js';
import { probeMachine } from '../../src/probe/index.js';
import { whatNowFor } from '../../src/wizard/services.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { seedLaptop } from '../fixtures/seed-laptop.js';

type Plan = { type: 'plan'; steps: { id: string; reason?: string }[] };

describe("the seed's Windows laptop before Python is installed (TF 2.3)", () => {
  it('the doctor names the range: "Install 64-bit Python 3.5–3.8 for TF 2.3", never a pass', async () => {
    const m = await seedLaptop({ noPython: true });
    const r = await runCli(['doctor', '--tf', '2.3', '--json'], { host: m.host });
    const python = (JSON.parse(r.stdout).findings as { id: string; status: string; title: string; fix: string }[]).find((f) => f.id === 'python')!;
    expect(python.status).toBe('fail');
    expect(python.title).toBe('No Python interpreter found: TensorFlow 2.3 needs 64-bit Python 3.5–3.8');
    expect(python.fix).toBe('Install 64-bit Python 3.5–3.8 for TF 2.3 (python.org), or pass --python PATH.');
  });

  it("the plan's Python step says the range and python.org (no distribution's python3.8), and the installer step needs an administrator", async () => {
    const m = await seedLaptop({ noPython: true });
    const r = await runCli(['install', '--tf', '2.3', '--dry-run', '--json', '--configure-env', 'no', '--cache-dir', await tempDir('cw-cache-')], { host: m.host });
    const plan = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'plan') as Plan;
    const reason = (id: string) => plan.steps.find((s) => s.id === id)?.reason ?? '';
    expect(reason('python')).toContain('no Python found: TensorFlow 2.3 needs 64-bit Python 3.5–3.8');
    expect(reason('python')).toContain('py -3.8 -m venv');
    expect(reason('python')).not.toContain('distribution');
    expect(reason('install-cuda')).toMatch(/needs an administrator/);
  });

  it('the Done screen is never "ready" without Python: it names the range TF 2.3 needs, and no pip for a TF not yet installable', async () => {
    const m = await seedLaptop({ noPython: true });
    const catalog = builtinCatalog();
    const facts = await probeMachine(m.host, { cudaRoot: 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA', catalog });
    const next = whatNowFor(catalog, 'windows', '2.3.0', facts);
    expect(next.python).toBe('TensorFlow 2.3 needs 64-bit Python 3.5–3.8, and this machine has none yet: install one (python.org)');
    expect(next.pip).toBe('tensorflow==2.3.0');
    // With Python 3.8 and TF 2.3 already installed: nothing to install, no Python to add.
    const ready = await seedLaptop();
    expect(whatNowFor(catalog, 'windows', '2.3.0', await probeMachine(ready.host, { cudaRoot: 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA', catalog }))).toEqual({});
  });

  it('install --help on Windows shows a Windows example; the PATH question is plain', () => {
    expect(commandHelp('install', 'windows')).toContain('cudnn-10.1-windows10-x64-v7.6.5.32.zip');
    expect(commandHelp('install', 'windows')).not.toContain('~/Downloads');
    expect(commandHelp('install', 'linux')).toContain('~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz');
    expect(stepsText.envQuestionPath('10.1', true)).toBe('Add CUDA 10.1 to the PATH for all users?');
  });
});
