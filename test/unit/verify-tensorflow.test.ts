import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { realHost } from '../../src/host.js';
import { importTensorflow } from '../../src/verify/tensorflow.js';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { parseNvccRelease, verifyNvcc } from '../../src/verify/nvcc.js';
import { tempDir } from '../helpers/tmp.js';
import { repoRoot } from '../helpers/cli.js';

const fixture = (name: string) => path.join(repoRoot, 'test/fixtures/python', name);

describe('importing TensorFlow in a fresh Python', () => {
  it('returns the log of a TF 2.3 that cannot find cudart64_101.dll, and no GPUs', async () => {
    const host = realHost({ ...process.env, PYTHONPATH: fixture('tf-no-gpu') });
    const r = await importTensorflow(host, 'python3');
    expect(r).toMatchObject({ ran: true, imported: true, version: '2.3.0', gpus: [] });
    expect(r.log).toContain("Could not load dynamic library 'cudart64_101.dll'");
    expect(r.build.cudnn_version).toBe('64_7');
  });

  it('lists the GPU a working TF 2.3 sees, and has no failed library load in its log', async () => {
    const r = await importTensorflow(realHost({ ...process.env, PYTHONPATH: fixture('tf23-linux-gpu') }), 'python3');
    expect(r.gpus).toEqual(['/physical_device:GPU:0']);
    expect(r.log).toContain('Successfully opened dynamic library libcudnn.so.7');
    expect(r.log).not.toContain('Could not load');
  });

  it('says TensorFlow is not importable when it is not installed', async () => {
    const r = await importTensorflow(realHost({ ...process.env, PYTHONPATH: '' }), 'python3');
    expect(r).toMatchObject({ ran: true, imported: false });
    expect(r.error).toMatch(/ModuleNotFoundError|No module named/);
  });

  it('reports a Python that cannot be started', async () => {
    const r = await importTensorflow(realHost(), '/nonexistent/python3');
    expect(r).toMatchObject({ ran: false, imported: false });
  });
});

describe('nvcc --version', () => {
  it("reads the release from this machine's real nvcc text", () => {
    const text = 'nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\nBuilt on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0.r13.0/compiler.36424714_0';
    expect(parseNvccRelease(text)).toBe('13.0');
    expect(parseNvccRelease('garbage')).toBeUndefined();
  });

  it('runs nvcc from a folder only root or this user can change, and never from one others can write (#33): then it reads version.json', async () => {
    const root = await tempDir('nvcc-trust-');
    const toolkit = path.join(root, 'cuda-11.8');
    await mkdir(path.join(toolkit, 'bin'), { recursive: true });
    await writeFile(path.join(toolkit, 'bin', 'nvcc'), `#!/bin/sh\necho ran > "${root}/ran"\necho "Cuda compilation tools, release 11.8, V11.8.89"\n`, { mode: 0o755 });
    await writeFile(path.join(toolkit, 'version.json'), JSON.stringify({ cuda: { name: 'CUDA SDK', version: '11.8.89' } }));
    const trusted = await verifyNvcc(realHost(), 'linux', toolkit, '11.8');
    expect(trusted).toMatchObject({ status: 'pass', evidence: [`${toolkit}/bin/nvcc --version → release 11.8`] });
    expect(existsSync(path.join(root, 'ran'))).toBe(true);
    await rm(path.join(root, 'ran'));
    // Like Debian's /usr/local (root:staff 2775): group-writable, no sticky bit.
    await chmod(toolkit, 0o2775);
    const untrusted = await verifyNvcc(realHost(), 'linux', toolkit, '11.8');
    expect(untrusted).toMatchObject({ status: 'pass', evidence: [`${toolkit}/bin/nvcc not run: ${toolkit} is writable by other users`, 'release 11.8 (from version.json)'] });
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
    const wrong = await verifyNvcc(realHost(), 'linux', toolkit, '11.2');
    expect(wrong.status).toBe('fail');
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });
});
