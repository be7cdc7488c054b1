import type { GlobalOptions } from './cli/args.js';
import type { CommandIO } from './cli/context.js';
import type { Host } from './host.js';

export async function startWizard(_options: { globals: GlobalOptions; host: Host; io: CommandIO }): Promise<number> {
  _options.io.stderr.write('The wizard is not built yet; use the headless commands (cudawiz --help).\n');
  return 2;
}
