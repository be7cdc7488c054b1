// Which CUDA the redist route installs, and what the redist manifests as data must hold: the
// release choice by minor-version compatibility on real catalog rows, and the zod checks an
// overlay's release goes through.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog, loadCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { loadRedistCatalog, releaseArchives } from '../../src/redist/catalog.js';
import { redistRouteFor } from '../../src/redist/choose.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();
const redist = loadRedistCatalog();

async function overlayFile(doc: unknown): Promise<string> {
  const file = path.join(await tempDir('cw-redist-overlay-'), 'overlay.json');
  await writeFile(file, JSON.stringify(doc));
  return file;
}

describe('the redist release for a TensorFlow row', () => {
  it('TF 2.10 on Windows (built with CUDA 11.2) gets CUDA 11.8 on driver 527, and the plan says why', () => {
    const r = redistRouteFor(redist, catalog, requirementsFor(catalog, '2.10', 'windows'), 'windows', '527.56');
    if (!r.ok) throw new Error(r.reason);
    expect(r.choice.release.version).toBe('11.8.0');
    expect(r.choice.builtWith).toBe('11.2');
    expect(r.choice.floor).toBe('452.39');
    expect(r.choice.why).toBe("TensorFlow 2.10 was built with CUDA 11.2; CUDA 11.8's libraries carry the same names (cudart64_110.dll, cublas64_11.dll, …) and run with your driver 527.56 (minor-version compatibility needs 452.39 or newer).");
    expect(r.choice.ptxCaveat).toBe(false);
    expect(r.choice.archives).toBe(9); // the 8 libraries and tools TF loads, and NVRTC
  });

  it('on a driver older than 11.8\'s own but above the 11.x floor, it still installs 11.8 and names the PTX JIT limit', () => {
    const r = redistRouteFor(redist, catalog, requirementsFor(catalog, '2.10', 'linux'), 'linux', '470.82.01');
    if (!r.ok) throw new Error(r.reason);
    expect(r.choice.release.version).toBe('11.8.0');
    expect(r.choice.ptxCaveat).toBe(true);
    expect(r.choice.caveat).toContain('needs driver 520.61.05 or newer (you have 470.82.01)');
  });

  it('TF 2.12 on Linux was built with 11.8 itself', () => {
    const r = redistRouteFor(redist, catalog, requirementsFor(catalog, '2.12', 'linux'), 'linux', '525.78.01');
    expect(r.ok && r.choice.why).toBe('TensorFlow 2.12 was built with CUDA 11.8; CUDA 11.8.0 is that release, from NVIDIA\'s per-component archives.');
  });

  it('TF 2.4 (CUDA 11.0 loads libcusolver.so.10, which no redist release ships) and TF 2.12 on native Windows have no redist route', () => {
    const old = redistRouteFor(redist, catalog, requirementsFor(catalog, '2.4', 'linux'), 'linux', '525.78.01');
    expect(old).toMatchObject({ ok: false, fix: 'Use the installer route: cudawiz install --tf 2.4 --route toolkit' });
    expect(!old.ok && old.reason).toContain('start at CUDA 11.4.0');
    expect(redistRouteFor(redist, catalog, requirementsFor(catalog, '2.12', 'windows'), 'windows', '527.56').ok).toBe(false);
  });

  it('picks the newest release of the major that the overlay adds, and only ones whose driver floor is met', async () => {
    const base = redist.releases[0];
    const with119 = { ...redist, releases: [...redist.releases, { ...base, version: '11.9.0' }] };
    const r = redistRouteFor(with119, catalog, requirementsFor(catalog, '2.10', 'linux'), 'linux', '525.78.01');
    expect(r.ok && r.choice.release.version).toBe('11.9.0');
    // A driver below the 11.x floor: no release runs, so the newest is named and the preflight stops on the driver.
    const low = redistRouteFor(with119, catalog, requirementsFor(catalog, '2.10', 'linux'), 'linux', '418.39');
    expect(low.ok && low.choice.release.version).toBe('11.9.0');
  });
});

