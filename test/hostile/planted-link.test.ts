// #37 class 2, "a write through a link someone planted at the name cudawiz writes", and the reads
// that followed a planted link: B12 (`download --dest D`, D 0777, `ln -s VICTIM D/cudawiz-bundle.json.tmp`),
// P3 (`ln -s VICTIM <venv>/.cudawiz-wheel-library-fix.json`), a bundle file linked to a secret (its
// digest printed), a manifest linked to a secret (its first bytes in a JSON parse error), a 20 GiB
// sparse file hashed before its size was compared, and a FIFO that would hang the check. VICTIM
// stands for a root-only file (/etc/shadow): a 0600 file in a temp folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, open, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundleManifest, writeBundleManifest, type BundleManifest } from '../../src/bundle/manifest.js';
import { applyWheelLibraryFix, FIX_RECORD, type WheelLibraryFix } from '../../src/pip/wheel-fix.js';
import { copyVerified, hashOnce, VerifyFailure } from '../../src/trust/verified-file.js';
import { replaceFile, writeNewFile } from '../../src/trust/write.js';
import { tempDir } from '../helpers/tmp.js';

const SECRET = 'root:$6$abcdefgh$SECRETHASHSECRETHASH:19000:0:99999:7:::\n';
const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

async function victim(): Promise<string> {
  const dir = await tempDir('cw-victim-');
  const file = path.join(dir, 'shadow');
  await writeFile(file, SECRET, { mode: 0o600 });
  return file;
}

const manifest: BundleManifest = { format: 1, cudawiz: '0.0.0-test', tensorflow: '2.10', route: 'redist', os: 'linux', cuda: '11.8', cudnn: '8.1', complete: false, created: new Date(0).toISOString(), files: [] };

describe('a link planted where cudawiz writes is never written through (#37 B12, P3)', () => {
  it('B12: --dest D (0777) with D/cudawiz-bundle.json.tmp → VICTIM: the manifest is written, VICTIM is untouched', async () => {
    const v = await victim();
    const d = await tempDir('cw-dest-');
    await chmod(d, 0o777);
    await symlink(v, path.join(d, 'cudawiz-bundle.json.tmp'));
    await writeBundleManifest(d, manifest);
    expect(await readFile(v, 'utf8')).toBe(SECRET);
    expect((await readBundleManifest(d)).manifest).toEqual(manifest);
    // A link planted at the final name is replaced, not followed.
    await rm(path.join(d, 'cudawiz-bundle.json'));
    await symlink(v, path.join(d, 'cudawiz-bundle.json'));
    await writeBundleManifest(d, { ...manifest, complete: true });
    expect(await readFile(v, 'utf8')).toBe(SECRET);
    expect((await readBundleManifest(d)).manifest?.complete).toBe(true);
    // No temp file is left beside it.
    expect((await readdir(d)).sort()).toEqual(['cudawiz-bundle.json', 'cudawiz-bundle.json.tmp']);
  });

  it('P3: <venv>/.cudawiz-wheel-library-fix.json → VICTIM: the record replaces the link, VICTIM is untouched', async () => {
    const v = await victim();
    const venv = await tempDir('cw-venv-');
    await mkdir(path.join(venv, 'bin'));
    const activate = path.join(venv, 'bin/activate');
    await writeFile(activate, '# activate\nexport VIRTUAL_ENV=x\n', { mode: 0o644 });
    await symlink(v, path.join(venv, FIX_RECORD));
    const plan = { venv, activateScript: activate, missingDirs: ['/x/nvidia/cudnn/lib'], dirs: ['/x/nvidia/cudnn/lib'], needed: true, recommended: true, alreadyApplied: false, why: [], lines: ['# >>> cudawiz', 'export LD_LIBRARY_PATH=/x/nvidia/cudnn/lib', '# <<< cudawiz'] } as unknown as WheelLibraryFix;
    const r = await applyWheelLibraryFix(plan, { consent: true });
    expect(r.applied).toBe(true);
    expect(await readFile(v, 'utf8')).toBe(SECRET);
    expect(JSON.parse(await readFile(path.join(venv, FIX_RECORD), 'utf8')).dirs).toEqual(['/x/nvidia/cudnn/lib']);
    expect((await lstat(path.join(venv, FIX_RECORD))).isFile()).toBe(true);
    expect(await readFile(activate, 'utf8')).toContain('/x/nvidia/cudnn/lib');
    expect(((await stat(activate)).mode & 0o777).toString(8)).toBe('644');
  });

  it('the write module: a new file is never created through a link, a replaced one never written through one', async () => {
    const v = await victim();
    const d = await tempDir('cw-write-');
    await symlink(v, path.join(d, 'new'));
    await expect(writeNewFile(path.join(d, 'new'), 'x')).rejects.toMatchObject({ code: 'EEXIST' });
    await replaceFile(path.join(d, 'new'), 'mine', { mode: 0o600 });
    expect(await readFile(v, 'utf8')).toBe(SECRET);
    expect(await readFile(path.join(d, 'new'), 'utf8')).toBe('mine');
    await chmod(d, 0o777);
    await expect(replaceFile(path.join(d, 'other'), 'x', { privateDir: true })).rejects.toMatchObject({ code: 'EPERM' });
  });
});

