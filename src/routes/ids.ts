// The routes, named once, in the order every list shows them: the wizard's choice, `requirements`,
// the CLI's --route values and help, the bundle manifest's schema. Pure data: the bin and the string
// tables read it without loading anything else. A new route starts here (docs/architecture.md, "Add a route").
export const ROUTE_IDS = ['redist', 'pip', 'toolkit'] as const;

export type RouteId = (typeof ROUTE_IDS)[number];

/**
 * The route that plans even where no route is offered for a TF (native Windows after 2.10): its
 * preflight says why it stops and what to do instead. The last of the list.
 */
export const FALLBACK_ROUTE: RouteId = ROUTE_IDS[ROUTE_IDS.length - 1];

export function isRouteId(value: unknown): value is RouteId {
  return typeof value === 'string' && (ROUTE_IDS as readonly string[]).includes(value);
}

/** `redist|pip|toolkit`: the --route placeholder in usage and help. */
export const ROUTE_CHOICES = ROUTE_IDS.join('|');
