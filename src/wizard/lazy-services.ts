// The wizard's services as the entry mounts them: the real ones (./services.ts) load while the scan's
// spinner turns — they pull in the probes, the planner and the downloader — and every member passes
// through. Typed `Required`: a member left out here is a compile error, not a screen part the real
// wizard silently never shows (the route sizes, the bundles in Downloads and the route notes were).
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import type { GlobalOptions } from '../io/flags.js';
import type { WizardServices } from './controller.js';

/**
 * The real services, loaded on first use; scan() is the first call, so the others find them loaded.
 * `catalog`: the one to plan from, or its load still under way (the entry starts it before the first frame).
 */
export function lazyServices(options: { globals: GlobalOptions; host: Host; catalog: Catalog | Promise<Catalog> }): Required<WizardServices> {
  let real: Required<WizardServices> | undefined;
  const ready = Promise.all([import('./services.js'), options.catalog]).then(([m, catalog]) => (real = m.realWizardServices({ ...options, catalog })));
  const loaded = (): Required<WizardServices> => {
    if (!real) throw new Error('the wizard asked for its services before its scan finished');
    return real;
  };
  return {
    scan: async (signal) => (await ready).scan(signal),
    choices: (scan) => loaded().choices(scan),
    routes: (tf) => loaded().routes(tf),
    routeSizes: (tf) => loaded().routeSizes(tf),
    routeNotes: (tf) => loaded().routeNotes(tf),
    bundles: async (tf) => (await ready).bundles(tf),
    run: async (tf, mode, o) => (await ready).run(tf, mode, o),
    whatNow: (tf) => loaded().whatNow(tf),
  };
}
