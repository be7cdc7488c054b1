// Fixture CUDA redist archives in NVIDIA's layout, served by the local mirror at NVIDIA's paths
// (compute/cuda/redist/<component>/<platform>/<component>-<platform>-<ver>-archive.tar.xz|zip), with
// a fixture redistrib_11.8.0.json beside them and a --catalog overlay carrying their real sha256.
// Real tar.xz (Python's tarfile) and zip; libraries under their real names and links, of bytes that
// compress about as GPU libraries do (see libraryBytes), so unpacking costs what it costs for real.
// Writing them costs more than unpacking (xz, Python): each plain archive is written once per fixture
// version into a cache under the temp folder shared by all test files (fixtureCache), and copied from there.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import redistData from '../../assets/redist/cuda.json' with { type: 'json' };
import { peBytes, writeArchives, type ArchiveSpec, type FixtureEntry } from './cudnn-archive.js';
import type { NvidiaMirror } from './mirror.js';

export type FixturePlatform = 'linux-x86_64' | 'windows-x86_64';
type FixtureRelease = '11.8.0' | '12.9.1';
interface ReleaseComponent { name: string; version: string; 'linux-x86_64'?: { relative_path: string }; 'windows-x86_64'?: { relative_path: string } }
const releaseData = (version: FixtureRelease) => redistData.releases.find((r) => r.version === version)! as unknown as { components: Record<string, ReleaseComponent> };
type ComponentId = string;
/** The sonames each major's libraries carry (assets/libraries.json). */
const SONAMES = {
  '11.8.0': { cudart: '11.0', cublas: '11', cufft: '10', curand: '10', cusolver: '11', cusparse: '11', dll: { cufft: '10', cusolver: '11', cusparse: '11' } },
  '12.9.1': { cudart: '12', cublas: '12', cufft: '11', curand: '10', cusolver: '11', cusparse: '12', dll: { cufft: '11', cusolver: '11', cusparse: '12' } },
} as const;

const nvccScript = (release: FixtureRelease) => release === '11.8.0' ? `#!/bin/sh
case "$1" in
  --version|-V) printf 'nvcc: NVIDIA (R) Cuda compiler driver\\nCopyright (c) 2005-2022 NVIDIA Corporation\\nBuilt on Wed_Sep_21_10:33:58_PDT_2022\\nCuda compilation tools, release 11.8, V11.8.89\\nBuild cuda_11.8.r11.8/compiler.31833905_0\\n' ;;
  *) echo "nvcc fixture: only --version" >&2; exit 1 ;;
esac
` : `#!/bin/sh
case "$1" in
  --version|-V) printf 'nvcc: NVIDIA (R) Cuda compiler driver\\nCopyright (c) 2005-2025 NVIDIA Corporation\\nBuilt on Tue_May_27_02:21:03_PDT_2025\\nCuda compilation tools, release 12.9, V12.9.86\\nBuild cuda_12.9.r12.9/compiler.36037853_0\\n' ;;
  *) echo "nvcc fixture: only --version" >&2; exit 1 ;;
esac
`;

/**
 * Library bytes that xz compresses about 2.7:1 (preset 1; 3:1 at xz's default), as NVIDIA's do (an estimate, not a sourced figure: the
 * manifests give only archive sizes; e.g. 11.8's libcublas archive is 500.7 MB for well over a GB of
 * shared and static libraries). Random symbols from an alphabet of six carry log2(6) ≈ 2.6 bits per
 * byte, so `archiveBytes` of compressed data unpack to three times as many — written and decoded as
 * for real, where random bytes would be stored uncompressed and unpack as fast as a copy.
 */
function libraryBytes(archiveBytes: number): Buffer {
  const out = randomBytes(Math.max(64, Math.round(archiveBytes * 3)));
  for (let i = 0; i < out.length; i++) out[i] = 0x41 + (out[i] % 6);
  return out;
}

