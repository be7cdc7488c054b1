// "You are offline": a machine that cannot reach NVIDIA's host (or the mirror) is told so at the
// first download, with the two commands that get it set up anyway (a bundle made on a connected
// machine, then install --from), not after six retries of a raw network error.
import { access } from 'node:fs/promises';
import { CudawizError, EXIT } from '../errors.js';
import { bundleText } from '../i18n/bundle.js';
import { cachePaths } from './cache-paths.js';
import { openResponse } from './http.js';
import { applyMirror } from './mirror.js';

/** The errors that mean no route to the host at all (no DNS, refused, unreachable), as Node and got name them. */
const NETWORK_DOWN = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN)\b/;

/** Whether an error from a download means the network (or the host) cannot be reached. */
export function isNetworkDown(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && NETWORK_DOWN.test(e.code)) return true;
  if (typeof e.message === 'string' && NETWORK_DOWN.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isNetworkDown(e.cause);
}

/** What to tell the user: which bundle to make on a connected machine, or (a one-file download) which command to run there. */
export type OfflineAdvice = { tf: string; route: string; os: string } | { command: string };

export function offlineError(advice: OfflineAdvice, url?: string): CudawizError {
  const host = url ? new URL(url).host : undefined;
  const message = 'command' in advice ? bundleText.offlineOneFile(host, advice.command) : bundleText.offline(host, advice.tf, advice.route, advice.os);
  return new CudawizError(message, {
    code: 'offline',
    exitCode: EXIT.problems,
    fix: bundleText.offlineFix,
    details: { url },
  });
}

/**
 * Before a download the cache cannot serve: one quick HEAD to the root of the host it would come from. A
 * host that cannot be reached at all is the offline error; anything else (an answer of any status,
 * a slow host) lets the download go ahead and fail or succeed on its own terms. Whether the host was
 * asked (false: the cache holds the file).
 */
export async function assertReachable(request: { url: string; file: string; cacheDir: string; mirror?: string; signal?: AbortSignal }, advice: OfflineAdvice): Promise<boolean> {
  const cached = await access(cachePaths(request.cacheDir, request.file).final).then(() => true, () => false);
  if (cached) return false;
  const url = applyMirror(request.url, request.mirror);
  try {
    // The host's root, not the file: an answer of any kind means the host is there, and the file itself is asked for once, by the download.
    const r = await openResponse(new URL('/', url).href, { method: 'HEAD', idleTimeoutMs: 10_000, signal: request.signal });
    r.body.destroy();
  } catch (error) {
    if (isNetworkDown(error)) throw offlineError(advice, url);
  }
  return true;
}
