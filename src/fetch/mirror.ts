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
