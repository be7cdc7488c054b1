// `cudawiz download --tf V [--route R] [--os O] --dest DIR`: every file one route needs, verified, in
// one folder with its manifest, for `cudawiz install --from DIR` on a machine with no network. Without
// --route, the route install and the wizard recommend (`recommendRoute`), said with why.
// Progress to stderr as in every download; stdout gets each file and the result (or one JSON document).
import pkg from '../../package.json' with { type: 'json' };
import { makeBundle } from '../bundle/make.js';
import { isRouteId, routeFiles, routeTakenLines, type RouteId } from '../routes/index.js';
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import type { OsName } from '../platform.js';
import { recommendRoute, resolveTarget, type PlanMachine, type RouteChoice } from '../plan/choose.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { osOption } from '../io/flags.js';
import type { CommandContext } from '../io/context.js';
import { EXIT, UsageError } from '../errors.js';
import { formatBytes, parseMirror, resolveCacheDir, type DownloadProgress } from '../fetch/index.js';
import { bundleText } from '../i18n/bundle.js';
import { commandsText } from '../i18n/commands.js';
import { loadRedistCatalog } from '../redist/catalog.js';
import { routeTotal } from '../bundle/describe.js';

/** --route's value: a route id, or undefined (the recommended route, `bundleRoute`). */
export function bundleRouteOption(value: unknown): RouteId | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isRouteId(value)) throw new UsageError(commandsText.badRoute(String(value)), commandsText.badRouteFix);
  return value;
}

/**
 * The route a bundle is made for without --route: the one rule `install` and the wizard take
 * (`recommendRoute`), for the TF on the bundle's OS. The bundle is for another machine, so this one is
 * not probed: the first route offered there (redist where it exists, then pip, the installer last).
 */
export function bundleRoute(catalog: Catalog, redist: RedistCatalog, host: Host, tf: string, os: OsName): RouteChoice {
  const machine: PlanMachine = { catalog, host: { ...host, os }, redist: () => redist };
  return recommendRoute(machine, resolveTarget(machine, tf));
}

export async function runBundle(ctx: CommandContext, deps: { connections: number; reporter: (file: string, write: (line: string) => void) => (p: DownloadProgress) => void }): Promise<number> {
  const tf = typeof ctx.values.tf === 'string' && ctx.values.tf ? ctx.values.tf : undefined;
  if (!tf) throw new UsageError(bundleText.destRequiredFix);
  const given = bundleRouteOption(ctx.values.route);
  const os = osOption(ctx.values.os, ctx.host.os);
  const dest = ctx.values.dest;
  if (typeof dest !== 'string' || !dest) throw new UsageError(bundleText.destRequired, bundleText.destRequiredFix);
  if (ctx.globals.mirror) parseMirror(ctx.globals.mirror);
  const catalog = ctx.catalog();
  const redist = loadRedistCatalog(ctx.globals.catalog);
  const { out } = ctx;
  const choice = given ? undefined : bundleRoute(catalog, redist, ctx.host, tf, os);
  const route = given ?? choice!.recommended;
  // Where no route is offered for this TF there (no GPU build), the fallback's own refusal says why and what instead.
  if (choice?.routes.length) {
    // Which route, why, and how to take another, as install says it (stderr: stdout carries the files and the result).
    const say = (line: string) => out.error(out.json ? line : `${out.symbol('info')} ${line}`);
    for (const line of routeTakenLines(tf, route, choice.routes, choice.why)) say(line);
  }
  const planned = routeFiles(catalog, redist, tf, os, route);
  if (!out.json && planned.available) out.error(bundleText.making(tf, route, os, dest, planned.files.length, routeTotal(planned)));
  const reporters = new Map<string, (p: DownloadProgress) => void>();
  const made = await makeBundle({
    catalog,
    redist,
    tf,
    os,
    route,
    dest,
    cacheDir: resolveCacheDir(ctx.globals.cacheDir),
    version: pkg.version,
    mirror: ctx.globals.mirror,
    connections: deps.connections,
    allowUnverified: Boolean(ctx.values['allow-unverified']),
    nvidiaOrigin: ctx.host.env.CUDAWIZ_TEST_NVIDIA_ORIGIN,
    signal: ctx.signal,
    onNotice: (line) => out.error(`${out.symbol('info')} ${line}`),
    onProgress: out.json
      ? undefined
      : (f, p) => {
          if (!reporters.has(f.file)) reporters.set(f.file, deps.reporter(f.file, (l) => out.error(l)));
          reporters.get(f.file)!(p);
        },
    onFile: (e) => {
      if (out.json) return;
      if (e.type === 'present') out.line(`${out.symbol('pass')} ${bundleText.fileInBundle(e.file.file, formatBytes(e.bytes), 'present')}`);
      if (e.type === 'done') out.line(`${out.symbol('pass')} ${bundleText.fileInBundle(e.file.file, formatBytes(e.result.bytes), e.result.fromCache ? 'cache' : 'fetched')}`);
      if (e.type === 'needs-user') {
        if (e.reason) out.line(`${out.symbol('warn')} ${e.reason}`);
        out.line(`${out.symbol('warn')} ${bundleText.placeByHand(e.file.file, e.page, dest)}`);
      }
    },
  });
  const m = made.manifest;
  const bytes = m.files.reduce((n, f) => n + (f.size ?? 0), 0);
  if (out.json) {
    out.writeJson({ dir: made.dir, complete: m.complete, missing: made.missing, manifest: m });
  } else if (m.complete) {
    out.line(out.bold(bundleText.complete(made.dir, m.files.length, formatBytes(bytes))));
    out.line(`  ${bundleText.carry(made.dir)}`);
  } else {
    out.line(out.bold(bundleText.incompleteMade(made.dir, made.missing.length)));
  }
  return m.complete ? EXIT.ok : EXIT.needsUser;
}
