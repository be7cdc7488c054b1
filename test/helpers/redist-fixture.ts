// Fixture CUDA redist archives in NVIDIA's layout, served by the local mirror at NVIDIA's paths
// (compute/cuda/redist/<component>/<platform>/<component>-<platform>-<ver>-archive.tar.xz|zip), with
// a fixture redistrib_11.8.0.json beside them and a --catalog overlay carrying their real sha256.
// Real tar.xz (Python's tarfile) and zip; libraries under their real names and links, of bytes that
// compress like real libraries (see libraryBytes), so unpacking costs what it does with NVIDIA's.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import redistData from '../../assets/redist/cuda.json' with { type: 'json' };
import { peBytes, writeArchive, type FixtureEntry } from './cudnn-archive.js';
import type { NvidiaMirror } from './mirror.js';

export type FixturePlatform = 'linux-x86_64' | 'windows-x86_64';
const RELEASE = redistData.releases.find((r) => r.version === '11.8.0')!;
type ComponentId = keyof typeof RELEASE.components;

const NVCC_SCRIPT = `#!/bin/sh
case "$1" in
  --version|-V) printf 'nvcc: NVIDIA (R) Cuda compiler driver\\nCopyright (c) 2005-2022 NVIDIA Corporation\\nBuilt on Wed_Sep_21_10:33:58_PDT_2022\\nCuda compilation tools, release 11.8, V11.8.89\\nBuild cuda_11.8.r11.8/compiler.31833905_0\\n' ;;
  *) echo "nvcc fixture: only --version" >&2; exit 1 ;;
esac
`;

/**
 * Unpacked library bytes per archive byte. An estimate, not NVIDIA's figure (the manifests give only
 * archive sizes): x86-64 shared objects xz-compress to a quarter to a third (measured here with xz -6:
 * libstdc++.so.6.0.30 0.26, libcrypto.so.3 0.32), so each archive byte stands for three unpacked ones.
 */
export const UNPACKED_PER_ARCHIVE_BYTE = 3;

/**
 * `size` bytes that xz-compress to about 1/UNPACKED_PER_ARCHIVE_BYTE: each 3 KiB run is 1 KiB of
 * random bytes said three times (the decoder does real literal and match work, as with code), where
 * bare random bytes would not compress and unpack at the speed of a copy.
 */
export function libraryBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  const run = 1024;
  for (let at = 0; at < size; at += run * UNPACKED_PER_ARCHIVE_BYTE) {
    const fresh = randomBytes(run);
    for (let k = 0; k < UNPACKED_PER_ARCHIVE_BYTE && at + k * run < size; k++) fresh.copy(out, at + k * run, 0, Math.min(run, size - at - k * run));
  }
  return out;
}

