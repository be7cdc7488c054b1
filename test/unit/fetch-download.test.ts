import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CudawizError } from '../../src/errors.js';
import { cachePaths } from '../../src/fetch/cache-paths.js';
import { fetchVerified, type FetchRequest } from '../../src/fetch/download.js';
import type { DownloadProgress } from '../../src/fetch/progress.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const NV = 'https://developer.download.nvidia.com';
const RUN = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
const FILE = path.posix.basename(RUN);

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

async function setup(size = 3 * 1024 * 1024) {
  const root = await tempDir('cw-mirror-');
  const cache = await tempDir('cw-cache-');
  mirror = await startMirror({ root });
  const content = randomBytes(size);
  const info = await mirror.addFile(RUN, content);
  const base: FetchRequest = {
    url: `${NV}/${RUN}`,
    file: FILE,
    checksum: { sha256: info.sha256 },
    cacheDir: cache,
    mirror: mirror.url,
    connections: 1,
    tuning: { retryBaseMs: 20, pieceBytes: 256 * 1024, segmentMinBytes: 1024 * 1024 },
  };
  return { mirror, cache, content, info, base, paths: cachePaths(cache, FILE) };
}

async function failure(p: Promise<unknown>): Promise<CudawizError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
}

describe('fetchVerified against the local NVIDIA mirror', () => {
  it('downloads the installer through the mirror, verified, and renames it into the cache', async () => {
    const { base, info, paths, mirror } = await setup();
    const r = await fetchVerified(base);
    expect(r).toMatchObject({ path: paths.final, bytes: info.size, sha256: info.sha256, md5: info.md5, source: 'the catalog', fromCache: false, resumedFrom: 0 });
    expect(r.url).toBe(mirror.urlFor(RUN));
    expect(existsSync(paths.part)).toBe(false);
    expect(createHash('sha256').update(await readFile(paths.final)).digest('hex')).toBe(info.sha256);
  });

  it('reuses a verified file from the cache without a single request', async () => {
    const { base, mirror } = await setup();
    await fetchVerified(base);
    const before = mirror.requests.length;
    const again = await fetchVerified(base);
    expect(again.fromCache).toBe(true);
    expect(mirror.requests.length).toBe(before);
  });

  it('fetches over 4 connections when the file is large and Range works, and the hash covers the whole file', async () => {
    const { base, info, mirror } = await setup(4 * 1024 * 1024);
    const r = await fetchVerified({ ...base, connections: 4 });
    expect(r.sha256).toBe(info.sha256);
    const ranged = mirror.fileRequests(FILE).filter((q) => q.status === 206);
    expect(ranged.length).toBeGreaterThanOrEqual(16);
  });

  it('resumes after a connection dropped mid-body, with If-Range, and never starts over', async () => {
    const { base, info, mirror } = await setup();
    mirror.fault({ mode: 'drop', path: FILE, afterBytes: 100_000 });
    const r = await fetchVerified(base);
    expect(r.sha256).toBe(info.sha256);
    const reqs = mirror.fileRequests(FILE);
    expect(reqs[0].fault).toBe('drop');
    // It resumes from what reached the disk: at most the 100 000 bytes sent before the drop (some may
    // still have been in flight when the socket died), never from zero.
    const [, start, end] = /^bytes=(\d+)-(\d+)$/.exec(reqs[1].range ?? '') ?? [];
    expect(Number(start)).toBeGreaterThan(0);
    expect(Number(start)).toBeLessThanOrEqual(100_000);
    expect(Number(end)).toBe(256 * 1024 - 1);
    expect(reqs[1].ifRange).toMatch(/^"/);
  });

  it('retries a 500 and a 503, waiting as long as Retry-After says', async () => {
    const { base, info, mirror } = await setup();
    mirror.fault({ mode: '500', path: FILE });
    mirror.fault({ mode: '503', path: FILE, retryAfter: 1 });
    const r = await fetchVerified(base);
    expect(r.sha256).toBe(info.sha256);
    const reqs = mirror.fileRequests(FILE);
    expect(reqs.map((q) => q.status).slice(0, 3)).toEqual([500, 503, 206]);
    expect(reqs[2].at - reqs[1].at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after the last try with a message that says the .part resumes', async () => {
    const { base, mirror } = await setup();
    mirror.fault({ mode: '500', path: FILE, times: Infinity });
    const e = await failure(fetchVerified({ ...base, tuning: { ...base.tuning, retries: 2 } }));
    expect(e.code).toBe('download-failed');
    expect(e.message).toContain('HTTP 500');
    expect(e.fix).toContain('resumes');
  });

  it('deletes a file with wrong bytes and names the expected checksum and where it came from', async () => {
    const { base, info, mirror, paths } = await setup();
    mirror.fault({ mode: 'wrong-bytes', path: FILE, times: Infinity });
    const e = await failure(fetchVerified(base));
    expect(e.code).toBe('checksum-mismatch');
    expect(e.message).toContain(info.sha256);
    expect(e.message).toContain('the catalog');
    expect(existsSync(paths.part)).toBe(false);
    expect(existsSync(paths.final)).toBe(false);
  });

  it('restarts cleanly from byte 0 when the server ignores Range', async () => {
    const { base, info, mirror } = await setup();
    mirror.fault({ mode: 'ignore-range', path: FILE, times: Infinity });
    const r = await fetchVerified({ ...base, connections: 4 });
    expect(r.sha256).toBe(info.sha256);
    expect(mirror.fileRequests(FILE).every((q) => q.status === 200)).toBe(true);
  });

  it('refuses a redirect to a plain http:// host and writes nothing', async () => {
    const { base, mirror, paths } = await setup();
    mirror.fault({ mode: 'hostile-redirect', path: FILE, times: Infinity });
    const e = await failure(fetchVerified(base));
    expect(e.code).toBe('insecure-url');
    expect(e.message).toContain('http://downloads.example.invalid/');
    expect(existsSync(paths.part)).toBe(false);
  });

  it('survives a slow trickle and reports progress at most ~10 times a second', async () => {
    const { base, info, mirror } = await setup(96 * 1024);
    mirror.fault({ mode: 'trickle', path: FILE, bytesPerSecond: 128 * 1024 });
    const events: DownloadProgress[] = [];
    const t0 = performance.now();
    const r = await fetchVerified({ ...base, onProgress: (p) => events.push(p) });
    const seconds = (performance.now() - t0) / 1000;
    expect(r.sha256).toBe(info.sha256);
    expect(seconds).toBeGreaterThan(0.5);
    expect(events.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
    expect(events.length).toBeGreaterThan(2);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ bytes: info.size, total: info.size, resumedFrom: 0 });
    expect(events.some((e) => e.speed > 0 && e.eta !== undefined)).toBe(true);
  });

  it('stops on abort, keeps a resumable .part, and the next call resumes from it', async () => {
    const { base, info, mirror, paths } = await setup(1024 * 1024);
    mirror.fault({ mode: 'trickle', path: FILE, bytesPerSecond: 256 * 1024 });
    const ac = new AbortController();
    const e = await failure(
      fetchVerified({ ...base, signal: ac.signal, onProgress: (p) => p.bytes > 64 * 1024 && ac.abort() }),
    );
    expect(e.exitCode).toBe(130);
    const kept = (await stat(paths.part)).size;
    expect(kept).toBeGreaterThan(0);
    const r = await fetchVerified(base);
    expect(r.sha256).toBe(info.sha256);
    expect(r.resumedFrom).toBeGreaterThan(0);
    expect(mirror.fileRequests(FILE).at(-1)!.range).toMatch(/^bytes=[1-9]\d*-/);
  });

  it('resumes a segmented download piece by piece after an abort, and the whole file still verifies', async () => {
    const { base, info, mirror, paths } = await setup(2 * 1024 * 1024);
    mirror.fault({ mode: 'trickle', path: FILE, bytesPerSecond: 512 * 1024, times: Infinity });
    const ac = new AbortController();
    const seg = { ...base, connections: 4, tuning: { ...base.tuning, stateIntervalMs: 50 } };
    const e = await failure(fetchVerified({ ...seg, signal: ac.signal, onProgress: (p) => p.bytes > 600 * 1024 && ac.abort() }));
    expect(e.exitCode).toBe(130);
    const state = JSON.parse(await readFile(paths.partState, 'utf8')) as { pieces: { start: number; done: number }[] };
    expect(state.pieces.filter((p) => p.done > 0).length).toBeGreaterThan(1);
    mirror.clearFaults();
    const before = mirror.requests.length;
    const r = await fetchVerified(seg);
    expect(r.sha256).toBe(info.sha256);
    expect(r.resumedFrom).toBeGreaterThan(600 * 1024);
    const resumedMidPiece = mirror.requests.slice(before).filter((q) => Number(/^bytes=(\d+)-/.exec(q.range ?? '')?.[1]) % (256 * 1024) !== 0);
    expect(resumedMidPiece.length).toBeGreaterThan(1);
  });

  it('refuses to start when the disk has less room than the file, naming the number needed', async () => {
    const { base, info, paths } = await setup();
    const e = await failure(fetchVerified({ ...base, tuning: { ...base.tuning, freeSpace: async () => 1000 } }));
    expect(e.code).toBe('disk-full');
    expect(e.message).toContain(`${info.size} bytes`);
    expect(existsSync(paths.part)).toBe(false);
  });

  it('falls back to md5sum.txt when the catalog has no checksum, and refuses when nothing is known', async () => {
    const { base, info } = await setup();
    // NVIDIA's host, played by a second loopback server: the list is read there, not from the mirror.
    const nvidia = await startMirror({ root: await tempDir('cw-nvidia-') });
    await nvidia.addMd5sumList('compute/cuda/10.1/Prod/docs3/sidebar/md5sum.txt', [{ name: FILE, md5: info.md5 }]);
    const r = await fetchVerified({ ...base, nvidiaOrigin: nvidia.url, checksum: { md5sumUrl: `${NV}/compute/cuda/10.1/Prod/docs3/sidebar/md5sum.txt` } }).finally(() => nvidia.close());
    expect(r.source).toContain("NVIDIA's md5sum.txt");
    const e = await failure(fetchVerified({ ...base, cacheDir: await tempDir(), checksum: {} }));
    expect(e.code).toBe('no-checksum');
    expect(e.fix).toContain('--allow-unverified');
    const unverified = await fetchVerified({ ...base, cacheDir: await tempDir(), checksum: {}, allowUnverified: true });
    expect(unverified.source).toBeNull();
  });

  it('checks a file copied into the cache by hand instead of downloading it again', async () => {
    const { base, content, paths, mirror } = await setup();
    await writeFile(paths.final, content);
    const r = await fetchVerified(base);
    expect(r.fromCache).toBe(true);
    expect(mirror.fileRequests(FILE)).toHaveLength(0);
  });
});