/** What each component's archive holds, as NVIDIA lays it out (library bytes scaled by `bytes`). */
function members(release: FixtureRelease, id: ComponentId, platform: FixturePlatform, bytes: (weight: number) => Buffer, nvccExe?: Buffer): FixtureEntry[] {
  const v = releaseData(release).components[id].version;
  const n = SONAMES[release];
  const mm = release.split('.').slice(0, 2).join('.');
  const linux = platform === 'linux-x86_64';
  const so = (base: string, soname: string, weight: number): FixtureEntry[] => [
    { name: `lib/${base}.so.${v}`, data: bytes(weight) },
    { name: `lib/${base}.so.${soname}`, type: 'symlink', target: `${base}.so.${v}` },
    { name: `lib/${base}.so`, type: 'symlink', target: `${base}.so.${soname}` },
  ];
  const dll = (name: string, weight: number): FixtureEntry => ({ name: `bin/${name}`, data: Buffer.concat([peBytes('x64'), bytes(weight)]) });
  switch (id) {
    case 'cuda_cudart':
      return [
        { name: 'include/cuda_runtime_api.h', data: '#define CUDART_VERSION 11080\n' },
        ...(linux ? [...so('libcudart', n.cudart, 1), { name: 'lib/libcudart_static.a', data: bytes(1) }] : [dll(`cudart64_${n.cudart.replace('.', '')}.dll`, 1), { name: 'lib/x64/cudart.lib', data: bytes(1) }]),
      ];
    case 'libcublas':
      return [
        { name: 'include/cublas_v2.h', data: '/* cuBLAS */\n' },
        ...(linux ? [...so('libcublas', n.cublas, 120), ...so('libcublasLt', n.cublas, 250)] : [dll(`cublas64_${n.cublas}.dll`, 30), dll(`cublasLt64_${n.cublas}.dll`, 360), { name: 'lib/x64/cublas.lib', data: bytes(1) }]),
      ];
    case 'libcufft':
      return [{ name: 'include/cufft.h', data: '/* cuFFT */\n' }, ...(linux ? so('libcufft', n.cufft, 270) : [dll(`cufft64_${n.dll.cufft}.dll`, 165)])];
    case 'libcurand':
      return [{ name: 'include/curand.h', data: '/* cuRAND */\n' }, ...(linux ? so('libcurand', n.curand, 82) : [dll('curand64_10.dll', 56)])];
    case 'libcusolver':
      return [{ name: 'include/cusolverDn.h', data: '/* cuSOLVER */\n' }, ...(linux ? so('libcusolver', n.cusolver, 83) : [dll(`cusolver64_${n.dll.cusolver}.dll`, 117)])];
    case 'libcusparse':
      return [{ name: 'include/cusparse.h', data: '/* cuSPARSE */\n' }, ...(linux ? so('libcusparse', n.cusparse, 222) : [dll(`cusparse64_${n.dll.cusparse}.dll`, 196)])];
    case 'cuda_cupti':
      return linux
        ? [{ name: 'include/cupti.h', data: '/* CUPTI */\n' }, { name: `lib/libcupti.so.${v}`, data: bytes(17) }, { name: `lib/libcupti.so.${mm}`, type: 'symlink', target: `libcupti.so.${v}` }, { name: 'lib/libcupti.so', type: 'symlink', target: `libcupti.so.${mm}` }]
        : [{ name: 'extras/CUPTI/include/cupti.h', data: '/* CUPTI */\n' }, { name: 'extras/CUPTI/lib64/cupti64_2022.3.0.dll', data: Buffer.concat([peBytes('x64'), bytes(12)]) }];
    case 'cuda_nvcc':
      return [
        { name: linux ? 'bin/nvcc' : 'bin/nvcc.exe', data: linux ? nvccScript(release) : (nvccExe ?? Buffer.concat([peBytes('x64'), bytes(10)])) },
        { name: linux ? 'bin/ptxas' : 'bin/ptxas.exe', data: linux ? `#!/bin/sh\necho "ptxas: NVIDIA (R) Ptx optimizing assembler, release ${mm}"\n` : peBytes('x64') },
        { name: 'nvvm/libdevice/libdevice.10.bc', data: bytes(1) },
        { name: linux ? 'nvvm/bin/cicc' : 'nvvm/bin/cicc.exe', data: bytes(30) },
        { name: 'include/crt/host_config.h', data: '/* crt */\n' },
      ];
    case 'cuda_nvrtc': {
      // NVRTC's soname is libnvrtc.so.11.2 through CUDA 11.x and libnvrtc.so.12 from 12.0; its builtins carry the minor.
      const soname = release === '11.8.0' ? '11.2' : '12';
      const dllTag = release === '11.8.0' ? '112_0' : '120_0';
      return [
        { name: 'include/nvrtc.h', data: '/* NVRTC */\n' },
        ...(linux
          ? [...so('libnvrtc', soname, 29), ...so('libnvrtc-builtins', mm, 4)]
          : [dll(`nvrtc64_${dllTag}.dll`, 60), dll(`nvrtc-builtins64_${mm.replace('.', '')}.dll`, 30)]),
      ];
    }
    case 'libnvjitlink':
      return [{ name: 'include/nvJitLink.h', data: '/* nvJitLink */\n' }, ...so('libnvJitLink', '12', 54)];
    default:
      return [];
  }
}

export interface RedistFixture {
  /** The overlay file (--catalog) giving the fixtures' sha256, size and md5 for release 11.8.0. */
  overlay: string;
  /** component id → the fixture archive's URL path and digests. */
  archives: Record<string, { urlPath: string; sha256: string; size: number; file: string }>;
  totalBytes: number;
}