/** What each component's archive holds, as NVIDIA lays it out (library bytes scaled by `bytes`). */
function members(id: ComponentId, platform: FixturePlatform, bytes: (weight: number) => Buffer, nvccExe?: Buffer): FixtureEntry[] {
  const v = RELEASE.components[id].version;
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
        ...(linux ? [...so('libcudart', '11.0', 1), { name: 'lib/libcudart_static.a', data: bytes(1) }] : [dll('cudart64_110.dll', 1), { name: 'lib/x64/cudart.lib', data: bytes(1) }]),
      ];
    case 'libcublas':
      return [
        { name: 'include/cublas_v2.h', data: '/* cuBLAS */\n' },
        ...(linux ? [...so('libcublas', '11', 120), ...so('libcublasLt', '11', 250)] : [dll('cublas64_11.dll', 30), dll('cublasLt64_11.dll', 360), { name: 'lib/x64/cublas.lib', data: bytes(1) }]),
      ];
    case 'libcufft':
      return [{ name: 'include/cufft.h', data: '/* cuFFT */\n' }, ...(linux ? so('libcufft', '10', 270) : [dll('cufft64_10.dll', 165)])];
    case 'libcurand':
      return [{ name: 'include/curand.h', data: '/* cuRAND */\n' }, ...(linux ? so('libcurand', '10', 82) : [dll('curand64_10.dll', 56)])];
    case 'libcusolver':
      return [{ name: 'include/cusolverDn.h', data: '/* cuSOLVER */\n' }, ...(linux ? so('libcusolver', '11', 83) : [dll('cusolver64_11.dll', 117)])];
    case 'libcusparse':
      return [{ name: 'include/cusparse.h', data: '/* cuSPARSE */\n' }, ...(linux ? so('libcusparse', '11', 222) : [dll('cusparse64_11.dll', 196)])];
    case 'cuda_cupti':
      return linux
        ? [{ name: 'include/cupti.h', data: '/* CUPTI */\n' }, { name: `lib/libcupti.so.${v}`, data: bytes(17) }, { name: 'lib/libcupti.so.11.8', type: 'symlink', target: `libcupti.so.${v}` }]
        : [{ name: 'extras/CUPTI/include/cupti.h', data: '/* CUPTI */\n' }, { name: 'extras/CUPTI/lib64/cupti64_2022.3.0.dll', data: Buffer.concat([peBytes('x64'), bytes(12)]) }];
    case 'cuda_nvcc':
      return [
        { name: linux ? 'bin/nvcc' : 'bin/nvcc.exe', data: linux ? NVCC_SCRIPT : (nvccExe ?? Buffer.concat([peBytes('x64'), bytes(10)])) },
        { name: linux ? 'bin/ptxas' : 'bin/ptxas.exe', data: linux ? '#!/bin/sh\necho "ptxas: NVIDIA (R) Ptx optimizing assembler, release 11.8"\n' : peBytes('x64') },
        { name: 'nvvm/libdevice/libdevice.10.bc', data: bytes(1) },
        { name: linux ? 'nvvm/bin/cicc' : 'nvvm/bin/cicc.exe', data: bytes(30) },
        { name: 'include/crt/host_config.h', data: '/* crt */\n' },
      ];
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
export async function serveRedistFixtures(mirror: NvidiaMirror, dir: string, options: { platform?: FixturePlatform; kib?: number; overlayExtra?: Record<string, unknown>; /** Windows: a program that answers `nvcc.exe --version` (the Wine lane's fixture). */ nvccExe?: Buffer } = {}): Promise<RedistFixture> {
  const platform = options.platform ?? 'linux-x86_64';
  const unit = (options.kib ?? 4) * 1024;
  const archives: RedistFixture['archives'] = {};
  const manifest: Record<string, unknown> = { release_date: '2022-10-03', release_label: '11.8.0', release_product: 'cuda' };
  const overlayComponents: Record<string, unknown> = {};
  for (const id of Object.keys(RELEASE.components) as ComponentId[]) {
    const c = RELEASE.components[id];
    const rel = c[platform].relative_path;
    const name = path.posix.basename(rel);
    const top = name.replace(/\.(tar\.xz|zip)$/, '');
    const entries = members(id, platform, (w) => libraryBytes(Math.max(64, Math.round(w * unit * UNPACKED_PER_ARCHIVE_BYTE))), options.nvccExe);
    const file = await writeArchive(path.join(dir, name), platform === 'linux-x86_64' ? 'tar.xz' : 'zip', [...entries.map((e) => ({ ...e, name: `${top}/${e.name}` })), { name: `${top}/LICENSE`, data: 'NVIDIA Software License Agreement\n' }]);
    const bytes = await readFile(file);
    const served = await mirror.addFile(`compute/cuda/redist/${rel}`, bytes);
    archives[id] = { urlPath: `compute/cuda/redist/${rel}`, sha256: served.sha256, size: served.size, file };
    const entry = { relative_path: rel, sha256: served.sha256, md5: served.md5, size: String(served.size) };
    manifest[id] = { name: c.name, license: 'CUDA Toolkit', version: c.version, [platform]: entry };
    overlayComponents[id] = { [platform]: entry };
  }
  await mirror.addFile('compute/cuda/redist/redistrib_11.8.0.json', Buffer.from(JSON.stringify(manifest, null, 2)));
  const overlay = path.join(dir, 'overlay.json');
  await writeFile(overlay, JSON.stringify({ ...options.overlayExtra, redist: [{ version: '11.8.0', source: 'test fixture redistrib_11.8.0.json', components: overlayComponents }] }));
  return { overlay, archives, totalBytes: Object.values(archives).reduce((n, a) => n + a.size, 0) };
}

export const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');
