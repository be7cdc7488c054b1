// The wizard's entry: mounts the Ink App over a controller whose services are the real ones.
// Start-up: the first frame (title and the scan's spinner) is drawn before the services load
// (src/wizard/lazy-services.ts); they load while the spinner turns.
import { render } from 'ink';
import { App } from '../components/App.js';
import { UiContext } from '../components/UiContext.js';
import type { GlobalOptions } from './io/flags.js';
import { prepareCatalog } from './cli/catalog.js';
import type { FirstFrame } from './cli/first-frame.js';
import { unicodeSafe } from './io/output.js';
import type { CommandIO } from './io/context.js';
import type { Host } from './host.js';
import { en } from './i18n/en.js';
import { zh } from './i18n/zh.js';
import { WizardController } from './wizard/controller.js';
import { lazyServices } from './wizard/lazy-services.js';

export async function startWizard(options: { globals: GlobalOptions; host: Host; io: CommandIO; firstFrame?: FirstFrame }): Promise<number> {
  const { globals, host, io } = options;
  // An overlay is validated before the first frame: a bad one ends the run with its message (exit 2).
  const catalog = globals.catalog ? (await prepareCatalog(globals.catalog))() : undefined;
  const controller = new WizardController(lazyServices({ globals, host, catalog: catalog ?? prepareCatalog(undefined).then((load) => load()) }));
  const t = globals.lang === 'zh' ? zh : en;
  // Ink draws the same frame again where the one drawn before it loaded was (src/cli/first-frame.ts).
  options.firstFrame?.erase();
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
