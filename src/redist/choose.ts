// Which CUDA release the redist route installs for a TensorFlow row: the newest of the same major
// whose minor-version-compatibility driver floor this machine's driver meets, among the releases
// that ship every library file TF loads under the name it loads — and never older than the CUDA
// TF was built with (its runtime needs at least that). Pure: data in, a choice or a refusal out.
import { cudaFamily, findCudaRelease, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import { compareDotted, major, majorMinor } from '../version.js';
import { redistPlatform, releaseArchives, type RedistCatalog, type RedistRelease } from './catalog.js';
import { cliText } from '../i18n/cli.js';
import { redistText } from '../i18n/redist.js';

export interface RedistChoice {
  release: RedistRelease;
  /** "11.8": the toolkit folder's and nvcc's version. */
  majorMinor: string;
  /** The CUDA TF was built with ("11.2"). */
  builtWith: string;
  driver?: string;
  /** Minor-version compatibility floor of the major on this OS (Table 2). */
  floor?: string;
  /** The release's own driver (Table 3): below it, PTX this toolkit produces cannot be JIT-compiled by the driver. */
  fullDriver?: string;
  ptxCaveat: boolean;
  bytes: number;
  archives: number;
  /** One sentence: which release and why. */
  why: string;
  caveat?: string;
}

export type RedistRoute = { ok: true; choice: RedistChoice } | { ok: false; reason: string; fix: string };

/** Does the redist route exist for this TF here, and which release would it install? */
export function redistRouteFor(redist: RedistCatalog, catalog: Catalog, req: Requirements, os: OsName, driver?: string, pinRelease?: string): RedistRoute {
  const fix = redistText.useInstaller(req.tensorflow);
  if (!req.gpuSupported || !req.cuda) return { ok: false, reason: redistText.noGpuBuild(req.tensorflow), fix };
  const cuda = req.cuda;
  const platform = redistPlatform(os);
  const needed = req.libraries.filter((l) => l.from === 'toolkit').map((l) => l.file);
  const serving = redist.releases.filter(
    (r) =>
      major(r.version) === major(cuda) &&
      compareDotted(majorMinor(r.version), cuda) >= 0 &&
      needed.every((f) => r.provides[platform]?.includes(f)) &&
      releaseArchives(redist, r, os).missing.length === 0,
  );
  // A repair keeps the release the toolkit already has, when it still serves.
  const pinned = serving.filter((r) => r.version === pinRelease);
  if (pinned.length) serving.splice(0, serving.length, ...pinned);
  if (serving.length === 0) return { ok: false, reason: redistText.noRelease(req.tensorflow, cuda, redist.firstRelease), fix };
  const floorOf = (r: RedistRelease) => cudaFamily(catalog, r.version)?.minorCompatDriverMin?.[os];
  const runs = serving.filter((r) => !driver || !floorOf(r) || compareDotted(driver, floorOf(r)!) >= 0);
  const newest = (list: RedistRelease[]) => [...list].sort((a, b) => compareDotted(b.version, a.version))[0];
  const release = newest(runs.length ? runs : serving);
  const floor = floorOf(release);
  const fullDriver = findCudaRelease(catalog, release.version)?.driverMin?.[os];
  const ptxCaveat = Boolean(driver && fullDriver && compareDotted(driver, fullDriver) < 0);
  const { archives } = releaseArchives(redist, release, os);
  const mm = majorMinor(release.version);
  const sameNames = cliText.list(needed.slice(0, 2));
  return {
    ok: true,
    choice: {
      release,
      majorMinor: mm,
      builtWith: cuda,
      driver,
      floor,
      fullDriver,
      ptxCaveat,
      bytes: archives.reduce((n, a) => n + a.size, 0),
      archives: archives.length,
      why: mm === cuda ? redistText.whySame(req.tensorflow, cuda, release.version) : redistText.whyNewer(req.tensorflow, cuda, mm, sameNames, driver, floor),
      caveat: ptxCaveat ? redistText.ptxCaveat(mm, driver!, fullDriver!) : undefined,
    },
  };
}