/**
 * Puts one archive per component on the mirror. `kib` is the size of one weight unit of library
 * bytes (weights follow the real archives' sizes in MB), so a test stays small and a bench can scale.
 * The archives and the overlay are written into `dir`.
 */
export async function serveRedistFixtures(mirror: NvidiaMirror, dir: string, options: { /** Which release's archives (default 11.8.0). */ release?: FixtureRelease; platform?: FixturePlatform; kib?: number; overlayExtra?: Record<string, unknown>; /** Windows: a program that answers `nvcc.exe --version` (the Wine lane's fixture). */ nvccExe?: Buffer; /** Hostile extras: entries (full member names, given the archive's top folder) appended to a component's archive. */ extra?: Record<string, (top: string) => FixtureEntry[]> } = {}): Promise<RedistFixture> {
  const platform = options.platform ?? 'linux-x86_64';
  const release = options.release ?? '11.8.0';
  const data = releaseData(release);
  const unit = (options.kib ?? 4) * 1024;
  const archives: RedistFixture['archives'] = {};
  const manifest: Record<string, unknown> = { release_date: release === '11.8.0' ? '2022-10-03' : '2025-06-05', release_label: release, release_product: 'cuda' };
  const overlayComponents: Record<string, unknown> = {};
  const wanted: { id: string; rel: string; file: string; cached?: string }[] = [];
  const toWrite: ArchiveSpec[] = [];
  for (const id of Object.keys(data.components)) {
    const rel = data.components[id][platform]?.relative_path;
    if (!rel) continue;
    const name = path.posix.basename(rel);
    const top = name.replace(/\.(tar\.xz|zip)$/, '');
    const file = path.join(dir, name);
    const extra = options.extra?.[id]?.(top);
    // An archive with hostile extras is the test's own (their links point into its temp folders): written fresh.
    const cached = extra ? undefined : path.join(await fixtureCache(), `redist-${release}-${platform}-${unit}-${options.nvccExe ? sha256Of(options.nvccExe).slice(0, 16) : 'nvcc'}-${name}`);
    wanted.push({ id, rel, file, cached });
    if (cached && (await copyFile(cached, file).then(() => true, () => false))) continue;
    const entries = members(release, id, platform, (w) => libraryBytes(w * unit), options.nvccExe);
    toWrite.push({ file, format: platform === 'linux-x86_64' ? 'tar.xz' : 'zip', entries: [...entries.map((e) => ({ ...e, name: `${top}/${e.name}` })), { name: `${top}/LICENSE`, data: 'NVIDIA Software License Agreement\n' }, ...(extra ?? [])], xzPreset: 1 });
  }
  await writeArchives(toWrite);
  for (const { id, rel, file, cached } of wanted) {
    const bytes = await readFile(file);
    if (cached && toWrite.some((a) => a.file === file)) await keep(cached, bytes);
    const c = data.components[id];
    const served = await mirror.addFile(`compute/cuda/redist/${rel}`, bytes);
    archives[id] = { urlPath: `compute/cuda/redist/${rel}`, sha256: served.sha256, size: served.size, file };
    const entry = { relative_path: rel, sha256: served.sha256, md5: served.md5, size: String(served.size) };
    manifest[id] = { name: c.name, license: 'CUDA Toolkit', version: c.version, [platform]: entry };
    overlayComponents[id] = { [platform]: entry };
  }
  await mirror.addFile(`compute/cuda/redist/redistrib_${release}.json`, Buffer.from(JSON.stringify(manifest, null, 2)));
  const overlay = path.join(dir, 'overlay.json');
  await writeFile(overlay, JSON.stringify({ ...options.overlayExtra, redist: [{ version: release, source: `test fixture redistrib_${release}.json`, components: overlayComponents }] }));
  return { overlay, archives, totalBytes: Object.values(archives).reduce((n, a) => n + a.size, 0) };
}

export const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let cacheDir: Promise<string> | undefined;
/**
 * The folder that holds the archives written for this version of the fixtures (its name carries a
 * hash of the files that decide their contents), shared by every test file of every run on this machine.
 */
export function fixtureCache(): Promise<string> {
  cacheDir ??= (async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256');
    for (const f of [path.join(here, 'redist-fixture.ts'), path.join(here, 'cudnn-archive.ts'), path.join(here, '../../assets/redist/cuda.json')]) hash.update(readFileSync(f));
    const d = path.join(os.tmpdir(), `cudawiz-test-fixtures-${hash.digest('hex').slice(0, 16)}`);
    await mkdir(d, { recursive: true });
    return d;
  })();
  return cacheDir;
}

/** Puts a finished archive in the cache whole or not at all: written beside it, then renamed (files side by side may race; either copy is whole). */
async function keep(cached: string, bytes: Buffer): Promise<void> {
  const part = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
  try {
    await writeFile(part, bytes);
    await rename(part, cached);
  } catch {
    await rm(part, { force: true });
  }
}
