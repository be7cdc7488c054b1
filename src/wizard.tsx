// The wizard's entry: mounts the Ink App over a controller whose services are the real ones.
// Start-up: the first frame (title and the scan's spinner) is drawn before the services load; they
// pull in the probes, the planner and the downloader, and load while the spinner turns.
import { render } from 'ink';
import { App } from '../components/App.js';
import { UiContext } from '../components/UiContext.js';
import type { GlobalOptions } from './io/flags.js';
import { prepareCatalog } from './cli/catalog.js';
import type { FirstFrame } from './cli/first-frame.js';
import { unicodeSafe } from './io/output.js';
import type { CommandIO } from './io/context.js';
import type { Catalog } from './catalog/schema.js';
import type { Host } from './host.js';
import { en } from './i18n/en.js';
import { zh } from './i18n/zh.js';
import { WizardController, type WizardServices } from './wizard/controller.js';

/** The real services, loaded on first use; scan() is the first call, so the others find them loaded. */
function lazyServices(options: { globals: GlobalOptions; host: Host; catalog?: Catalog }): WizardServices {
  let real: WizardServices | undefined;
  const catalogReady = options.catalog ?? prepareCatalog(undefined).then((catalog) => catalog());
  const ready = Promise.all([import('./wizard/services.js'), catalogReady]).then(([m, catalog]) => (real = m.realWizardServices({ ...options, catalog })));
  const loaded = (): WizardServices => {
    if (!real) throw new Error('the wizard asked for its services before its scan finished');
    return real;
  };
  return {
    scan: async (signal) => (await ready).scan(signal),
    choices: (scan) => loaded().choices(scan),
    routes: (tf) => loaded().routes(tf),
    // Every member of the real services passes through, the optional ones too: a member left out here
    // is a screen part the real wizard never shows (the route sizes and the bundles in Downloads were).
    routeSizes: (tf) => loaded().routeSizes?.(tf) ?? {},
    bundles: async (tf) => (await ready).bundles?.(tf) ?? [],
    run: async (tf, mode, o) => (await ready).run(tf, mode, o),
    whatNow: (tf) => loaded().whatNow(tf),
  };
}

export async function startWizard(options: { globals: GlobalOptions; host: Host; io: CommandIO; firstFrame?: FirstFrame }): Promise<number> {
  const { globals, host, io } = options;
  // An overlay is validated before the first frame: a bad one ends the run with its message (exit 2).
  const catalog = globals.catalog ? (await prepareCatalog(globals.catalog))() : undefined;
  const controller = new WizardController(lazyServices({ globals, host, catalog }));
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
