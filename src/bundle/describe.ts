// A route's files in words: the total ("9 files, at least 993.2 MiB") and the line of what it needs,
// shared by `requirements`, `download --tf` and the wizard's route choice.
import { formatBytes } from '../format.js';
import { bundleText } from '../i18n/bundle.js';
import { cliText } from '../i18n/cli.js';
import type { RouteFiles } from '../routes/index.js';

/** "3 files, 993.2 MiB in all" / "at least …" / "size unknown". */
export function routeTotal(r: RouteFiles): string {
  const size = r.sizesKnown ? bundleText.total(formatBytes(r.knownBytes)) : r.knownBytes > 0 ? bundleText.atLeast(formatBytes(r.knownBytes)) : bundleText.sizeUnknown;
  return r.pip ? size : cliText.clauses(bundleText.files(r.files.length), size);
}

/** The one line under a route's name: its CUDA, administrator, login, total and scratch room. */
export function routeSummary(r: RouteFiles): string {
  const parts = [
    ...(r.cuda ? [bundleText.cudaRelease(r.cuda)] : []),
    r.needs.admin ? bundleText.needsAdmin : bundleText.needsNoAdmin,
    r.needs.login ? bundleText.needsLogin : bundleText.needsNoLogin,
    routeTotal(r),
    ...(r.needs.scratchBytes ? [bundleText.scratch(formatBytes(r.needs.scratchBytes))] : []),
  ];
  return cliText.semicolons(parts);
}

