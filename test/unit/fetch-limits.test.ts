// Servers that misbehave slowly: a trickle that never idles, a body without a length that never ends,
// a Retry-After far away, and a resume state that is garbage. Each ends with a message that says what
// happened, not a hang, a full disk or "NaN B needed".
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CudawizError } from '../../src/errors.js';
import { cachePaths } from '../../src/fetch/cache-paths.js';
import { fetchVerified, type FetchRequest } from '../../src/fetch/download.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const NV = 'https://developer.download.nvidia.com';
const RUN = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
const FILE = path.posix.basename(RUN);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function setup(size = 64 * 1024) {
  const mirror: NvidiaMirror = await startMirror({ root: await tempDir('cw-mirror-') });
  closers.push(() => mirror.close());
  const info = await mirror.addFile(RUN, randomBytes(size));
  const cache = await tempDir('cw-cache-');
  const base: FetchRequest = { url: `${NV}/${RUN}`, file: FILE, checksum: { sha256: info.sha256 }, cacheDir: cache, mirror: mirror.url, connections: 1, tuning: { retryBaseMs: 10, retries: 2 } };
  return { mirror, info, cache, base, paths: cachePaths(cache, FILE) };
}

/** A server that answers 200 without Content-Length and then sends bytes until the client hangs up. */
async function endlessServer(): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 7);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(p: Promise<unknown>): Promise<CudawizError> {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
}

describe('a server that trickles (slowloris)', () => {
  it('gives up an attempt slower than the minimum rate, retries, then says the download stalled', async () => {
    const { mirror, base, paths } = await setup();
    // 200 bytes a second: never idle long enough for the socket timeout, hours for 64 KiB.
    mirror.fault({ mode: 'trickle', bytesPerSecond: 200, times: Infinity });
    const e = await failure(fetchVerified({ ...base, tuning: { ...base.tuning, minBytesPerSec: 4096, lowSpeedWindowMs: 300 } }));
    expect(e.code).toBe('download-stalled');
    // What was measured (a 0.3 s window, not "0 s"), and how many tries stalled of how many.
    expect(e.message).toMatch(/stalled: slower than 4\.0 KiB\/s for 0\.[3-9] s, 3 times in a row\./);
    expect(e.fix).toContain('resumes from the .part');
    expect(mirror.fileRequests(FILE)).toHaveLength(3);
    expect(existsSync(paths.final)).toBe(false);
  });
});

describe('a body without a length', () => {
  it("is cut off at the catalog's size and discarded, not written until the disk is full", async () => {
    const origin = await endlessServer();
    const { base, paths } = await setup();
    const e = await failure(fetchVerified({ ...base, mirror: origin, size: 256 * 1024 }));
    expect(e.code).toBe('body-too-long');
    expect(e.message).toContain('without saying its length');
    expect(e.message).toContain('256.0 KiB');
    expect(existsSync(paths.part)).toBe(false);
  });

  it('is cut off at a sane maximum when the catalog gives no size', async () => {
    const origin = await endlessServer();
    const { base, paths } = await setup();
    const e = await failure(fetchVerified({ ...base, mirror: origin, tuning: { ...base.tuning, maxUnknownLengthBytes: 2 * 1024 * 1024 } }));
    expect(e.code).toBe('body-too-long');
    expect(e.message).toContain('2.0 MiB');
    expect(existsSync(paths.part)).toBe(false);
  });
});

describe('Retry-After far in the future', () => {
  it('says the server asked to wait, after one request, instead of "failed after 6 tries"', async () => {
    const { mirror, base } = await setup();
    mirror.fault({ mode: '503', retryAfter: 3 * 3600, times: Infinity });
    const e = await failure(fetchVerified(base));
    expect(e.code).toBe('retry-later');
    expect(e.message).toContain('asked to wait 3 h before trying again (Retry-After)');
    expect(e.message).not.toContain('tries');
    expect(mirror.fileRequests(FILE)).toHaveLength(1);
  });
});

describe('a garbage .part.json', () => {
  it('is discarded with a notice and the download goes on, instead of "NaN B needed"', async () => {
    const { base, info, paths } = await setup();
    await writeFile(paths.part, randomBytes(1000));
    await writeFile(paths.partState, JSON.stringify({ v: 1, url: 'x', total: 'lots', ranges: true, pieces: [{ start: 0, end: 'x', done: 5 }] }));
    const notices: string[] = [];
    const r = await fetchVerified({ ...base, onNotice: (l) => notices.push(l) });
    expect(r.sha256).toBe(info.sha256);
    expect(notices).toContain(`The resume state ${paths.partState} was unreadable; the download of this file starts over.`);
    expect(r.notices).toEqual(notices);
  });

  it('is discarded when it is not JSON at all', async () => {
    const { base, info, paths } = await setup();
    await writeFile(paths.part, '');
    await writeFile(paths.partState, '\0\0garbage{');
    const notices: string[] = [];
    const r = await fetchVerified({ ...base, onNotice: (l) => notices.push(l) });
    expect(r.sha256).toBe(info.sha256);
    expect(notices.join('\n')).toContain('was unreadable');
  });
});
