import { describe, expect, it } from 'vitest';
import { runBuilt, runCli } from '../helpers/cli.js';

describe('cudawiz requirements', () => {
  it("tells the seed's author what TF 2.3 loads on Windows: cudart64_101.dll and cudnn64_7.dll", async () => {
    const r = await runCli(['requirements', '--tf', '2.3', '--os', 'windows', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ tensorflow: '2.3', os: 'windows', gpuSupported: true, cuda: '10.1', cudnn: '7.6', python: { min: '3.5', max: '3.8' } });
    const files = doc.libraries.map((l: { file: string }) => l.file);
    expect(files).toContain('cudart64_101.dll');
    expect(files).toContain('cudnn64_7.dll');
    expect(doc.cudaInstaller.file).toBe('cuda_10.1.243_426.00_win10.exe');
    expect(doc.cudnnArchive.file).toBe('cudnn-10.1-windows10-x64-v7.6.5.32.zip');
  });

  it('gives a patch release its minor line (2.3.1 → the 2.3.0 row) on Linux', async () => {
    const r = await runCli(['requirements', '--tf', '2.3.1', '--os', 'linux', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.row).toBe('2.3.0');
    expect(doc.libraries.map((l: { file: string }) => l.file)).toEqual(expect.arrayContaining(['libcudart.so.10.1', 'libcudnn.so.7', 'libcuda.so.1']));
  });

  it('refuses an unknown version with exit 2 and names the nearest known ones', async () => {
    const r = await runBuilt(['requirements', '--tf', '2.99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown TensorFlow version "2\.99"\. Nearest known: /);
  });

  it('is a usage error without --tf', async () => {
    const r = await runCli(['requirements']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tf is required');
  });
});

describe('the built CLI', () => {
  it('answers --version and --help', async () => {
    const v = await runBuilt(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await runBuilt(['--help']);
    for (const cmd of ['requirements', 'doctor', 'explain', 'download', 'install', 'repair', 'rollback']) expect(h.stdout).toContain(cmd);
  });

  it('without a terminal, the wizard names the headless commands and exits 2', async () => {
    const r = await runBuilt([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cudawiz doctor --json');
  });

  it('rejects an unknown flag with exit 2', async () => {
    const r = await runBuilt(['requirements', '--tf', '2.3', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('frobnicate');
  });
});
