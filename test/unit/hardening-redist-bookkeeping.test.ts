// Issue 33, item 3: a redist toolkit's bookkeeping is checked before it is trusted. `repair` never
// writes where `.cudawiz/redist.json`'s toolkitDir says (only where the file lies), never through a
// link someone laid in the toolkit, and not at all when another user owns that bookkeeping or anyone
// else could have written it. Real fixture archives from the local mirror, real files.
import { chmod, lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRedistCatalog, releaseArchives } from '../../src/redist/catalog.js';
import { downloadArchives, readRedistManifest, redistManifestFile, repairRedist, unpackRedist } from '../../src/redist/toolkit.js';
import { CudawizError } from '../../src/errors.js';
import { startMirror, type NvidiaMirror } from '../helpers/mirror.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** A complete redist toolkit, and a folder outside it holding someone's header. */
async function toolkit() {
  mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { kib: 1 });
  const catalog = loadRedistCatalog(fixture.overlay);
  const release = catalog.releases.find((r) => r.version === '11.8.0')!;
  const home = await tempDir('cw-redist-home-');
  const toolkitDir = path.join(home, 'cuda-11.8');
  const cacheDir = path.join(home, 'cache');
  const fetched = await downloadArchives({ catalog, archives: releaseArchives(catalog, release, 'linux').archives, cacheDir, mirror: mirror.url });
  await unpackRedist({ catalog, release, os: 'linux', toolkitDir, files: new Map([...fetched].map(([k, v]) => [k, v.path])) });
  const elsewhere = path.join(home, 'elsewhere');
  await mkdir(elsewhere);
  await writeFile(path.join(elsewhere, 'cuda_runtime_api.h'), '/* root-owned header */\n');
  const repair = () => repairRedist({ catalog, release, os: 'linux', toolkitDir, cacheDir, mirror: mirror!.url });
  const elsewhereUnchanged = async () => {
    expect((await readdir(elsewhere)).sort()).toEqual(['cuda_runtime_api.h']);
    expect(await readFile(path.join(elsewhere, 'cuda_runtime_api.h'), 'utf8')).toBe('/* root-owned header */\n');
  };
  return { toolkitDir, elsewhere, repair, elsewhereUnchanged };
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (error: unknown) => error);
  expect(e).toBeInstanceOf(CudawizError);
  return e as CudawizError;
};

describe("a redist toolkit's bookkeeping", () => {
  it("toolkitDir in redist.json pointing elsewhere: repair writes only where the file lies", async () => {
    const t = await toolkit();
    const file = redistManifestFile(t.toolkitDir);
    await writeFile(file, (await readFile(file, 'utf8')).replace(JSON.stringify(t.toolkitDir), JSON.stringify(t.elsewhere)));
    expect((await readRedistManifest(t.toolkitDir))?.toolkitDir).toBe(t.toolkitDir);
    await rm(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'));
    const r = await t.repair();
    expect(r.refetched).toEqual(['cuda_cudart']);
    expect((await lstat(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'))).isFile()).toBe(true);
    await t.elsewhereUnchanged();
  });

  it('a link laid in the toolkit (include → elsewhere): repair refuses to write through it, nothing outside changes', async () => {
    const t = await toolkit();
    await rm(path.join(t.toolkitDir, 'include'), { recursive: true });
    await symlink(t.elsewhere, path.join(t.toolkitDir, 'include'));
    const e = await refusal(t.repair());
    expect(e.code).toBe('redist-archive-unsafe');
    expect(e.message).toContain(t.elsewhere);
    await t.elsewhereUnchanged();
  });

  it('.cudawiz writable by everyone: refused before anything is read or written', async () => {
    const t = await toolkit();
    await chmod(path.join(t.toolkitDir, '.cudawiz'), 0o777);
    await rm(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'));
    const e = await refusal(t.repair());
    expect(e.code).toBe('redist-manifest-untrusted');
    expect(e.message).toContain('writable by other users');
    await expect(lstat(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'))).rejects.toThrow();
  });

  it.runIf(runningAsRoot)("another user's toolkit: root's repair refuses it and changes nothing", async () => {
    const t = await toolkit();
    await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, t.toolkitDir]);
    await rm(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'));
    const manifestBefore = await readFile(redistManifestFile(t.toolkitDir), 'utf8');
    const e = await refusal(t.repair());
    expect(e.code).toBe('redist-manifest-untrusted');
    expect(e.message).toContain(`owned by user ${NOBODY}, neither root nor you`);
    expect(await readFile(redistManifestFile(t.toolkitDir), 'utf8')).toBe(manifestBefore);
    expect((await lstat(redistManifestFile(t.toolkitDir))).uid).toBe(NOBODY);
    await expect(lstat(path.join(t.toolkitDir, 'include/cuda_runtime_api.h'))).rejects.toThrow();
  });
});
