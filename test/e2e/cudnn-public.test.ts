// The public cuDNN copy in a real setup: the built CLI against the local NVIDIA mirror. When the mirror
// serves the archive at NVIDIA's public path, it is downloaded, verified by its sha256 and copied in with
// no login; when the mirror lacks it, or serves other bytes, the run falls back to the login path (exit 3,
// naming the file and the page) instead of dying on "HTTP 404".
import { readFile, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { laptop as makeLaptop } from '../helpers/laptop.js';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

const PUBLIC_PATH = 'compute/redist/cudnn/v7.6.5/cudnn-10.1-linux-x64-v7.6.5.32.tgz';
const FILE = path.posix.basename(PUBLIC_PATH);

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** The shared laptop with its cuDNN tgz moved out of ~/Downloads: the run has to get it itself. */
async function laptopWithoutArchive() {
  const l = await makeLaptop();
  mirror = l.mirror;
  const elsewhere = path.join(await tempDir('cw-away-'), FILE);
  await rename(l.archive, elsewhere);
  return { ...l, archive: elsewhere, args: (...extra: string[]) => [...extra, ...l.globals, '--downloads', l.downloads, '--configure-env', 'no'] };
}

describe('the public cuDNN copy in cudawiz install', () => {
  it('downloads cuDNN 7.6.5 for TF 2.3 from the public path, verified by its sha256, and copies it in without a login', async () => {
    const m = await laptopWithoutArchive();
    await m.mirror.addFile(PUBLIC_PATH, await readFile(m.archive));
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes'), { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`${FILE} (public copy, checksum from the catalog)`);
    expect(m.mirror.fileRequests(FILE).length).toBeGreaterThan(0);
    expect(await readdir(path.join(m.toolkit, 'lib64'))).toEqual(expect.arrayContaining(['libcudnn.so.7']));
  });

  it('falls back to the login path (exit 3, the file and the page) when the mirror has no copy', async () => {
    const m = await laptopWithoutArchive();
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes'), { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain(`waiting for ${FILE}`);
    expect(r.stdout).toContain('https://developer.nvidia.com/rdp/cudnn-archive');
    expect(r.stdout).toContain(`the public copy of ${FILE} could not be downloaded`);
    expect(r.stdout).not.toMatch(/step failed|✗.*HTTP 404/);
    expect(m.mirror.fileRequests(FILE).length).toBeGreaterThan(0);
    // CUDA itself went in; the next run with --cudnn-archive continues from there.
    expect(await readdir(path.join(m.toolkit, 'bin'))).toContain('nvcc');
    expect(await readdir(path.join(m.toolkit, 'lib64'))).not.toContain('libcudnn.so.7');
  });

  it('refuses a public copy whose bytes are not the catalog\'s and falls back to the login path, keeping nothing of it', async () => {
    const m = await laptopWithoutArchive();
    const real = await readFile(m.archive);
    await m.mirror.addFile(PUBLIC_PATH, Buffer.concat([real.subarray(0, real.length - 1), Buffer.from([real[real.length - 1] ^ 0xff])]));
    const r = await runBuilt(m.args('install', '--tf', '2.3', '--yes'), { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toContain(`waiting for ${FILE}`);
    expect(r.stdout).toMatch(/could not be downloaded \(.*(sha256|checksum)/i);
    expect((await readdir(m.cache, { recursive: true })).filter((f) => String(f).endsWith(FILE))).toEqual([]);
    expect(await readdir(path.join(m.toolkit, 'lib64'))).not.toContain('libcudnn.so.7');
  });
});
