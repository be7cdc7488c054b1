// The wizard's entry: mounts the Ink App over a controller whose services are the real ones.
import { render } from 'ink';
import { App } from '../components/App.js';
import { UiContext } from '../components/UiContext.js';
import type { GlobalOptions } from './cli/args.js';
import { unicodeSafe } from './cli/output.js';
import type { CommandIO } from './cli/context.js';
import type { Host } from './host.js';
import { en } from './i18n/en.js';
import { zh } from './i18n/zh.js';
import { WizardController } from './wizard/controller.js';
import { realWizardServices } from './wizard/services.js';

export async function startWizard(options: { globals: GlobalOptions; host: Host; io: CommandIO }): Promise<number> {
  const { globals, host, io } = options;
  const controller = new WizardController(realWizardServices({ globals, host }));
  const t = globals.lang === 'zh' ? zh : en;
  const app = render(
    <UiContext.Provider value={{ t, unicode: unicodeSafe(host.env) }}>
      <App controller={controller} />
    </UiContext.Provider>,
    { stdout: io.stdout as NodeJS.WriteStream, stdin: io.stdin as NodeJS.ReadStream, exitOnCtrlC: false, maxFps: 10, patchConsole: false },
  );
  void controller.start();
  const code = await controller.exited;
  // Unmount and return at once: waiting on waitUntilExit here can leave nothing on the event loop,
  // and Node would end the process with 0 before our code is set.
  app.unmount();
  return code;
}
