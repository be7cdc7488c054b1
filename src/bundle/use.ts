// What `install --from DIR` and `repair --from DIR` take from a bundle before any plan is made: the
// bundle itself (opened and every file re-hashed, or refused), and the TensorFlow version and route
// it was made for where the command did not say them.
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { openBundle, type OpenBundle } from './check.js';
import type { RouteId } from '../routes/index.js';

export interface BundleUse {
  bundle: OpenBundle;
  tf: string;
  route: RouteId;
  /** The redist release the bundle holds: the plan keeps it whatever the driver would choose. */
  pinRelease?: string;
}

export async function useBundle(dir: string, want: { catalog: Catalog; redist: RedistCatalog; os: OsName; tf?: string; route?: RouteId }): Promise<BundleUse> {
  const bundle = await openBundle(dir, want);
  const m = bundle.manifest;
  return { bundle, tf: want.tf ?? m.tensorflow, route: m.route, pinRelease: m.route === 'redist' ? m.cuda : undefined };
}
