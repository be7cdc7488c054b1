// A real local NVIDIA mirror: an HTTP server on 127.0.0.1 (random port) serving NVIDIA's path layout
// from a directory, with md5sum.txt, Range/ETag/If-Range, per-request faults, and rate caps (for the
// bench: per connection, and for the whole link). Used by tests and by bench/download.mjs.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type FaultMode =
  /** Send part of the body, then cut the connection. */
  | 'drop'
  | '500'
  /** 503 with Retry-After: `retryAfter` seconds. */
  | '503'
  /** The body at `bytesPerSecond`. */
  | 'trickle'
  /** Same length, different bytes. */
  | 'wrong-bytes'
  /** Answer 200 with the whole file whatever Range says. */
  | 'ignore-range'
  /** 302 to a plain http:// URL on another host. */
  | 'hostile-redirect';

export interface Fault {
  mode: FaultMode;
  /** Only requests whose path ends with this (default: any file request). */
  path?: string;
  /** How many requests it applies to (default 1; Infinity for all). */
  times?: number;
  /** drop: bytes of body sent before the cut (default half the response). */
  afterBytes?: number;
  retryAfter?: number;
  bytesPerSecond?: number;
  /** hostile-redirect: where to (default http://downloads.example.invalid + the path). */
  location?: string;
}

export interface LoggedRequest {
  path: string;
  method: string;
  range?: string;
  ifRange?: string;
  status: number;
  fault?: FaultMode;
  at: number;
}

export interface MirrorOptions {
  /** The directory that holds NVIDIA's tree (compute/cuda/…). */
  root: string;
  /** Cap each response at this many bytes/s (a distant server's per-connection limit). */
  perConnectionBytesPerSec?: number;
  /** Cap all responses together (the user's link). */
  linkBytesPerSec?: number;
}

/** A pacing queue: each write waits for its slot, so the rate holds across all who share it. */
class Pacer {
  private next = 0;
  constructor(private readonly bytesPerSec: number) {}
  async take(n: number): Promise<void> {
    const now = performance.now();
    // Allow a short burst so timer granularity does not cost throughput.
    this.next = Math.max(this.next, now - 20) + (n / this.bytesPerSec) * 1000;
    const wait = this.next - now;
    if (wait > 1) await sleep(wait);
  }
}

export class NvidiaMirror {
  readonly requests: LoggedRequest[] = [];
  private faults: Fault[] = [];
  private server?: http.Server;
  private link?: Pacer;
  url = '';

  constructor(private readonly options: MirrorOptions) {
    if (options.linkBytesPerSec) this.link = new Pacer(options.linkBytesPerSec);
  }

