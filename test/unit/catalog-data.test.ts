// The catalog is data copied from public tables: these tests read it the way a reviewer would,
// looking for the kinds of mistake a hand-copied table makes (order, duplicates, broken links,
// truncated checksums, rows that point nowhere) and at facts we know by heart.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog, loadCatalog } from '../../src/catalog/load.js';
import { cudaFamily, findCudaRelease, findCudnnRelease, windowsComponents } from '../../src/catalog/queries.js';
import type { Catalog } from '../../src/catalog/schema.js';
import { linuxInstallerArgs } from '../../src/cuda/args.js';
import { CudawizError } from '../../src/errors.js';
import { OS_NAMES, type OsName } from '../../src/platform.js';
import { compareDotted, major, majorMinor } from '../../src/version.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const NVIDIA_HOSTS = ['developer.download.nvidia.com', 'developer.nvidia.com'];

/** Every [path, value] pair of a JSON-like tree, paths written like `cuda.releases[3].installers.linux.url`. */
function leaves(node: unknown, at = ''): [string, unknown][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => leaves(v, `${at}[${i}]`));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [[at, node]];
}
const lastKey = (p: string) => p.slice(p.lastIndexOf('.') + 1);
const isAscending = (vs: string[]) => vs.every((v, i) => i === 0 || compareDotted(vs[i - 1], v) < 0);

// TF rows on CUDA 8.0: the catalog has no CUDA 8 installers and no cuDNN 5.1/6 builds (domain.md §3, §5 start at 9.0 / 7.x).
const KNOWN_GAPS = {
  linux: ['1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0'],
  windows: ['1.4.0', '1.3.0', '1.2.0', '1.1.0', '1.0.0'],
};

async function writeOverlay(data: unknown): Promise<string> {
  const file = path.join(await tempDir(), 'overlay.json');
  await writeFile(file, JSON.stringify(data));
  return file;
}
function loadError(file: string): CudawizError {
  try {
    loadCatalog({ overlayFile: file });
  } catch (error) {
    return error as CudawizError;
  }
  throw new Error('the overlay was accepted');
}

