import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { finishImport, importState, rollbackImport } from '../../src/cudnn/index.js';
import { bundleForNode } from '../../bench/bundle-for-node.mjs';
import { runCli, repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive, makeToolkit, treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

/** Bundles the fixture script (and our module under it) into one file a plain `node` can run. */
async function bundledFixture(): Promise<string> {
  return bundleForNode(path.join(repoRoot, 'test/fixtures/slow-cudnn-import.ts'), path.join(await tempDir(), 'slow-cudnn-import.mjs'));
}

/** Starts a slow copy in a real child process and SIGKILLs it once `afterFiles` files are in place. */
async function killMidway(archive: string, toolkit: string, afterFiles: number) {
  const child = execa(process.execPath, [await bundledFixture(), archive, toolkit, 'linux', '100'], { reject: false });
  const lines = createInterface({ input: child.stdout! });
  let placed = 0;
  for await (const line of lines) {
    const event = JSON.parse(line) as { files?: number; done?: boolean };
    expect(event.done, 'the copy finished before it could be killed').toBeUndefined();
    placed = event.files ?? 0;
    if (placed >= afterFiles) {
      child.kill('SIGKILL');
      break;
    }
  }
  const result = await child;
  expect(result.signal).toBe('SIGKILL');
  return placed;
}

describe('a cuDNN copy killed midway', () => {
  it('is seen as interrupted next run, then finished, then rolled back to the original tree', async () => {
    const toolkit = path.join(await tempDir(), 'cuda-10.1');
    await makeToolkit(toolkit, 'linux');
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder', extraLibraries: 10 });

    const placed = await killMidway(a.file, toolkit, 3);
    const manifest = JSON.parse(await readFile(path.join(toolkit, '.cudawiz/manifest.json'), 'utf8'));
    expect(manifest.state).toBe('copying');
    const state = await importState(toolkit);
    if (state.state !== 'interrupted') throw new Error(`expected interrupted, got ${state.state}`);
    expect(state.placed.length).toBeGreaterThanOrEqual(placed);
    expect(state.pending.length).toBeGreaterThan(0);
    expect(state.canFinish).toBe(true);

    const finished = await finishImport(toolkit);
    expect(finished.state).toBe('complete');
    expect(await importState(toolkit)).toMatchObject({ state: 'complete' });
    for (const dest of Object.values(a.expected)) expect((await treeDigest(toolkit))[dest], dest).toBeDefined();

    const r = await rollbackImport(toolkit);
    expect(r.removed.length).toBe(Object.keys(a.expected).length);
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('can be rolled back straight away by `cudawiz rollback --cuda-dir`', async () => {
    const toolkit = path.join(await tempDir(), 'cuda-10.1');
    await makeToolkit(toolkit, 'linux');
    const before = await treeDigest(toolkit);
    const a = await buildCudnnArchive(await tempDir(), { era: 'linux-cuda-folder', extraLibraries: 10 });
    await killMidway(a.file, toolkit, 2);
    const r = await runCli(['rollback', '--cuda-dir', toolkit, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.toolkits[0]).toMatchObject({ toolkitDir: toolkit, from: 'copying', kept: [] });
    expect(doc.toolkits[0].removed.length).toBeGreaterThanOrEqual(2);
    expect(await treeDigest(toolkit)).toEqual(before);
  });

  it('killed before its manifest was written, it leaves only scratch folders, which rollback removes', async () => {
    const toolkit = path.join(await tempDir(), 'cuda-10.1');
    await makeToolkit(toolkit, 'linux');
    const before = await treeDigest(toolkit);
    // What a pass killed while unpacking leaves: cudawiz's bookkeeping folder with a half-written incoming/.
    await mkdir(path.join(toolkit, '.cudawiz', 'incoming', 'cuda', 'lib64'), { recursive: true });
    await writeFile(path.join(toolkit, '.cudawiz', 'incoming', 'cuda', 'lib64', 'libcudnn.so.7.6.5'), 'half');
    const r = await rollbackImport(toolkit);
    expect(r.from).toBe('none');
    expect(await treeDigest(toolkit)).toEqual(before);
  });
});

