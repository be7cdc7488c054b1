// Issue 18, item 13: a run killed before its manifest existed leaves only .cudawiz/incoming and
// .cudawiz/staging (possibly GBs). Plain `rollback` clears them and says so; the doctor mentions them.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import { realHost } from '../../src/host.js';
import { probeMachine } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { makeToolkit, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

async function killedBeforeManifest() {
  const root = await tempDir();
  const toolkit = await makeToolkit(path.join(root, 'cuda-10.1'), 'linux');
  const pristine = await treeDigest(toolkit);
  await mkdir(path.join(toolkit, '.cudawiz/incoming/cuda/lib64'), { recursive: true });
  await writeFile(path.join(toolkit, '.cudawiz/incoming/cuda/lib64/libcudnn.so.7.6.5'), Buffer.alloc(1 << 20));
  await mkdir(path.join(toolkit, '.cudawiz/staging/cuda/include'), { recursive: true });
  await writeFile(path.join(toolkit, '.cudawiz/staging/cuda/include/cudnn.h'), 'x');
  return { root, toolkit, pristine };
}

describe('scratch left by a run killed before its manifest', () => {
  it('plain rollback (walking --cuda-root) clears it and says so; the toolkit is as before the run', async () => {
    const { root, toolkit, pristine } = await killedBeforeManifest();
    const r = await runCli(['rollback', '--cuda-root', root], { host: { os: 'linux' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${toolkit}: removed the scratch files an interrupted run left in .cudawiz (incoming, staging).`);
    expect(await readdir(toolkit)).not.toContain('.cudawiz');
    expect(await treeDigest(toolkit)).toEqual(pristine);
  });

  it('the doctor names it, with the command that clears it', async () => {
    const { root, toolkit } = await killedBeforeManifest();
    const facts = await probeMachine(realHost(), { cudaRoot: root, catalog: builtinCatalog() });
    const f = diagnose(builtinCatalog(), facts, { os: 'linux' }).find((x) => x.id === `copy-leftovers:${toolkit}`);
    expect(f).toMatchObject({ status: 'warn' });
    expect(f!.evidence.join(' ')).toContain(path.join(toolkit, '.cudawiz', 'incoming'));
    expect(f!.fix).toContain(`cudawiz rollback --cuda-dir "${toolkit}"`);
  });
});