describe('the built-in catalog', () => {
  it('holds every GPU row of both TensorFlow tables: 38 on Linux (2.21.0 … 1.0.0), 27 on native Windows (2.10.0 … 1.0.0)', () => {
    const linux = catalog.tensorflow.linux.map((r) => r.version);
    const windows = catalog.tensorflow.windows.map((r) => r.version);
    expect(linux).toHaveLength(38);
    expect(windows).toHaveLength(27);
    expect([linux[0], linux.at(-1)]).toEqual(['2.21.0', '1.0.0']);
    expect([windows[0], windows.at(-1)]).toEqual(['2.10.0', '1.0.0']);
    // The tables' own quirks: Linux has 2.16.1 and no 2.16.0, 1.13.1; Windows has 1.13.0.
    expect(linux).toContain('2.16.1');
    expect(linux).not.toContain('2.16.0');
    expect(linux).toContain('1.13.1');
    expect(windows).toContain('1.13.0');
  });

  it('lists each table newest first with no version twice, and CUDA, cuDNN and library rows oldest first', () => {
    for (const os of OS_NAMES) {
      const vs = catalog.tensorflow[os].map((r) => r.version);
      expect(isAscending([...vs].reverse()), `${os} TF rows`).toBe(true);
    }
    expect(isAscending(catalog.cuda.releases.map((r) => r.version))).toBe(true);
    const cudnnKeys = catalog.cudnn.releases.map((r) => `${r.version}/${r.cuda}`);
    expect(new Set(cudnnKeys).size).toBe(cudnnKeys.length);
    const sorted = [...catalog.cudnn.releases].sort((a, b) => compareDotted(a.version, b.version) || compareDotted(a.cuda, b.cuda));
    expect(sorted.map((r) => `${r.version}/${r.cuda}`)).toEqual(cudnnKeys);
    const libs = catalog.libraries.toolkits;
    libs.forEach((row, i) => {
      expect(compareDotted(row.from, row.to), `${row.from}–${row.to}`).toBeLessThanOrEqual(0);
      if (i > 0) expect(compareDotted(libs[i - 1].to, row.from), `${row.from} overlaps`).toBeLessThan(0);
    });
    expect(new Set(catalog.cuda.families.map((f) => f.major)).size).toBe(catalog.cuda.families.length);
  });

  it('stores CUDA as major.minor ("9" → "9.0", "10" → "10.0", "8" → "8.0") and keeps the tables\' other cells verbatim', () => {
    const win = (v: string) => catalog.tensorflow.windows.find((r) => r.version === v)!;
    const lin = (v: string) => catalog.tensorflow.linux.find((r) => r.version === v)!;
    expect(win('2.0.0')).toMatchObject({ cuda: '10.0', cudnn: '7.4', compiler: 'MSVC 2017', python: ['3.5-3.7'] });
    expect(win('1.12.0')).toMatchObject({ cuda: '9.0', cudnn: '7.2' });
    expect(lin('1.12.0')).toMatchObject({ cuda: '9.0', cudnn: '7', python: ['2.7', '3.3-3.6'] });
    expect(lin('1.0.0')).toMatchObject({ cuda: '8.0', cudnn: '5.1', buildTools: 'Bazel 0.4.2' });
    expect(win('2.1.0').buildTools).toBe('Bazel 0.27.1-0.29.1');
    expect(win('1.9.0').buildTools).toBe('Cmake v3.6.3');
    expect(lin('2.21.0')).toMatchObject({ python: ['3.10-3.13'], compiler: 'Clang 18.1.8', cudnn: '9.3', cuda: '12.5' });
    expect(lin('2.3.0').label).toBe('tensorflow');
    expect(lin('1.15.0').label).toBe('tensorflow_gpu');
    expect(catalog.tensorflow.windows.every((r) => r.label === 'tensorflow_gpu')).toBe(true);
  });

  it('keeps the docs\' edits on record: Windows 2.1–2.3 cuDNN 7.4 → 7.6, Linux 2.15 cuDNN 8.8 → 8.9, the removed Windows 2.11 row', () => {
    for (const v of ['2.1.0', '2.2.0', '2.3.0']) {
      const row = catalog.tensorflow.windows.find((r) => r.version === v)!;
      expect(row.cudnn).toBe('7.6');
      expect(row.note).toMatch(/7\.4.*7\.6/);
    }
    expect(catalog.tensorflow.linux.find((r) => r.version === '2.15.0')!.note).toMatch(/8\.8.*8\.9/);
    expect(catalog.tensorflow.removedRows).toEqual([expect.objectContaining({ os: 'windows', version: '2.11.0', cuda: '11.2', cudnn: '8.1' })]);
    expect(catalog.tensorflow.windows.some((r) => r.version === '2.11.0')).toBe(false);
  });

  it('links only to NVIDIA over https, and every link parses', () => {
    const urls = leaves(catalog).filter(([p, v]) => /(url|Url|Page)$/.test(lastKey(p)) && typeof v === 'string');
    expect(urls.length).toBeGreaterThan(200);
    for (const [p, v] of urls) {
      const u = new URL(v as string);
      expect(u.protocol, p).toBe('https:');
      expect(NVIDIA_HOSTS, `${p}: ${u.host}`).toContain(u.host);
    }
  });

  it('names each download after its link (≤ 10.0 links end in -exe/-run or nothing; the saved file has the real extension)', () => {
    const files: [string, { file: string; url: string }][] = [
      ...catalog.cuda.releases.flatMap((r) => Object.entries(r.installers).map(([os, i]) => [`cuda ${r.version} ${os}`, i!] as [string, { file: string; url: string }])),
      ...catalog.cudnn.releases.flatMap((r) => Object.entries(r.archives).map(([os, a]) => [`cudnn ${r.version}/${r.cuda} ${os}`, a!] as [string, { file: string; url: string }])),
    ];
    for (const [what, { file, url }] of files) {
      const link = url.slice(url.lastIndexOf('/') + 1);
      const saved = link.replace(/-(exe|run)$/, '.$1');
      const ok = saved === file || `${link}.exe` === file || `${link}.run` === file;
      expect(ok, `${what}: ${link} vs ${file}`).toBe(true);
    }
    const cuda90 = catalog.cuda.releases.find((r) => r.version === '9.0.176')!;
    expect(cuda90.installers.windows).toMatchObject({ file: 'cuda_9.0.176_win10.exe', url: expect.stringMatching(/\/cuda_9\.0\.176_win10-exe$/) });
    expect(cuda90.installers.linux!.file).toBe('cuda_9.0.176_384.81_linux.run');
  });

  it('writes every checksum at full length in lowercase hex', () => {
    const sums = leaves(catalog).filter(([p]) => ['sha256', 'md5'].includes(lastKey(p)));
    expect(sums.length).toBeGreaterThan(150);
    for (const [p, v] of sums) expect(v, p).toMatch(lastKey(p) === 'sha256' ? /^[0-9a-f]{64}$/ : /^[0-9a-f]{32}$/);
  });

  it('covers every CUDA release 9.0.176 … 13.5 with a Linux runfile where one is known, and Windows wherever the file is known', () => {
    const vs = catalog.cuda.releases.map((r) => r.version);
    expect(vs[0]).toBe('9.0.176');
    expect(vs.at(-1)).toBe('13.5');
    expect(vs).toHaveLength(69);
    expect(vs.slice(-8)).toEqual(['13.2.0', '13.2.1', '13.2.2', '13.3.0', '13.3.1', '13.4.1', '13.4.2', '13.5']);
    // A release without a Linux runfile says so in its unverified facts: 13.5, whose files no stored source names.
    for (const r of catalog.cuda.releases) expect(Boolean(r.installers.linux) || Boolean(r.unverified?.includes('installers.linux')), r.version).toBe(true);
    expect(catalog.cuda.releases.filter((r) => !r.installers.linux).map((r) => r.version)).toEqual(['13.5']);
    const noWindows = catalog.cuda.releases.filter((r) => !r.installers.windows).map((r) => r.version);
    expect(noWindows).toEqual(['9.2.88', '13.2.1', '13.5']);
    for (const r of catalog.cuda.releases.filter((x) => major(x.version) >= 11)) {
      for (const i of Object.values(r.installers)) expect(i!.md5sumUrl).toBe(`https://developer.download.nvidia.com/compute/cuda/${r.version}/docs/sidebar/md5sum.txt`);
    }
  });

  it('gives Table 3 driver minimums, none for Windows 13.x, and no bundled driver in 13.x Windows installers', () => {
    const rel = (v: string) => catalog.cuda.releases.find((r) => r.version === v)!;
    expect(rel('10.1.105').driverMin).toEqual({ linux: '418.39', windows: '418.96' });
    expect(rel('10.1.243').driverMin).toEqual({ linux: '418.39', windows: '418.96' });
    expect(rel('11.2.2').driverMin).toEqual({ linux: '460.32.03', windows: '461.33' });
    expect(rel('12.8.0').driverMin).toEqual({ linux: '570.26', windows: '570.65' });
    expect(rel('12.3.2').driverMin).toBeUndefined();
    expect(rel('13.2.2').driverMin).toEqual({ linux: '595.71.05' });
    expect(rel('13.3.0').driverMin).toEqual({ linux: '610.43.02' });
    expect(rel('13.3.1').driverMin).toEqual({ linux: '610.43.02' });
    for (const r of catalog.cuda.releases.filter((x) => major(x.version) === 13)) {
      expect(r.driverMin?.windows, r.version).toBeUndefined();
      expect(r.installers.windows?.bundledDriver, r.version).toBeUndefined();
    }
    expect(rel('10.1.243').installers.windows!.bundledDriver).toBe('426.00');
    expect(rel('9.1.85').note).toMatch(/387\.26/);
  });

  it('knows each CUDA family\'s minor-version-compatibility driver and oldest GPU', () => {
    const fam = (m: number) => catalog.cuda.families.find((f) => f.major === m)!;
    expect(fam(11).minorCompatDriverMin).toEqual({ linux: '450.80.02', windows: '452.39' });
    expect(fam(12).minorCompatDriverMin).toEqual({ linux: '525.60.13', windows: '528.33' });
    expect(fam(12).source).toMatch(/527\.41/);
    expect(fam(13).minorCompatDriverMin).toEqual({ linux: '580.65.06' });
    expect(fam(10).minorCompatDriverMin).toBeUndefined();
    expect(Object.fromEntries(catalog.cuda.families.map((f) => [f.major, f.computeCapabilityMin]))).toEqual({ 8: '2.0', 9: '3.0', 10: '3.0', 11: '3.5', 12: '5.0', 13: '7.5' });
  });

  it('lists the Windows silent-install components per era, never the display driver', () => {
    for (const set of catalog.cuda.windowsComponents) expect(set.components.map((c) => c.toLowerCase())).not.toContain('display.driver');
    expect(windowsComponents(catalog, '10.1.243')).toEqual(expect.arrayContaining(['cudart_10.1', 'cublas_10.1', 'nvgraph_10.1', 'cupti_10.1']));
    expect(windowsComponents(catalog, '11.2.2')).toEqual(expect.arrayContaining(['cudart_11.2', 'cusolver_11.2', 'nvprof_11.2']));
    expect(windowsComponents(catalog, '11.2.2')).not.toContain('nvgraph_11.2');
    expect(windowsComponents(catalog, '11.8.0')).toContain('thrust_11.8');
    expect(windowsComponents(catalog, '11.8.0')).not.toContain('nvjitlink_11.8');
    expect(windowsComponents(catalog, '12.5.1')).toContain('nvjitlink_12.5');
    expect(windowsComponents(catalog, '9.0.176')).toEqual(expect.arrayContaining(['compiler_9.0', 'cudart_9.0', 'cusolver_9.0']));
    // 9.1 renamed the compiler sub-package: compiler_9.0, but nvcc_9.1 / nvcc_9.2.
    expect(windowsComponents(catalog, '9.0.176')).not.toContain('nvcc_9.0');
    expect(windowsComponents(catalog, '9.1.85')).toEqual(expect.arrayContaining(['nvcc_9.1', 'cublas_9.1', 'cudart_9.1']));
    expect(windowsComponents(catalog, '9.1.85')).not.toContain('compiler_9.1');
    expect(windowsComponents(catalog, '9.2.148')).toContain('nvcc_9.2');
    expect(windowsComponents(catalog, '13.0.2')).toEqual(expect.arrayContaining(['nvcc_13.0', 'crt_13.0', 'nvvm_13.0', 'cudart_13.0']));
    // Every release the catalog has a Windows installer for gets a list (9.x names the compiler "compiler", not "nvcc").
    for (const r of catalog.cuda.releases.filter((x) => x.installers.windows)) {
      expect(windowsComponents(catalog, r.version).length, r.version).toBeGreaterThan(10);
    }
  });

  it('keeps the login download of every cuDNN build of domain.md §5c/§5d, with the archive layout of its era', () => {
    const yggdrasil = catalog.cudnn.releases.flatMap((r) =>
      Object.values(r.archives)
        .map((a) => ({ r, a: a!, login: a!.gated ? a!.url : a!.loginUrl }))
        .filter((x) => x.login && /\/secure\//.test(x.login)),
    );
    expect(yggdrasil).toHaveLength(74); // 37 rows in each of §5c and §5d
    for (const { r, a } of yggdrasil) {
      expect(a.sha256, a.file).toBeDefined();
      expect(a.layout, a.file).toBe(compareDotted(majorMinor(r.version), '8.2') <= 0 ? 'cuda-folder' : 'archive-folder');
    }
    const win81 = catalog.cudnn.releases.find((r) => r.version === '8.1.0.77' && r.cuda === '11.2')!.archives.windows!;
    expect(win81).toMatchObject({ file: 'cudnn-11.2-windows-x64-v8.1.0.77.zip', sha256: 'f5a23402ebed5b2add2ae0dc79df42f055f5851bbb3b1d0f6aa9dcdeeb9346ce', gated: false });
    expect(win81.loginUrl).toBe('https://developer.nvidia.com/compute/machine-learning/cudnn/secure/8.1.0.77/11.2_20210127/cudnn-11.2-windows-x64-v8.1.0.77.zip');
  });

  it('names the public copies: Linux 7.6.5 for CUDA 10.x, Windows 8.1.1.33, and the 8.9.7.29 / 9.3.0.75 redist builds with their manifests', () => {
    for (const cuda of ['10.0', '10.1', '10.2']) {
      const a = catalog.cudnn.releases.find((r) => r.version === '7.6.5.32' && r.cuda === cuda)!.archives.linux!;
      expect(a).toMatchObject({ gated: false, url: `https://developer.download.nvidia.com/compute/redist/cudnn/v7.6.5/cudnn-${cuda}-linux-x64-v7.6.5.32.tgz` });
    }
    const w811 = catalog.cudnn.releases.find((r) => r.version === '8.1.1.33' && r.cuda === '11.2')!;
    expect(w811.archives.linux).toMatchObject({ gated: false, sha256: '98a8784e92862f20018d20c281b30d4a0cd951f93694f6433ccf4ae9c502ba6a' });
    expect(w811.archives.windows).toMatchObject({ gated: false, unverified: true, url: 'https://developer.download.nvidia.com/compute/redist/cudnn/v8.1.1/cudnn-11.2-windows-x64-v8.1.1.33.zip' });
    const v93 = catalog.cudnn.releases.find((r) => r.version === '9.3.0.75' && r.cuda === '12')!;
    expect(v93.archives.linux).toMatchObject({
      gated: false,
      url: 'https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-9.3.0.75_cuda12-archive.tar.xz',
      manifestUrl: 'https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.3.0.json',
      sha256: '3d6ef10aa06dc9339a477e2b057e085ff8500bbdee79e42c7e13655c9eff2c26',
      size: 756509380,
    });
    expect(v93.archives.windows).toMatchObject({ file: 'cudnn-windows-x86_64-9.3.0.75_cuda12-archive.zip', sha256: '864a85dc67c7f92b9a8639f323acb4af63ad65de2ca82dccdf2c0b6a701c27c0', size: 566118754 });
    for (const r of catalog.cudnn.releases) {
      for (const a of Object.values(r.archives)) if (!a!.gated) expect(a!.url, a!.file).toMatch(/^https:\/\/developer\.download\.nvidia\.com\//);
    }
  });

  it('gives library sonames per CUDA as TensorFlow writes them, cublasLt only from CUDA 11, and cuDNN 8/9 sub-libraries', () => {
    const lib = (mm: string) => catalog.libraries.toolkits.find((t) => compareDotted(mm, t.from) >= 0 && compareDotted(mm, t.to) <= 0);
    for (const mm of ['8.0', '9.0', '9.1', '9.2', '10.0', '10.1', '10.2', '11.0', '11.1', '11.5', '11.8', '12.0', '12.5', '12.9', '13.0', '13.3']) expect(lib(mm), mm).toBeDefined();
    expect(lib('9.2')).toMatchObject({ cudart: '9.2', cublas: '9.2', cusolver: '9.2' });
    expect(lib('10.1')).toMatchObject({ cudart: '10.1', cublas: '10', cufft: '10' });
    expect(lib('11.0')).toMatchObject({ cudart: '11.0', cusolver: '10', cusparse: '11', cufft: '10', curand: '10' });
    expect(lib('11.2')).toMatchObject({ cudart: '11.0', cusolver: '11' });
    expect(lib('12.5')).toMatchObject({ cudart: '12', cublas: '12', cufft: '11', curand: '10', cusolver: '11', cusparse: '12' });
    expect(lib('13.0')).toMatchObject({ cudart: '13', cufft: '12', cusolver: '12', cusparse: '12' });
    for (const t of catalog.libraries.toolkits) expect(Boolean(t.cublasLt), `${t.from}`).toBe(major(t.from) >= 11);
    expect(catalog.libraries.cudnnParts['8']).toContain('cudnn_ops_infer');
    expect(catalog.libraries.cudnnParts['9']).toEqual(expect.arrayContaining(['cudnn_graph', 'cudnn_engines_precompiled']));
  });

  it('points every TF row at a CUDA family, a libraries row, a CUDA installer and a cuDNN build — except the CUDA 8 rows it names as gaps', () => {
    const gaps: Record<OsName, string[]> = { linux: [], windows: [] };
    for (const os of OS_NAMES) {
      for (const row of catalog.tensorflow[os]) {
        const at = `${os} ${row.version}`;
        expect(cudaFamily(catalog, row.cuda), at).toBeDefined();
        expect(catalog.libraries.toolkits.some((t) => compareDotted(row.cuda, t.from) >= 0 && compareDotted(row.cuda, t.to) <= 0), at).toBe(true);
        const release = findCudaRelease(catalog, row.cuda, os);
        const build = findCudnnRelease(catalog, row.cudnn, row.cuda, os);
        if (!release || !build) gaps[os].push(row.version);
        if (compareDotted(row.cuda, '9.0') >= 0) {
          expect(release?.installers[os], at).toBeDefined();
          expect(build?.archives[os], at).toBeDefined();
          expect(major(build!.version), at).toBe(major(row.cudnn));
        }
      }
    }
    expect(gaps).toEqual(KNOWN_GAPS);
  });
});

describe('catalog overlays', () => {
  it('rejects a bad sha256 with the path of the field and leaves the built-in catalog as it was', async () => {
    const file = await writeOverlay({ cuda: [{ version: '10.1.243', installers: { linux: { sha256: 'not-a-checksum' } } }] });
    const err = loadError(file);
    expect(err).toBeInstanceOf(CudawizError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(`${file}: cuda[0].installers.linux.sha256`);
    expect(builtinCatalog().cuda.releases.find((r) => r.version === '10.1.243')!.installers.linux!.sha256).toBe(
      'e7c22dc21278eb1b82f34a60ad7640b41ad3943d929bebda3008b72536855d31',
    );
  });

  it('rejects a misspelt key instead of dropping it silently', async () => {
    const err = loadError(await writeOverlay({ cuda: [{ version: '10.1.243', instalers: {} }] }));
    expect(err.message).toMatch(/cuda\[0\].*instalers/);
  });

  it('rejects a new release whose installer has no url, naming that field', async () => {
    const err = loadError(await writeOverlay({ cuda: [{ version: '13.9.0', installers: { linux: { file: 'cuda_13.9.0_linux.run' } } }] }));
    expect(err.message).toContain('cuda[0].installers.linux.url');
  });

  it('adds a CUDA release the catalog has not shipped yet, and "13.9" then means it', async () => {
    const file = await writeOverlay({
      cuda: [
        {
          version: '13.9.0',
          driverMin: { linux: '620.10.01' },
          installers: {
            linux: { file: 'cuda_13.9.0_620.10.01_linux.run', url: 'https://developer.download.nvidia.com/compute/cuda/13.9.0/local_installers/cuda_13.9.0_620.10.01_linux.run', sha256: 'b'.repeat(64) },
          },
        },
      ],
    });
    const c: Catalog = loadCatalog({ overlayFile: file });
    expect(c.cuda.releases).toHaveLength(70);
    expect(findCudaRelease(c, '13.9', 'linux')!.installers.linux!.sha256).toBe('b'.repeat(64));
    expect(findCudaRelease(c, '13.9', 'windows')).toBeUndefined();
    expect(findCudaRelease(c, '10.1', 'linux')!.version).toBe('10.1.243');
  });

  it('changes only the sha256 of an existing release and keeps its file, url, driver and the other OS', async () => {
    const file = await writeOverlay({ cuda: [{ version: '11.2.2', installers: { windows: { sha256: 'c'.repeat(64) } } }] });
    const r = loadCatalog({ overlayFile: file }).cuda.releases.find((x) => x.version === '11.2.2')!;
    expect(r.installers.windows).toMatchObject({ file: 'cuda_11.2.2_461.33_win10.exe', sha256: 'c'.repeat(64), bundledDriver: '461.33' });
    expect(r.installers.windows!.url).toBe('https://developer.download.nvidia.com/compute/cuda/11.2.2/local_installers/cuda_11.2.2_461.33_win10.exe');
    expect(r.installers.linux!.sha256).toBe('0a2e477224af7f6003b49edfd2bfee07667a8148fe3627cfd2765f6ad72fa19d');
    expect(r.driverMin).toEqual({ linux: '460.32.03', windows: '461.33' });
  });

  it('gives a public cuDNN build a checksum without making it login-gated', async () => {
    const file = await writeOverlay({ cudnn: [{ version: '9.3.0.75', cuda: '12', archives: { linux: { sha256: 'd'.repeat(64) } } }] });
    const a = loadCatalog({ overlayFile: file }).cudnn.releases.find((r) => r.version === '9.3.0.75' && r.cuda === '12')!.archives.linux!;
    expect(a).toMatchObject({ sha256: 'd'.repeat(64), gated: false, file: 'cudnn-linux-x86_64-9.3.0.75_cuda12-archive.tar.xz' });
  });
});

describe('the catalog kept current (issue 40, item 7)', () => {
  const rel = (v: string) => catalog.cuda.releases.find((r) => r.version === v)!;
  const src = (key: string) => catalog.cuda.sources[key];

  it('gives every release from 13.1.2 on a source, and every source key it names exists', () => {
    for (const v of ['13.1.2', '13.2.2', '13.3.0', '13.3.1', '13.4.1', '13.4.2', '13.5']) {
      const r = rel(v);
      expect(r.source, v).toBeTruthy();
      const keys = Object.keys(catalog.cuda.sources).filter((k) => r.source!.includes(k));
      expect(keys.length, `${v}: ${r.source}`).toBeGreaterThan(0);
      for (const i of Object.values(r.installers)) expect(i!.source, `${v} installer`).toBeTruthy();
    }
    expect(src('table3-13.3')).toMatch(/CUDA 13\.3 GA \| >=610\.43\.02/);
    expect(src('table3-13.2u2')).toMatch(/13\.2 Update 2 \| >=595\.71\.05/);
  });

  it('orders the Table 3 floors with the releases: a later release never asks for an older driver', () => {
    for (const os of OS_NAMES) {
      const floors = catalog.cuda.releases.filter((r) => r.driverMin?.[os]).map((r) => [r.version, r.driverMin![os]!] as const);
      expect(floors.length, os).toBeGreaterThan(os === 'linux' ? 60 : 45);
      floors.forEach(([v, floor], i) => {
        if (i > 0) expect(compareDotted(floors[i - 1][1], floor), `${floors[i - 1][0]} ${floors[i - 1][1]} → ${v} ${floor}`).toBeLessThanOrEqual(0);
      });
    }
    // Every floor of a major is at or above that major's minor-version minimum, but 11.0's: Table 2's footnote says
    // "CUDA 11.0 was released with an earlier driver version".
    for (const r of catalog.cuda.releases.filter((x) => majorMinor(x.version) !== '11.0')) {
      const compat = cudaFamily(catalog, r.version)?.minorCompatDriverMin;
      // Linux only: the Windows 12.x minimum is the safer of two disagreeing values (528.33, above 12.0 GA's 527.41).
      if (compat?.linux && r.driverMin?.linux) expect(compareDotted(r.driverMin.linux, compat.linux), r.version).toBeGreaterThanOrEqual(0);
    }
  });

  it('marks what no source gives as unverified, and the floors it has are not marked', () => {
    expect(rel('13.1.2').unverified).toEqual(['driverMin.linux']);
    expect(rel('13.4.1').unverified).toEqual(['driverMin.linux']);
    expect(rel('13.4.2').unverified).toEqual(['driverMin.linux', 'installers.linux.checksum', 'installers.windows.checksum']);
    expect(rel('13.5').unverified).toEqual(['driverMin.linux', 'installers.linux', 'installers.windows']);
    for (const r of catalog.cuda.releases) {
      for (const os of OS_NAMES) {
        if (r.driverMin?.[os]) expect(r.unverified ?? [], `${r.version} ${os}`).not.toContain(`driverMin.${os}`);
        if (r.unverified?.includes(`installers.${os}.checksum`)) expect(r.installers[os]!.sha256 ?? r.installers[os]!.md5, r.version).toBeUndefined();
      }
    }
    // 13.1.2 is NVIDIA's (its redist manifest and md5sum.txt), but Table 3 has no row for it.
    expect(rel('13.1.2').installers.windows).toMatchObject({ file: 'cuda_13.1.2_windows.exe', md5: 'd08f4b310ad919b3fe3d6da1aba869d8' });
    expect(rel('13.1.2').note).toMatch(/no row/);
    expect(src('redist-manifests-13')).toMatch(/redistrib_13\.1\.2\.json/);
  });

  it('models the Linux runfile losing its driver at 13.4: no bundled driver from there on, one in every 11.x–13.3 runfile', () => {
    const until = catalog.cuda.linuxRunfile.driverBundledUntil!;
    expect(until).toBe('13.3');
    expect(src(catalog.cuda.linuxRunfile.driverBundledSource!)).toMatch(/no longer bundled/);
    for (const r of catalog.cuda.releases.filter((x) => x.installers.linux && major(x.version) >= 11)) {
      const i = r.installers.linux!;
      if (compareDotted(majorMinor(r.version), until) > 0) {
        expect(i.bundledDriver, r.version).toBeUndefined();
        expect(i.file, r.version).toBe(`cuda_${r.version}_linux.run`);
      } else {
        expect(i.bundledDriver, r.version).toMatch(/^\d+\.\d+/);
        expect(i.file, r.version).toContain(`_${i.bundledDriver}_`);
      }
    }
    expect(rel('13.4.1').installers.linux!.file).toBe('cuda_13.4.1_linux.run');
    // The runfile step installs the toolkit alone whatever the file carries: no --driver to count on.
    const args = linuxInstallerArgs({ catalog, version: '13.4.1', installerFile: '/tmp/x/cuda_13.4.1_linux.run', toolkitDir: '/usr/local/cuda-13.4', tmpDir: '/tmp/x' });
    expect(args).toContain('--toolkit');
    expect(args.some((a) => a.startsWith('--driver'))).toBe(false);
  });
});
