// `cudawiz repair` end to end, on machines left broken the way users leave them: the seed's (CUDA
// 11.0 + cuDNN 8 installed while TensorFlow 2.3 wants 10.1 + 7), and a cuDNN copy killed midway.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot, runBuilt } from '../helpers/cli.js';
import { buildCudnnArchive, treeDigest } from '../helpers/cudnn-archive.js';
import { importInChild, installByHand, laptop, type Laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';

let machine: Laptop | undefined;
afterEach(async () => {
  await machine?.mirror.close();
  machine = undefined;
});

const TF23 = path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu');

const events = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; id?: string; ok?: boolean; summary?: string; steps?: { id: string; done: boolean }[] });

describe('cudawiz repair', () => {
  it("fixes the seed's machine: CUDA 10.1 and cuDNN 7.6.5 go in beside 11.0 + cuDNN 8, which stay untouched", async () => {
    machine = await laptop(undefined, { pythonPath: TF23 });
    const m = machine;
    const cuda110 = await installByHand(m, 'cuda_11.0.3_450.51.06_linux.run', '11.0', 'libcublas.so.11 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.11');
    const cudnn8 = await buildCudnnArchive(await tempDir('cw-cudnn8-'), { era: 'linux-cuda-folder', version: '8.0.4.30', cuda: '11.0' });
    await importInChild(cudnn8.file, cuda110);
    const before110 = await treeDigest(cuda110);

    const doctor = await runBuilt(['doctor', '--json', ...m.globals], { env: m.env });
    expect(doctor.code).toBe(1);
    const findings = (JSON.parse(doctor.stdout) as { findings: { id: string; status: string; fix: string | null }[] }).findings;
    expect(findings.find((f) => f.id === 'toolkit')).toMatchObject({ status: 'fail' });

    const r = await runBuilt(['repair', '--yes', '--json', '--configure-env', 'no', ...m.globals], { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true });
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(expect.arrayContaining(['install-cuda', 'import-cudnn', 'verify']));
    expect(await treeDigest(cuda110)).toEqual(before110);
    // What the doctor still fails on is this test machine's Python 3.11, outside TF 2.3's 3.5–3.8.
    const after = await runBuilt(['doctor', '--json', ...m.globals], { env: m.env });
    const failing = (JSON.parse(after.stdout) as { findings: { id: string; status: string }[] }).findings.filter((f) => f.status === 'fail').map((f) => f.id);
    expect(failing).toEqual(['python']);
  });

  it('finishes a cuDNN copy that was killed midway, then verifies', async () => {
    machine = await laptop(undefined, { pythonPath: TF23 });
    const m = machine;
    const toolkit = await installByHand(m, 'cuda_10.1.243_418.87.00_linux.run', '10.1', 'libcublas.so.10 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.10');
    const big = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'linux-cuda-folder', extraLibraries: 10 });
    await importInChild(big.file, toolkit, 3);
    expect(JSON.parse(await readFile(path.join(toolkit, '.cudawiz/manifest.json'), 'utf8')).state).toBe('copying');

    const doctor = await runBuilt(['doctor', '--json', ...m.globals], { env: m.env });
    expect(JSON.parse(doctor.stdout).findings.map((f: { id: string }) => f.id)).toContain(`copy-interrupted:${toolkit}`);

    const r = await runBuilt(['repair', '--yes', '--json', '--configure-env', 'no', ...m.globals], { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true });
    const settled = ev.find((e) => e.type === 'step-done' && e.id?.startsWith('settle-copy:'));
    expect(settled?.summary).toMatch(/^finished: \d+ files of cuDNN 7\.6\.5/);
    // The finished copy counts as cuDNN in place, and the toolkit works: no step installs or copies again.
    const plan = ev.find((e) => e.type === 'plan')!;
    expect(plan.steps!.map((s) => s.id)).toEqual([`settle-copy:${toolkit}`, 'left-to-you', 'verify']);
    expect(JSON.parse(await readFile(path.join(toolkit, '.cudawiz/manifest.json'), 'utf8')).state).toBe('complete');
  });

  it('after Ctrl+C during the CUDA install (exit 130, a partial toolkit), repair installs it again and finishes', async () => {
    machine = await laptop(undefined, { pythonPath: TF23 });
    // The stopped runfile leaves its /tmp log behind; cudawiz moves the real one aside before the next
    // run (tested with the installer's own tests), which the built CLI cannot be pointed at here.
    const m = { ...machine, env: { ...machine.env, CUDA_FIXTURE_TMP_LOG: '' } };
    const child = execa(process.execPath, [builtCli, 'install', '--tf', '2.3', '--yes', '--json', '--configure-env', 'no', '--downloads', m.downloads, ...m.globals], {
      env: { ...m.env, CUDA_FIXTURE_FAIL: 'hang' },
      extendEnv: false,
      reject: false,
    });
    const lines: string[] = [];
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line);
      const e = JSON.parse(line) as { type: string; id?: string; line?: string };
      // The installer said where it installs, then hangs: a user presses Ctrl+C.
      if (e.type === 'log' && e.id === 'install-cuda' && e.line?.startsWith('Installing to')) {
        child.kill('SIGINT');
      }
    }
    const stopped = await child;
    expect(stopped.exitCode, stopped.stderr).toBe(130);
    const failed = lines.map((l) => JSON.parse(l)).find((e) => e.type === 'step-failed');
    expect(failed).toMatchObject({ id: 'install-cuda' });
    expect(failed.message).toMatch(/partial/);

    const r = await runBuilt(['repair', '--yes', '--json', '--configure-env', 'no', '--downloads', m.downloads, ...m.globals], { env: m.env });
    const ev = events(r.stdout);
    expect(ev.at(-1), r.stdout + r.stderr).toMatchObject({ type: 'result', ok: true });
    expect(ev.filter((e) => e.type === 'step-done').map((e) => e.id)).toEqual(expect.arrayContaining(['install-cuda', 'import-cudnn', 'verify']));
  });

  it('without a TensorFlow to aim at, says how to name one (exit 2)', async () => {
    machine = await laptop();
    const r = await runBuilt(['repair', ...machine.globals], { env: machine.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cudawiz repair --tf');
  });
});
