// The routes' files as `requirements` prints them: each route, what it needs, its total, and each
// file with its size and sha256 (or where its checksum comes from).
import { routeSummary } from '../bundle/describe.js';
import type { RouteFiles } from '../routes/index.js';
import type { Output } from '../io/output.js';
import { formatBytes } from '../format.js';
import { bundleText } from '../i18n/bundle.js';

export function renderRoutes(routes: RouteFiles[], out: Output): void {
  out.line();
  out.line(`  ${bundleText.routesTitle}`);
  for (const r of routes) {
    out.line(`  ${out.symbol(r.available ? 'info' : 'skip')} ${out.bold(bundleText.routeName(r.route))}`);
    if (!r.available) {
      out.line(`      ${out.dim(bundleText.routeMissing(r.reason ?? ''))}`);
      continue;
    }
    out.line(`      ${routeSummary(r)}`);
    if (r.pip) {
      out.line(`      ${bundleText.pipWheels(r.pip.requirement, r.pip.pythons.join(', '))}`);
      continue;
    }
    for (const f of r.files) {
      out.line(`      ${f.file}  ${f.size !== undefined ? formatBytes(f.size) : bundleText.sizeUnknown}`);
      const second = f.access === 'login' && f.page ? bundleText.loginFile(f.page) : f.sha256 ? `sha256 ${f.sha256}` : bundleText.checksumLater;
      out.line(out.dim(`        ${second}`));
    }
  }
}
