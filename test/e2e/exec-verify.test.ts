// A cached installer is checked again right before it runs as root: one swapped in the cache after
// its proof was written (same size, mtime put back) is refused and never executed, and a cache that
// other users can write is not trusted at all. The fixture runfile logs every run to CUDA_FIXTURE_CALLS.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { laptop as makeLaptop } from '../helpers/laptop.js';
import type { NvidiaMirror } from '../helpers/mirror.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const RUN = 'cuda_10.1.243_418.87.00_linux.run';

async function laptop() {
  const l = await makeLaptop();
  mirror = l.mirror;
  const calls = path.join(l.home, 'installer-calls.log');
  return { ...l, calls, env: { ...l.env, CUDA_FIXTURE_CALLS: calls }, cached: path.join(l.cache, RUN) };
}

/** What an attacker with write access to the cache does: other bytes, same size, the old mtime put back to the nanosecond. */
async function swapInPlace(file: string): Promise<void> {
  const before = await stat(file, { bigint: true });
  const evil = Buffer.from('#!/bin/sh\necho "EVIL $0" >> "$CUDA_FIXTURE_CALLS"\nexit 0\n');
  const padded = Buffer.concat([evil, Buffer.alloc(Number(before.size) - evil.length, '#')]);
  await writeFile(file, padded);
  const ns = before.mtimeNs;
  await execa('touch', ['-m', '-d', `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`, file]);
  const after = await stat(file, { bigint: true });
  expect(after.size).toBe(before.size);
  expect(after.mtimeNs).toBe(before.mtimeNs);
}

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

describe('re-verify before execute', () => {
  it('refuses a cached installer changed after its proof was written, and runs nothing', async () => {
    const m = await laptop();
    const fetched = await runBuilt(['download', 'cuda', '--version', '10.1', '--os', 'linux', ...m.globals], { env: m.env });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(existsSync(`${m.cached}.verified.json`)).toBe(true);
    await swapInPlace(m.cached);

    const r = await runBuilt(['install', '--tf', '2.3', '--yes', '--json', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no'], { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const failed = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id?: string; message?: string; fix?: string }).find((e) => e.type === 'step-failed');
    expect(failed).toMatchObject({ id: 'install-cuda' });
    expect(failed!.message).toContain(`${m.cached} is not the file that was verified`);
    expect(failed!.message).toContain('nothing was run');
    expect(failed!.fix).toContain(`rm ${m.cached}`);
    expect(existsSync(m.calls)).toBe(false);
    expect(existsSync(path.join(m.toolkit, 'bin', 'nvcc'))).toBe(false);
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  });

  it('runs the verified installer from a private copy, never from the cache', async () => {
    const m = await laptop();
    const r = await runBuilt(['install', '--tf', '2.3', '--yes', '--json', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no'], { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const ran = (await readFile(m.calls, 'utf8')).trim().split('\n');
    expect(ran).toHaveLength(1);
    const runPath = ran[0].split(' ')[0];
    expect(path.basename(runPath)).toBe(RUN);
    expect(path.basename(path.dirname(runPath))).toMatch(/^cudawiz-exec-/);
    expect(runPath).not.toBe(m.cached);
    // The private copy is gone once the installer has finished.
    expect(existsSync(path.dirname(runPath))).toBe(false);
  });

  it('does not trust a cache other users can write: says so, checks the file in full and replaces a swapped one', async () => {
    const m = await laptop();
    const first = await runBuilt(['download', 'cuda', '--version', '10.1', '--os', 'linux', ...m.globals], { env: m.env });
    expect(first.code, first.stderr).toBe(0);
    const genuine = await sha256(m.cached);
    await chmod(m.cache, 0o777);
    await swapInPlace(m.cached);
    const r = await runBuilt(['download', 'cuda', '--version', '10.1', '--os', 'linux', '--json', ...m.globals], { env: m.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`The cache ${m.cache} can be written by other users`);
    expect(JSON.parse(r.stdout)).toMatchObject({ fromCache: false, sha256: genuine });
    expect(await sha256(m.cached)).toBe(genuine);
  });
});