  /** Writes a file into the tree at NVIDIA's path (e.g. "compute/cuda/10.1/Prod/local_installers/x.run"). */
  async addFile(urlPath: string, content: Buffer): Promise<{ path: string; sha256: string; md5: string; size: number }> {
    const file = this.fileFor(urlPath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return {
      path: file,
      sha256: createHash('sha256').update(content).digest('hex'),
      md5: createHash('md5').update(content).digest('hex'),
      size: content.length,
    };
  }

  /** NVIDIA's md5sum.txt at `urlPath`, listing `<md5>  <name>` for each entry. */
  async addMd5sumList(urlPath: string, entries: { name: string; md5: string }[]): Promise<void> {
    await this.addFile(urlPath, Buffer.from(entries.map((e) => `${e.md5}  ${e.name}\n`).join('')));
  }

  fault(f: Fault): void {
    this.faults.push({ times: 1, ...f });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** The mirror's URL for NVIDIA's path. */
  urlFor(urlPath: string): string {
    return `${this.url}/${urlPath.replace(/^\/+/, '')}`;
  }

  fileRequests(suffix: string): LoggedRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy());
    });
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private fileFor(urlPath: string): string {
    const rel = path.posix.normalize(`/${decodeURIComponent(urlPath)}`).replace(/^\/+/, '');
    return path.join(this.options.root, ...rel.split('/'));
  }

  private takeFault(urlPath: string): Fault | undefined {
    const f = this.faults.find((x) => (x.times ?? 1) > 0 && (!x.path || urlPath.endsWith(x.path)));
    if (f) f.times = (f.times ?? 1) - 1;
    return f;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const urlPath = new URL(req.url ?? '/', 'http://x').pathname;
    const log: LoggedRequest = { path: urlPath, method: req.method ?? 'GET', range: req.headers.range, ifRange: req.headers['if-range'] as string | undefined, status: 0, at: Date.now() };
    this.requests.push(log);
    const reply = (status: number, headers: Record<string, string | number> = {}, body?: string) => {
      log.status = status;
      res.writeHead(status, headers);
      res.end(body);
    };
    const file = this.fileFor(urlPath);
    const s = await stat(file).catch(() => undefined);
    if (!s?.isFile()) return reply(404, { 'content-type': 'text/plain' }, 'not found\n');
    const fault = this.takeFault(urlPath);
    log.fault = fault?.mode;
    if (fault?.mode === '500') return reply(500, {}, 'internal error\n');
    if (fault?.mode === '503') return reply(503, { 'retry-after': String(fault.retryAfter ?? 1) }, 'busy\n');
    if (fault?.mode === 'hostile-redirect') return reply(302, { location: fault.location ?? `http://downloads.example.invalid${urlPath}` });

    const etag = `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`;
    const headers: Record<string, string | number> = {
      'accept-ranges': 'bytes',
      etag,
      'last-modified': s.mtime.toUTCString(),
      'content-type': 'application/octet-stream',
    };
    let start = 0;
    let end = s.size; // exclusive
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    const rangeApplies = range && fault?.mode !== 'ignore-range' && (!ifRange || ifRange === etag || ifRange === headers['last-modified']);
    if (rangeApplies) {
      start = Number(range[1]);
      end = range[2] ? Math.min(s.size, Number(range[2]) + 1) : s.size;
      if (start >= s.size || start >= end) return reply(416, { 'content-range': `bytes */${s.size}` });
      status = 206;
      headers['content-range'] = `bytes ${start}-${end - 1}/${s.size}`;
    }
    headers['content-length'] = end - start;
    log.status = status;
    res.writeHead(status, headers);
    // Headers go out at once, as a real server's do, even when the body then trickles.
    res.flushHeaders();
    if (req.method === 'HEAD') return void res.end();
    await this.sendBody(file, start, end, res, fault);
  }

  private async sendBody(file: string, start: number, end: number, res: http.ServerResponse, fault: Fault | undefined): Promise<void> {
    const conn = this.options.perConnectionBytesPerSec ? new Pacer(this.options.perConnectionBytesPerSec) : undefined;
    const trickle = fault?.mode === 'trickle' ? new Pacer(fault.bytesPerSecond ?? 64 * 1024) : undefined;
    const dropAt = fault?.mode === 'drop' ? (fault.afterBytes ?? Math.floor((end - start) / 2)) : Infinity;
    const chunkSize = trickle ? 4096 : 64 * 1024;
    let sent = 0;
    let corrupted = false;
    const stream = createReadStream(file, { start, end: end - 1, highWaterMark: chunkSize });
    try {
      for await (const raw of stream as AsyncIterable<Buffer>) {
        let chunk = raw;
        if (fault?.mode === 'wrong-bytes' && !corrupted) {
          chunk = Buffer.from(raw);
          chunk[0] ^= 0xff;
          corrupted = true;
        }
        if (sent + chunk.length > dropAt) {
          const cut = chunk.subarray(0, dropAt - sent);
          if (cut.length) await new Promise<void>((resolve) => res.write(cut, () => resolve()));
          res.socket?.destroy();
          return;
        }
        await Promise.all([conn?.take(chunk.length), this.link?.take(chunk.length), trickle?.take(chunk.length)]);
        if (res.destroyed) return;
        if (!res.write(chunk)) await drained(res);
        sent += chunk.length;
      }
      res.end();
    } finally {
      stream.destroy();
    }
  }
}

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function startMirror(options: MirrorOptions): Promise<NvidiaMirror> {
  return new NvidiaMirror(options).start();
}
