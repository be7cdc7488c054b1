// #37 class 1, "a file checked, then read again by path": B1 (a bundle's redist archive replaced after
// its sha256 check) and B2 (a bundle's or the user's cuDNN archive replaced after the cuDNN step's
// check). The check opens the file once and copies it into cudawiz's private cache while hashing;
// only that copy is unpacked. Each case swaps the file for real — between the check and the use, and
// while the copy is being made (a watcher on the private folder) — and asserts the installed bytes
// are the original's, or the file is refused with nothing put in place.
import { createHash, randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { chmod, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchVerified } from '../../src/fetch/download.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import type { OpenBundle } from '../../src/bundle/check.js';
import { fileFromBundle } from '../../src/bundle/source.js';
import { importCudnn } from '../../src/cudnn/import.js';
import { CudawizError } from '../../src/errors.js';
import { privateCopy } from '../../src/trust/verified-file.js';
import { buildCudnnArchive, makeToolkit } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** A bundle holding one archive, as checkBundle leaves it (verified just now). */
async function bundleWith(name: string, bytes: Buffer): Promise<OpenBundle> {
  const dir = await tempDir('cw-hostile-bundle-');
  await writeFile(path.join(dir, name), bytes);
  const files = new Map([[name, { path: path.join(dir, name), sha256: sha256(bytes), md5: md5(bytes), size: bytes.length, id: 'cuda_nvrtc', kind: 'redist' }]]);
  return { dir, manifest: {} as OpenBundle['manifest'], files };
}

/** Replaces `file` by other bytes (a rename over it, as an attacker would) once cudawiz's copy appears under `dir` (`isCopy` names it); resolves when done. */
function swapWhenWritten(dir: string, file: string, attacker: Buffer, isCopy: (name: string) => boolean): { swapped: Promise<void> } {
  const swapped = new Promise<void>((resolve, reject) => {
    const w = watch(dir, { recursive: true }, (_event, name) => {
      if (!name || !isCopy(String(name))) return;
      w.close();
      const planted = `${file}.attacker`;
      writeFile(planted, attacker).then(() => rename(planted, file)).then(resolve, reject);
    });
  });
  return { swapped };
}

describe('a file swapped after its check is never the file used (#37 B1, B2)', () => {
  it('B1: a bundle archive replaced after the bundle was opened is refused, and nothing enters the cache', async () => {
    const original = randomBytes(256 * 1024);
    const name = 'cuda_nvrtc-linux-x86_64-11.8.89-archive.tar.xz';
    const bundle = await bundleWith(name, original);
    const cache = await tempDir('cw-hostile-cache-');
    // The swap: same size, other bytes, after the check and before the step reads it.
    const attacker = randomBytes(original.length);
    await writeFile(`${bundle.files.get(name)!.path}.x`, attacker);
    await rename(`${bundle.files.get(name)!.path}.x`, bundle.files.get(name)!.path);
    const error = await fileFromBundle(bundle, { file: name, checksum: { sha256: sha256(original) } }, cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CudawizError);
    expect((error as CudawizError).code).toBe('bundle-altered');
    expect((error as Error).message).toContain(`${name} changed after the bundle was checked`);
    expect(await readdir(cache)).not.toContain(name);
  });

  it('B1: a bundle archive replaced while cudawiz copies it: the cache holds the checked bytes, the attacker\'s are never read', async () => {
    const original = randomBytes(96 * 1024 * 1024);
    const name = 'cuda_nvrtc-linux-x86_64-11.8.89-archive.tar.xz';
    const bundle = await bundleWith(name, original);
    const cache = await tempDir('cw-hostile-cache-');
    const source = bundle.files.get(name)!.path;
    const attack = swapWhenWritten(cache, source, randomBytes(original.length), (n) => n.endsWith('.copy'));
    const r = await fileFromBundle(bundle, { file: name, checksum: { sha256: sha256(original) } }, cache);
    await attack.swapped;
    // The bundle now holds the attacker's bytes; what cudawiz unpacks from is the original.
    expect(sha256(await readFile(source))).not.toBe(sha256(original));
    expect(r.path).toBe(path.join(cache, name));
    expect(sha256(await readFile(r.path))).toBe(sha256(original));
    expect(r.sha256).toBe(sha256(original));
  }, 60_000);

  it('B2: a cuDNN archive replaced while it is checked: the toolkit gets the archive\'s own libcudnn, not the attacker\'s', async () => {
    const a = await buildCudnnArchive(await tempDir('cw-hostile-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2', libraryBytes: 24 * 1024 * 1024 });
    const evil = await buildCudnnArchive(await tempDir('cw-hostile-evil-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
    const originalArchive = await readFile(a.file);
    const scratchParent = await tempDir('cw-hostile-scratch-');
    // The watcher sees cudawiz's private folder appear, then swaps the archive the user named.
    const attack = swapWhenWritten(scratchParent, a.file, await readFile(evil.file), (n) => n.endsWith(path.basename(a.file)));
    const copy = await privateCopy(a.file, scratchParent, { sha256: sha256(originalArchive) });
    await attack.swapped;
    // The archive the user named now holds the attacker's bytes: the swap happened while cudawiz read it.
    expect(sha256(await readFile(a.file))).toBe(sha256(await readFile(evil.file)));
    const toolkit = path.join(await tempDir('cw-hostile-toolkit-'), 'cuda-11.2');
    await makeToolkit(toolkit, 'linux', '11.2');
    try {
      await importCudnn({ archive: copy.path, recordedAs: a.file, toolkitDir: toolkit, os: 'linux', tfCudnn: '8.1', cudaVersion: '11.2' });
    } finally {
      await copy.done();
    }
    const lib = 'lib64/libcudnn.so.8.1.1';
    const want = await libraryIn(originalArchive, a.format, 'cuda/lib64/libcudnn.so.8.1.1', await tempDir('cw-hostile-x-'));
    expect(sha256(await readFile(path.join(toolkit, lib)))).toBe(sha256(want));
    expect(JSON.parse(await readFile(path.join(toolkit, '.cudawiz/manifest.json'), 'utf8')).archive.file).toBe(a.file);
    expect(await readdir(scratchParent)).toEqual([]);
  }, 180_000);

  it('B2: a cuDNN archive replaced between the check and the copy is refused: nothing is copied anywhere', async () => {
    const a = await buildCudnnArchive(await tempDir('cw-hostile-cudnn-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
    const checked = sha256(await readFile(a.file));
    const evil = await buildCudnnArchive(await tempDir('cw-hostile-evil-'), { era: 'linux-cuda-folder', version: '8.1.1.33', cuda: '11.2' });
    await rename(evil.file, a.file);
    const scratchParent = await tempDir('cw-hostile-scratch-');
    const error = await privateCopy(a.file, scratchParent, { sha256: checked }).catch((e: unknown) => e);
    expect((error as { problem?: string }).problem).toBe('digest');
    expect(await readdir(scratchParent)).toEqual([]);
  });
});

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

describe('a download into a cache others can write (#37: a file from a mirror)', () => {
  it('is handed to the plan as a private copy (a fresh 0700 folder), hashed again from one open, never as the shared cache\'s name', async () => {
    mirror = await startMirror({ root: await tempDir('cw-mirror-') });
    const RUN = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';
    const content = randomBytes(512 * 1024);
    const info = await mirror.addFile(RUN, content);
    const cache = await tempDir('cw-shared-cache-');
    await chmod(cache, 0o777);
    const r = await fetchVerified({ url: `https://developer.download.nvidia.com/${RUN}`, file: path.basename(RUN), checksum: { sha256: info.sha256 }, cacheDir: cache, mirror: mirror.url, connections: 1 });
    expect(path.dirname(r.path)).not.toBe(cache);
    expect(((await stat(path.dirname(r.path))).mode & 0o777).toString(8)).toBe('700');
    expect(sha256(await readFile(r.path))).toBe(info.sha256);
  });
});

/** One member's bytes from a tar archive, extracted with the system tar. */
async function libraryIn(archive: Buffer, format: string, member: string, dir: string): Promise<Buffer> {
  const { execFileSync } = await import('node:child_process');
  const file = path.join(dir, `a.${format}`);
  await writeFile(file, archive);
  execFileSync('tar', ['-xf', file, '-C', dir, member]);
  return readFile(path.join(dir, member));
}
