// --mirror / CUDAWIZ_MIRROR: NVIDIA's hosts are swapped for the mirror's origin (and path prefix), the
// path is kept, so a mirror is a plain static copy of NVIDIA's tree. Plain http only on loopback.
import { UsageError } from '../errors.js';
import { fetchText } from '../i18n/fetch.js';

export const NVIDIA_HOSTS = ['developer.download.nvidia.com', 'developer.nvidia.com'] as const;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** HTTPS anywhere; http:// only to this machine (a test server or a local mirror). */
export function isAllowedTransport(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

export function parseMirror(mirror: string): URL {
  let url: URL;
  try {
    url = new URL(mirror);
  } catch {
    throw new UsageError(fetchText.mirrorNotUrl(mirror), fetchText.mirrorNotUrlFix);
  }
  if (!isAllowedTransport(url)) {
    throw new UsageError(fetchText.mirrorNotHttps(mirror), fetchText.mirrorNotHttpsFix);
  }
  return url;
}

/** The URL to fetch: NVIDIA's URL with its host replaced by the mirror's, or unchanged. */
export function applyMirror(url: string, mirror: string | undefined): string {
  const original = new URL(url);
  if (!mirror || !(NVIDIA_HOSTS as readonly string[]).includes(original.hostname)) return original.href;
  const m = parseMirror(mirror);
  const prefix = m.pathname.replace(/\/+$/, '');
  return new URL(`${prefix}${original.pathname}${original.search}`, m.origin).href;
}

/**
 * Where a checksum list (md5sum.txt, a redist manifest) is read from: NVIDIA's URL as it is, never a
 * mirror. `nvidiaOrigin` (CUDAWIZ_TEST_NVIDIA_ORIGIN) lets a test put a second loopback server in
 * NVIDIA's place; only a loopback origin is accepted, so it cannot send the lists anywhere real.
 */
export function checksumListUrl(url: string, nvidiaOrigin: string | undefined): string {
  const original = new URL(url);
  if (!nvidiaOrigin || !(NVIDIA_HOSTS as readonly string[]).includes(original.hostname)) return original.href;
  let origin: URL;
  try {
    origin = new URL(nvidiaOrigin);
  } catch {
    throw new UsageError(fetchText.testOriginNotUrl(nvidiaOrigin), fetchText.testOriginNotUrlFix);
  }
  if (!isLoopbackHost(origin.hostname) || !isAllowedTransport(origin)) {
    throw new UsageError(fetchText.testOriginNotLocal(nvidiaOrigin), fetchText.testOriginNotLocalFix);
  }
  return new URL(`${original.pathname}${original.search}`, origin.origin).href;
}
