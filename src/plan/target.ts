// One target per request, resolved once for both doors (the wizard and the headless commands) and
// handed down: the TF asked for, its requirements here, the machine's facts and the doctor's findings
// on them for that TF, and every route's files for it (the redist release chosen with this driver).
// Everything after it (the routes offered, the recommended one, the plan, its preview) reads it; none
// resolves the TF or runs the doctor again.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { diagnose } from '../doctor/diagnose.js';
import type { Finding } from '../doctor/finding.js';
import type { Host } from '../host.js';
import type { OsName } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { allRouteFiles, type RouteFiles, type RouteId } from '../routes/index.js';

/** What every route is chosen against: the catalogs and the machine. */
export interface PlanMachine {
  catalog: Catalog;
  host: Host;
  /** The redist catalog, loaded the first time a route asks for it. */
  redist(): RedistCatalog;
  /** The doctor (the real one unless a test counts its runs with a wrapper around it). */
  doctor?: typeof diagnose;
}

export interface PlanTarget {
  /** The TF as asked ("2.12", "2.16.1"). */
  tf: string;
  os: OsName;
  req: Requirements;
  /** The machine as the doctor saw it for this request; absent where no probe was made (a dry run on another OS). */
  facts?: MachineFacts;
  /** The doctor's findings on `facts` for this TF: run once, here. */
  findings?: readonly Finding[];
  /** The driver the redist release was chosen with. */
  driver?: string;
  /** Every route's files for this TF here, in the order of ROUTE_IDS. */
  routes: readonly RouteFiles[];
}

/** The target for `tf` on this machine; `facts`: the scan's or the command's probe. */
export function resolveTarget(machine: PlanMachine, tf: string, facts?: MachineFacts, options: { pinRelease?: string } = {}): PlanTarget {
  const os = machine.host.os;
  const req = requirementsFor(machine.catalog, tf, os);
  const driver = facts ? (facts.wsl?.windowsDriverVersion ?? facts.gpu.driver.version ?? undefined) : undefined;
  const findings = facts ? Object.freeze((machine.doctor ?? diagnose)(machine.catalog, facts, { tf, os })) : undefined;
  const routes = allRouteFiles(machine.catalog, machine.redist(), tf, os, { req, driver, pinRelease: options.pinRelease });
  return Object.freeze({ tf, os, req, facts, findings, driver, routes: Object.freeze(routes) });
}

/** One route's files in the target. */
export const targetRoute = (target: PlanTarget, id: RouteId): RouteFiles => target.routes.find((r) => r.route === id)!;
