// Every route's facts, in the one order of ROUTE_IDS: what `requirements` lists, `download --tf`
// bundles, `install --from` checks and the wizard sizes. A Record over RouteId, so a new id in ids.ts
// that has no facts here fails to compile.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { routesText } from '../i18n/routes.js';
import { ROUTE_IDS, type RouteId } from './ids.js';
import type { RouteFacts, RouteFiles, RouteInput } from './files.js';
import { pipFacts } from './pip.js';
import { redistFacts } from './redist.js';
import { toolkitFacts } from './toolkit.js';

export { ROUTE_IDS, FALLBACK_ROUTE, ROUTE_CHOICES, isRouteId, type RouteId } from './ids.js';
export { onlyKinds, provenSmaller, type RouteFacts, type RouteFile, type RouteFiles, type RouteInput, type RouteNeeds } from './files.js';

const FACTS: Record<RouteId, RouteFacts> = { redist: redistFacts, pip: pipFacts, toolkit: toolkitFacts };

/** One route's facts. */
export const routeFacts = (id: RouteId): RouteFacts => FACTS[id];

/** Every route's facts, in the order of ROUTE_IDS. */
export const ALL_ROUTE_FACTS: readonly RouteFacts[] = ROUTE_IDS.map(routeFacts);

export interface RouteFilesOptions {
  /** The redist release a bundle was made with, or a repaired toolkit has. */
  pinRelease?: string;
  /** The machine's driver: the redist release it runs. */
  driver?: string;
  /** TF's requirements already resolved (a target's): not resolved again. */
  req?: Requirements;
}

function inputFor(catalog: Catalog, redist: RedistCatalog, tf: string, os: OsName, options: RouteFilesOptions): RouteInput {
  return { catalog, redist, req: options.req ?? requirementsFor(catalog, tf, os), tf, os, pinRelease: options.pinRelease, driver: options.driver };
}

/** The files one route needs for TF `tf` on `os`. */
export function routeFiles(catalog: Catalog, redist: RedistCatalog, tf: string, os: OsName, route: RouteId, options: RouteFilesOptions = {}): RouteFiles {
  return routeFacts(route).files(inputFor(catalog, redist, tf, os, options));
}

/** Every route side by side, in the order of ROUTE_IDS. */
export function allRouteFiles(catalog: Catalog, redist: RedistCatalog, tf: string, os: OsName, options: RouteFilesOptions = {}): RouteFiles[] {
  const input = inputFor(catalog, redist, tf, os, options);
  return ALL_ROUTE_FACTS.map((r) => r.files(input));
}

/**
 * What a command says when it took the recommended route (no --route): which route and why, then how to
 * take another — the same lines from `install` and `download --tf`.
 */
export function routeTakenLines(tf: string, route: RouteId, offered: readonly RouteId[], why: string): string[] {
  const others = offered.filter((r) => r !== route);
  return [routesText.took(route, why), ...(others.length ? [routesText.others(tf, others.map((r) => `--route ${r}`).join(', '))] : [])];
}
