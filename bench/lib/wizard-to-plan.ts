// The wizard's services from start to the plan screen, on a laptop whose TensorFlow takes
// $CUDAWIZ_FIXTURE_TF_IMPORT_SECONDS to import: scan → New setup → TF 2.3 → the plan's preview.
// Prints {"ms": N} — the time from start() to the plan, as the user waits for it.
// Usage (bundled by bench/wizard-plan.mjs): node wizard-to-plan.mjs HOME CUDA_ROOT
import { performance } from 'node:perf_hooks';
import { parseArgv } from '../../src/cli/args.js';
import { realHost } from '../../src/host.js';
import { WizardController } from '../../src/wizard/controller.js';
import { realWizardServices } from '../../src/wizard/services.js';

const [home, cudaRoot] = process.argv.slice(2);
const env = { ...process.env } as Record<string, string>;
const { globals } = parseArgv(['--cuda-root', cudaRoot, '--cache-dir', `${home}/cache`], env, false);
const controller = new WizardController(realWizardServices({ globals, host: { ...realHost(env), home } }));
const start = performance.now();
await controller.start();
await controller.chooseMode('setup');
await controller.pickTf('2.3.0');
const ms = performance.now() - start;
const s = controller.getState();
if (s.screen !== 'plan') {
  process.stderr.write(`the wizard stopped at ${s.screen}: ${JSON.stringify(s).slice(0, 500)}\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ ms })}\n`);
