// Issue 18, item 5: the catalog's sha256 applies to whatever file Downloads-folder discovery
// matched as the archive (a browser's "name (1).tgz", "name(2).tgz", another case), not only to
// the exact name. The built CLI runs install against the local mirror with an impostor archive
// (a real, well-formed cuDNN tgz that is not NVIDIA's bytes) under each of those names.
import { rename, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isDownloadOf } from '../../src/cudnn/downloads.js';
import { runBuilt } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { laptop } from '../helpers/laptop.js';
import type { NvidiaMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const NAME = 'cudnn-10.1-linux-x64-v7.6.5.32.tgz';

describe('an archive found in Downloads under a name of its own', () => {
  it('names a browser or the user may give it count as that archive', () => {
    for (const n of [NAME, 'cudnn-10.1-linux-x64-v7.6.5.32 (1).tgz', 'cudnn-10.1-linux-x64-v7.6.5.32(2).tgz', 'CUDNN-10.1-Linux-x64-v7.6.5.32.TGZ']) expect(isDownloadOf(n, NAME)).toBe(true);
    for (const n of ['cudnn-10.1-linux-x64-v7.6.4.38.tgz', 'my-cudnn.tgz', `${NAME}.part`]) expect(isDownloadOf(n, NAME)).toBe(false);
  });

  it.each(['cudnn-10.1-linux-x64-v7.6.5.32 (1).tgz', 'CUDNN-10.1-linux-x64-v7.6.5.32.tgz'])('%s that is not NVIDIA\'s bytes: refused by its sha256 before it is opened', async (name) => {
    const m = await laptop();
    mirror = m.mirror;
    // The real archive goes; an impostor of the same shape takes a browser's duplicate name.
    await rename(m.archive, path.join(await tempDir(), NAME));
    const impostor = await buildCudnnArchive(m.downloads, { era: 'linux-cuda-folder', fileName: name });
    const future = new Date(Date.now() + 60_000);
    await utimes(impostor.file, future, future);
    const r = await runBuilt(['install', '--tf', '2.3', '--yes', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no'], { env: m.env });
    expect(r.stdout + r.stderr).toContain(`${impostor.file} is not NVIDIA's ${NAME}`);
    expect(r.code).toBe(1);
    expect(await readdir(path.join(m.toolkit, 'lib64'))).not.toContain('libcudnn.so.7');
  });
});