describe('the redist manifests as data', () => {
  it('ship every component TF loads for each platform the release serves, with NVIDIA\'s sha256 and sizes, and a source', () => {
    for (const release of redist.releases) {
      expect(release.source).toMatch(/nixpkgs|NVIDIA/);
      // CUDA 12 serves Linux only: native-Windows TensorFlow has no GPU build after 2.10 (CUDA 11).
      for (const os of release.version.startsWith('11.') ? (['linux', 'windows'] as const) : (['linux'] as const)) {
        const { archives, missing } = releaseArchives(redist, release, os);
        expect(missing).toEqual([]);
        for (const a of archives) {
          expect(a.relative_path.startsWith(`${a.component}/${os === 'linux' ? 'linux' : 'windows'}-x86_64/`)).toBe(true);
          expect(a.size).toBeGreaterThan(0);
        }
      }
    }
  });

  it('CUDA 12.9.1 for TF 2.15–2.21 on Linux: the 9 components (NVRTC among them) plus nvJitLink (from 12.0 on), NVIDIA\'s sizes; none for Windows', () => {
    const r129 = redist.releases.find((r) => r.version === '12.9.1')!;
    const linux = releaseArchives(redist, r129, 'linux');
    expect(linux.missing).toEqual([]);
    expect(linux.archives.map((a) => a.component)).toEqual(['cuda_cudart', 'libcublas', 'libcufft', 'libcurand', 'libcusolver', 'libcusparse', 'cuda_cupti', 'cuda_nvcc', 'cuda_nvrtc', 'libnvjitlink']);
    expect(linux.archives.reduce((n, a) => n + a.size, 0)).toBe(2370880024 + 114231976); // + cuda_nvrtc 12.9.86 (redistrib_12.9.1.json)
    expect(r129.provides['linux-x86_64']).toContain('libnvJitLink.so.12');
    expect(releaseArchives(redist, r129, 'windows').archives).toEqual([]);
    // 11.8 does not need nvJitLink (new in 12.0), so it is still complete without it.
    expect(releaseArchives(redist, redist.releases.find((r) => r.version === '11.8.0')!, 'linux').archives.map((a) => a.component)).not.toContain('libnvjitlink');
  });

  it('TF 2.16 (built with CUDA 12.3) gets CUDA 12.9.1 on Linux, with the reason; native Windows has none', () => {
    const route = redistRouteFor(redist, catalog, requirementsFor(catalog, '2.16', 'linux'), 'linux', '570.86.10');
    expect(route).toMatchObject({ ok: true, choice: { majorMinor: '12.9', builtWith: '12.3', archives: 10 } });
    if (route.ok) expect(route.choice.why).toContain('TensorFlow 2.16 was built with CUDA 12.3; CUDA 12.9');
  });

  it("add up to NVIDIA's sizes for TF 2.12 on Linux: 1.18 GiB for the 9 components", () => {
    const bytes = releaseArchives(redist, redist.releases.find((r) => r.version === '11.8.0')!, 'linux').archives.reduce((n, a) => n + a.size, 0);
    expect(bytes).toBe(1233298444 + 29507552); // + cuda_nvrtc 11.8.89 (redistrib_11.8.0.json)
  });

  it('an overlay release is validated: a bad sha256 or a path climbing out is refused with its field', async () => {
    const bad = await overlayFile({ redist: [{ version: '11.8.0', components: { libcublas: { 'linux-x86_64': { sha256: 'xyz' } } } }] });
    expect(() => loadRedistCatalog(bad)).toThrow(/redist\[0\]\.components\.libcublas\.linux-x86_64\.sha256/);
    const climbing = await overlayFile({ redist: [{ version: '11.8.0', components: { libcublas: { 'linux-x86_64': { relative_path: '../../etc/passwd.tar.xz' } } } }] });
    expect(() => loadRedistCatalog(climbing)).toThrow(/relative_path/);
    // The catalog's own overlay check accepts the key and leaves it to the redist loader.
    expect(() => loadCatalog({ overlayFile: bad })).not.toThrow();
  });

  it('an overlay adds a release', async () => {
    const file = await overlayFile({ redist: [{ ...redist.releases[0], version: '11.9.0', source: 'a mirror of redistrib_11.9.0.json' }] });
    expect(loadRedistCatalog(file).releases.map((r) => r.version)).toEqual(['11.8.0', '11.9.0', '12.9.1']);
  });
});
