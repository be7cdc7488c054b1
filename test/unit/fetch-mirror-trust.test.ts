// A mirror cannot vouch for itself: with --mirror, the checksum list (md5sum.txt, a redist manifest)
// is read from NVIDIA's own host — played here by a second loopback server — and a list served by the
// mirror is never asked for, let alone trusted or called NVIDIA's.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CudawizError, UsageError } from '../../src/errors.js';
import { cachePaths } from '../../src/fetch/cache-paths.js';
import { fetchVerified, type FetchRequest } from '../../src/fetch/download.js';
import { checksumListUrl } from '../../src/fetch/mirror.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const NV = 'https://developer.download.nvidia.com';
const RUN = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
const MD5SUM = 'compute/cuda/10.1/Prod/docs3/sidebar/md5sum.txt';
const MANIFEST = 'compute/cudnn/redist/redistrib_9.3.0.json';
const FILE = path.posix.basename(RUN);

const servers: NvidiaMirror[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** NVIDIA's host with the genuine file and list, and a mirror that serves other bytes with a list to match them. */
async function hostileMirror() {
  const nvidia = await startMirror({ root: await tempDir('cw-nvidia-') });
  const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  servers.push(nvidia, mirror);
  const genuine = await nvidia.addFile(RUN, randomBytes(200 * 1024));
  await nvidia.addMd5sumList(MD5SUM, [{ name: FILE, md5: genuine.md5 }]);
  const forged = await mirror.addFile(RUN, randomBytes(200 * 1024));
  await mirror.addMd5sumList(MD5SUM, [{ name: FILE, md5: forged.md5 }]);
  const cache = await tempDir('cw-cache-');
  const base: FetchRequest = { url: `${NV}/${RUN}`, file: FILE, checksum: { md5sumUrl: `${NV}/${MD5SUM}` }, cacheDir: cache, mirror: mirror.url, nvidiaOrigin: nvidia.url, connections: 1, tuning: { retryBaseMs: 10 } };
  return { nvidia, mirror, genuine, forged, cache, base };
}

async function failure(p: Promise<unknown>): Promise<CudawizError> {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
}

describe('checksum lists come from NVIDIA only', () => {
  it("refuses a mirror's file that matches only the mirror's own md5sum.txt", async () => {
    const { nvidia, mirror, forged, base, cache } = await hostileMirror();
    const e = await failure(fetchVerified(base));
    expect(e.code).toBe('checksum-mismatch');
    expect(e.message).toContain(`NVIDIA's md5sum.txt (${nvidia.urlFor(MD5SUM)})`);
    expect(e.message).toContain(`got ${forged.md5}`);
    expect(mirror.fileRequests('md5sum.txt')).toHaveLength(0);
    expect(nvidia.fileRequests('md5sum.txt')).toHaveLength(1);
    expect(existsSync(cachePaths(cache, FILE).final)).toBe(false);
  });

  it("labels a mirror's file verified against NVIDIA's list with NVIDIA's URL, and says the mirror's list was not used", async () => {
    const { nvidia, mirror, genuine, base } = await hostileMirror();
    await mirror.addFile(RUN, await readFile(genuine.path));
    const notices: string[] = [];
    const r = await fetchVerified({ ...base, onNotice: (l) => notices.push(l) });
    expect(r.source).toBe(`NVIDIA's md5sum.txt (${nvidia.urlFor(MD5SUM)})`);
    expect(r.source).not.toContain(mirror.url);
    expect(r.url).toBe(mirror.urlFor(RUN));
    expect(notices.join('\n')).toContain(`With --mirror ${mirror.url}, checksum lists are still read from NVIDIA's own host`);
    expect(mirror.fileRequests('md5sum.txt')).toHaveLength(0);
  });

  it("when NVIDIA's host cannot be reached, refuses rather than falling back to the mirror's list, and asks for an overlay sha256", async () => {
    const { nvidia, mirror, base } = await hostileMirror();
    const gone = nvidia.url;
    await nvidia.close();
    const e = await failure(fetchVerified({ ...base, nvidiaOrigin: gone }));
    expect(e.code).toBe('no-checksum');
    expect(e.fix).toContain('--catalog overlay');
    expect(e.fix).toContain("a mirror's own list is not trusted");
    expect(mirror.requests).toHaveLength(0);
  });

  it('reads a redist manifest from NVIDIA as well, never through the mirror', async () => {
    const { nvidia, mirror, forged, base } = await hostileMirror();
    await nvidia.addFile(MANIFEST, Buffer.from(JSON.stringify({ cudnn: { linux: { relative_path: `x/${FILE}`, sha256: 'a'.repeat(64) } } })));
    await mirror.addFile(MANIFEST, Buffer.from(JSON.stringify({ cudnn: { linux: { relative_path: `x/${FILE}`, sha256: forged.sha256 } } })));
    const e = await failure(fetchVerified({ ...base, checksum: { manifestUrl: `${NV}/${MANIFEST}` } }));
    expect(e.code).toBe('checksum-mismatch');
    expect(e.message).toContain(`NVIDIA's redist manifest (${nvidia.urlFor(MANIFEST)})`);
    expect(mirror.fileRequests('.json')).toHaveLength(0);
  });

  it('lets only a loopback server stand in for NVIDIA (the setting is for tests)', () => {
    expect(checksumListUrl(`${NV}/${MD5SUM}`, undefined)).toBe(`${NV}/${MD5SUM}`);
    expect(checksumListUrl(`${NV}/${MD5SUM}`, 'http://127.0.0.1:9')).toBe(`http://127.0.0.1:9/${MD5SUM}`);
    expect(() => checksumListUrl(`${NV}/${MD5SUM}`, 'https://mirror.example.com')).toThrow(UsageError);
    // A list the catalog overlay names on another host is the overlay's own choice, left as written.
    expect(checksumListUrl('https://lists.example.com/md5sum.txt', 'http://127.0.0.1:9')).toBe('https://lists.example.com/md5sum.txt');
  });
});
