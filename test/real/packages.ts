// NVIDIA's real software as Debian 12 (bookworm) ships it in non-free: the 535.261.03 driver's user-space
// half (no kernel module: what a machine looks like after a kernel update whose DKMS build failed) and
// `apt install nvidia-cuda-toolkit` (CUDA 11.8.89 with its runtime libraries). Downloaded once with a
// private apt configuration (fetch-debs.sh), unpacked once with `dpkg -x`, both kept in the cache folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Where the .deb files and their unpacked trees are kept between runs: CUDAWIZ_REAL_CACHE, else
 * ~/.cache/cudawiz-real (not node_modules/.cache: .ci/run's `npm ci` empties node_modules each run).
 */
export const CACHE = process.env.CUDAWIZ_REAL_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cudawiz-real');

export const LAYERS = {
  /** nvidia-smi, libcuda1, libnvidia-ml1 and nvidia-alternative (its links), plus what libcuda1 needs to load. */
  driver: ['nvidia-smi', 'libcuda1', 'libnvidia-ml1', 'nvidia-alternative', 'libnvidia-ptxjitcompiler1'],
  /** nvidia-cuda-toolkit 11.8.89 and the packages it depends on for nvcc, headers and TF's runtime libraries. */
  cuda: [
    'nvidia-cuda-toolkit', 'nvidia-cuda-dev', 'nvidia-profiler', 'libcudart11.0', 'libcublas11', 'libcublaslt11', 'libcufft10', 'libcurand10',
    'libcusolver11', 'libcusparse11', 'libcupti11.8', 'libnvrtc11.2', 'libnvrtc-builtins11.8', 'libnvvm4', 'libnvtoolsext1', 'libaccinj64-11.8', 'libcuinj64-11.8',
  ],
} as const;

export type Layer = keyof typeof LAYERS;

export const layerRoot = (layer: Layer) => path.join(CACHE, 'roots', layer);
/** dpkg's status stanzas for a layer's packages, as dpkg would record them installed. */
export const layerStatus = (layer: Layer) => path.join(CACHE, 'roots', `${layer}.status`);
export const debFor = (pkg: string) => readdirSync(path.join(CACHE, 'debs')).find((f) => f.startsWith(`${pkg}_`));

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Fetch every layer's packages (cached) and unpack each layer once; returns what was done, for the log. */
export function prepareLayers(): string[] {
  const done: string[] = [];
  const all = Object.values(LAYERS).flat();
  const missing = all.filter((p) => !existsSync(path.join(CACHE, 'debs')) || !debFor(p));
  if (missing.length) {
    run('bash', [path.join(here, 'fetch-debs.sh'), CACHE, ...all]);
    done.push(`fetched ${missing.length} packages`);
  }
  for (const layer of Object.keys(LAYERS) as Layer[]) {
    const stamp = path.join(CACHE, 'roots', `${layer}.done`);
    if (existsSync(stamp)) continue;
    rmSync(layerRoot(layer), { recursive: true, force: true });
    mkdirSync(layerRoot(layer), { recursive: true });
    const stanzas: string[] = [];
    for (const pkg of LAYERS[layer]) {
      const deb = path.join(CACHE, 'debs', debFor(pkg)!);
      run('dpkg', ['-x', deb, layerRoot(layer)]);
      const control = run('dpkg-deb', ['-f', deb, 'Package', 'Version', 'Architecture', 'Source']);
      stanzas.push(`${control.trim().replace(/^Package: (.*)$/m, 'Package: $1\nStatus: install ok installed')}\n`);
      if (pkg === 'nvidia-alternative') run('dpkg-deb', ['-e', deb, path.join(CACHE, 'roots', 'nvidia-alternative.control')]);
    }
    writeFileSync(layerStatus(layer), stanzas.join('\n'));
    writeFileSync(stamp, new Date().toISOString());
    done.push(`unpacked ${layer}`);
  }
  return done;
}
