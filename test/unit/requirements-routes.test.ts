// `requirements` lists every route TensorFlow has on the chosen OS, side by side, with each file's
// size and sha256 from the catalog and the redist manifests in assets/, in both languages.
import { describe, expect, it } from 'vitest';
import redistData from '../../assets/redist/cuda.json' with { type: 'json' };
import { routeFiles } from '../../src/routes/index.js';
import { loadCatalog } from '../../src/catalog/load.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';

interface RouteDoc { route: string; available: boolean; reason?: string; cuda?: string; totalBytes: number | null; knownBytes: number; sizesKnown: boolean; needs: { admin: boolean; login: boolean }; files: { id: string; file: string; size?: number; sha256?: string; access: string }[]; pip?: { requirement: string } }

const manifest = (version: string) => redistData.releases.find((r) => r.version === version)! as unknown as { components: Record<string, Record<string, { relative_path: string; sha256: string; size: string }>> };

describe('requirements: every route, side by side', () => {
  it('TF 2.10 on Windows: the installer route, the redist zips with their manifest sizes and sha256, and no pip route', async () => {
    const r = await runCli(['requirements', '--tf', '2.10', '--os', 'windows', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const routes = JSON.parse(r.stdout).routes as RouteDoc[];
    // In the one order of every route list (src/routes/ids.ts): redist, pip, the installer.
    expect(routes.map((x) => [x.route, x.available])).toEqual([['redist', true], ['pip', false], ['toolkit', true]]);
    const redist = routes[0];
    expect(redist.cuda).toBe('11.8.0');
    expect(redist.needs).toEqual({ admin: false, login: false });
    const cublas = redist.files.find((f) => f.id === 'libcublas')!;
    const fromManifest = manifest('11.8.0').components.libcublas['windows-x86_64'];
    expect(cublas).toMatchObject({ file: 'libcublas-windows-x86_64-11.11.3.6-archive.zip', size: Number(fromManifest.size), sha256: fromManifest.sha256, access: 'public' });
    expect(redist.files.map((f) => f.id)).toEqual(['cuda_cudart', 'libcublas', 'libcufft', 'libcurand', 'libcusolver', 'libcusparse', 'cuda_cupti', 'cuda_nvcc', 'cuda_nvrtc', 'cudnn']);
    // The cuDNN zip's size is unknown to the catalog: no total, and never 0.
    expect(redist.sizesKnown).toBe(false);
    expect(redist.totalBytes).toBeNull();
    expect(redist.knownBytes).toBe(redist.files.reduce((n, f) => n + (f.size ?? 0), 0));
    expect(routes[2].needs.admin).toBe(true);
    expect(routes[2].files.map((f) => f.file)).toEqual(['cuda_11.2.2_461.33_win10.exe', 'cudnn-11.2-windows-x64-v8.1.0.77.zip']);
    expect(routes[1].reason).toContain('Linux and WSL2 only');

    const text = await runCli(['requirements', '--tf', '2.10', '--os', 'windows', '--no-color']);
    expect(text.stdout).toContain('libcublas-windows-x86_64-11.11.3.6-archive.zip  401.4 MiB');
    expect(text.stdout).toContain(`sha256 ${fromManifest.sha256}`);
    expect(text.stdout).toContain('CUDA 11.8.0; no administrator; no login; 10 files, at least 1.1 GiB (some sizes unknown)');
    expect(text.stdout).toContain('CUDA 11.2.2; needs an administrator; no login; 2 files, size unknown');
    expect(text.stdout).not.toMatch(/\b0 B\b/);
  });

  it('TF 2.16 on Linux: all three routes, the redist total known to the byte, pip as its requirement with the size unknown', async () => {
    const r = await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--json']);
    const routes = JSON.parse(r.stdout).routes as RouteDoc[];
    expect(routes.map((x) => x.available)).toEqual([true, true, true]);
    const redist = routes[0];
    expect(redist.files.map((f) => f.id)).toContain('libnvjitlink');
    expect(redist.sizesKnown).toBe(true);
    expect(redist.totalBytes).toBe(redist.files.reduce((n, f) => n + f.size!, 0));
    expect(routes[1].pip?.requirement).toBe('tensorflow[and-cuda]==2.16.1');
    expect(routes[1].totalBytes).toBeNull();
    const text = await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--no-color']);
    expect(text.stdout).toMatch(/pip — tensorflow\[and-cuda\] and the NVIDIA wheels it pins\n {6}no administrator; no login; size unknown\n/);
  });

  it('TF 2.12 on Linux: toolkit and redist (CUDA 11.8), and why there is no pip route', async () => {
    const c = loadCatalog();
    const redist = loadRedistCatalog();
    const toolkit = routeFiles(c, redist, '2.12', 'linux', 'toolkit');
    expect(toolkit.files.map((f) => f.file)).toEqual(['cuda_11.8.0_520.61.05_linux.run', 'cudnn-linux-x86_64-8.6.0.163_cuda11-archive.tar.xz']);
    expect(routeFiles(c, redist, '2.12', 'linux', 'redist').cuda).toBe('11.8.0');
    const pip = routeFiles(c, redist, '2.12', 'linux', 'pip');
    expect(pip).toMatchObject({ available: false, files: [] });
    expect(pip.reason).toContain('predates tensorflow[and-cuda]');
  });

  it('says it all in Chinese with --lang zh', async () => {
    const r = await runCli(['requirements', '--tf', '2.16', '--os', 'linux', '--lang', 'zh', '--no-color']);
    expect(r.stdout).toContain('不需要管理员权限；不需要登录；11 个文件，共 3.1 GiB');
    expect(englishIn(r.stdout)).toEqual([]);
    const w = await runCli(['requirements', '--tf', '2.10', '--os', 'windows', '--lang', 'zh', '--no-color']);
    expect(w.stdout).toContain('至少 1.1 GiB（有些文件大小未知）');
    expect(englishIn(w.stdout)).toEqual([]);
  });
});