describe('a link or odd file planted where cudawiz reads is not read (#37, low)', () => {
  it('a bundle file linked to a secret is refused as a link: never hashed, its digest never printed', async () => {
    const v = await victim();
    const d = await tempDir('cw-bundle-');
    await symlink(v, path.join(d, 'cuda_nvrtc-archive.tar.xz'));
    const e = (await hashOnce(path.join(d, 'cuda_nvrtc-archive.tar.xz')).catch((x: unknown) => x)) as VerifyFailure;
    expect(e).toBeInstanceOf(VerifyFailure);
    expect(e.problem).toBe('link');
    expect(e.got).toBeUndefined();
    expect(e.message).not.toContain(sha256(SECRET));
    expect(e.message).toContain('is a link');
    const to = path.join(d, 'copy');
    await expect(copyVerified(path.join(d, 'cuda_nvrtc-archive.tar.xz'), to)).rejects.toMatchObject({ problem: 'link' });
    expect(await readdir(d)).toEqual(['cuda_nvrtc-archive.tar.xz']);
  });

  it('a manifest linked to a secret is refused as a link; a manifest of other bytes never has them quoted', async () => {
    const v = await victim();
    const linked = await tempDir('cw-bundle-');
    await symlink(v, path.join(linked, 'cudawiz-bundle.json'));
    const r = await readBundleManifest(linked);
    expect(r.invalid).toContain('is a link');
    expect(r.invalid).not.toContain('root:');
    const copied = await tempDir('cw-bundle-');
    await writeFile(path.join(copied, 'cudawiz-bundle.json'), SECRET);
    const c = await readBundleManifest(copied);
    expect(c.invalid).toBe('it is not JSON');
  });

  it('a 20 GiB sparse file is refused on its size before a byte is hashed', async () => {
    const d = await tempDir('cw-sparse-');
    const f = path.join(d, 'cuda_nvrtc-archive.tar.xz');
    const fh = await open(f, 'w');
    await fh.truncate(20 * 1024 ** 3);
    await fh.close();
    // Hashing 20 GiB would outlast the test's timeout many times over: the refusal comes from the size alone.
    const e = (await hashOnce(f, { size: 1024, sha256: '0'.repeat(64) }).catch((x: unknown) => x)) as VerifyFailure;
    expect(e.problem).toBe('size');
    expect(e.message).toContain(`is ${20 * 1024 ** 3} bytes, not the 1024 expected`);
  }, 20_000);

  it('a FIFO at a bundle file\'s name is refused as not a file, without waiting for a writer', async () => {
    const d = await tempDir('cw-fifo-');
    const f = path.join(d, 'cuda_nvrtc-archive.tar.xz');
    execFileSync('mkfifo', [f]);
    await expect(hashOnce(f)).rejects.toMatchObject({ problem: 'not-a-file' });
  }, 20_000);
});
