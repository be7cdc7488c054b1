// --mirror / CUDAWIZ_MIRROR: NVIDIA's hosts are swapped for the mirror's origin (and path prefix), the
// path is kept, so a mirror is a plain static copy of NVIDIA's tree. Plain http only on loopback.
import { UsageError } from '../errors.js';

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
    throw new UsageError(`--mirror "${mirror}" is not a URL.`, 'Give the mirror as https://host[/prefix], e.g. --mirror https://mirror.example.com/nvidia');
  }
  if (!isAllowedTransport(url)) {
    throw new UsageError(`--mirror ${mirror} is not HTTPS.`, 'Use an https:// mirror; plain http:// is accepted only for 127.0.0.1/localhost.');
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
    throw new UsageError(`CUDAWIZ_TEST_NVIDIA_ORIGIN "${nvidiaOrigin}" is not a URL.`, 'It is for tests only: unset it.');
  }
  if (!isLoopbackHost(origin.hostname) || !isAllowedTransport(origin)) {
    throw new UsageError(`CUDAWIZ_TEST_NVIDIA_ORIGIN ${nvidiaOrigin} is not on this machine.`, 'It is for tests only (a loopback server standing in for NVIDIA): unset it.');
  }
  return new URL(`${original.pathname}${original.search}`, origin.origin).href;
}
