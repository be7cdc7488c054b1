// Issue 32 for the Windows zips: the same containment as the tar.xz archives. A member climbing out
// (`T/../../x`) is refused with nothing written outside and no half-made toolkit; a doubled slash or
// `./` in a name is one spelling of the same member, landing inside; a zip link is never written.
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRedistCatalog, releaseArchives } from '../../src/redist/catalog.js';
import { downloadArchives, unpackRedist } from '../../src/redist/toolkit.js';
import { CudawizError } from '../../src/errors.js';
import type { FixtureEntry } from '../helpers/cudnn-archive.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

async function unpackWith(extra: Record<string, (top: string) => FixtureEntry[]>) {
  const home = await tempDir('cw-redist-zip-');
  const elsewhere = path.join(home, 'elsewhere');
  await mkdir(elsewhere);
  await writeFile(path.join(elsewhere, 'keep.dll'), 'theirs');
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { platform: 'windows-x86_64', kib: 1, extra });
  const catalog = loadRedistCatalog(fixture.overlay);
  const release = catalog.releases.find((r) => r.version === '11.8.0')!;
  const toolkitDir = path.join(home, 'toolkits', 'v11.8');
  const fetched = await downloadArchives({ catalog, archives: releaseArchives(catalog, release, 'windows').archives, cacheDir: path.join(home, 'cache'), mirror: mirror.url });
  const result = await unpackRedist({ catalog, release, os: 'windows', toolkitDir, files: new Map([...fetched].map(([k, v]) => [k, v.path])) }).then(
    (m) => ({ m }),
    (error: unknown) => ({ error }),
  );
  return { home, elsewhere, toolkitDir, result };
}

describe('redist zips (Windows)', () => {
  it('a member climbing out of the archive: refused, nothing outside, no half-made toolkit', async () => {
    const u = await unpackWith({ libcublas: (top) => [{ name: `${top}/bin/../../../elsewhere/evil.dll`, data: 'evil' }] });
    expect('error' in u.result && u.result.error).toBeInstanceOf(CudawizError);
    expect(((u.result as { error: CudawizError }).error).code).toMatch(/^redist-archive-(unsafe|unreadable)$/);
    expect(await readdir(u.elsewhere)).toEqual(['keep.dll']);
    expect(await readFile(path.join(u.elsewhere, 'keep.dll'), 'utf8')).toBe('theirs');
    await expect(lstat(u.toolkitDir)).rejects.toThrow();
  });

  it('a doubled slash or ./ is the same member, landing inside; a zip link is never written', async () => {
    const u = await unpackWith({
      cuda_cudart: (top) => [
        { name: `${top}//bin/./extra64_1.dll`, data: 'inside' },
        { name: `${top}/bin/link.dll`, type: 'symlink', target: '/tmp/cudawiz-nowhere/keep.dll' },
      ],
    });
    expect('m' in u.result, String((u.result as { error?: Error }).error)).toBe(true);
    expect(await readFile(path.join(u.toolkitDir, 'bin', 'extra64_1.dll'), 'utf8')).toBe('inside');
    await expect(lstat(path.join(u.toolkitDir, 'bin', 'link.dll'))).rejects.toThrow();
    expect(await readdir(u.elsewhere)).toEqual(['keep.dll']);
  });
});
