// The built-in catalog as parsed and validated when the CLI was bundled: scripts/bundle-options.mjs
// fills this in, so a run without an overlay needs no validator (zod) at start-up. Undefined when
// running from source; then the catalog is validated as it loads, as it always is with an overlay.
import type { Catalog } from './schema.js';

export const prebuiltCatalog: Catalog | undefined = undefined;
