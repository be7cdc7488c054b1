// One GET through got with our own redirect rule (HTTPS only, or loopback), no got retries (the
// downloader owns retries, so it can resume instead of starting over).
import got, { type Request } from 'got';
import type { IncomingHttpHeaders } from 'node:http';
import { CudawizError } from '../errors.js';
import { fetchText as t } from '../i18n/fetch.js';
import { isAllowedTransport } from './mirror.js';

export interface OpenedResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Request;
}

export interface OpenOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Inactivity on the socket before the attempt counts as failed. */
  idleTimeoutMs?: number;
  /** HEAD asks for the headers only (a size before downloading); GET by default. */
  method?: 'GET' | 'HEAD';
}

const MAX_REDIRECTS = 5;

export function insecureUrlError(url: string, from?: string): CudawizError {
  return new CudawizError(from ? t.redirectedInsecure(from, url) : t.plainHttp(url), {
    code: 'insecure-url',
    fix: from ? t.redirectedInsecureFix : t.plainHttpFix,
  });
}

/** Resolves once response headers arrive (after following allowed redirects); the body is not read. */
export async function openResponse(url: string, options: OpenOptions = {}): Promise<OpenedResponse> {
  let current = new URL(url);
  if (!isAllowedTransport(current)) throw insecureUrlError(current.href);
  for (let hop = 0; ; hop++) {
    const body = got.stream(current.href, {
      method: options.method ?? 'GET',
      headers: { 'user-agent': 'cudawiz', 'accept-encoding': 'identity', ...options.headers },
      followRedirect: false,
      throwHttpErrors: false,
      decompress: false,
      retry: { limit: 0 },
      timeout: { connect: Math.min(20_000, options.idleTimeoutMs ?? 20_000), response: Math.min(30_000, options.idleTimeoutMs ?? 30_000), socket: options.idleTimeoutMs ?? 60_000 },
      signal: options.signal,
    });
    const res = await new Promise<{ statusCode: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
      body.once('response', resolve);
      body.once('error', reject);
    });
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      body.destroy();
      if (hop >= MAX_REDIRECTS) throw new CudawizError(t.tooManyRedirects(url), { code: 'redirect-loop' });
      const next = new URL(res.headers.location, current);
      if (!isAllowedTransport(next)) throw insecureUrlError(next.href, current.href);
      current = next;
      continue;
    }
    return { url: current.href, status: res.statusCode, headers: res.headers, body };
  }
}

/** A small text document (md5sum.txt, a redist manifest), read whole. */
export async function fetchText(url: string, signal?: AbortSignal): Promise<string> {
  const r = await openResponse(url, { signal, idleTimeoutMs: 30_000 });
  if (r.status !== 200) {
    r.body.destroy();
    throw new CudawizError(t.listHttpStatus(url, r.status), { code: 'http-status' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of r.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024 * 1024) {
      r.body.destroy();
      throw new CudawizError(t.listTooLarge(url), { code: 'too-large' });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
