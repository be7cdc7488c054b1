// Which files each route needs for one TensorFlow on one OS, from the catalog and the redist
// manifests alone: the one list `requirements` shows, `download --tf` bundles and `install --from`
// checks. Pure: data in, data out; no network, no disk.
import { publicCopyUrl } from '../catalog/archive-facts.js';
import { hasAndCuda, andCudaPythons, andCudaRequirement, requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { scratchSpaceNeeded } from '../cuda/scratch.js';
import type { ChecksumSources } from '../fetch/checksum.js';
import { pipText } from '../i18n/pip.js';
import type { OsName } from '../platform.js';
import { releaseArchives, type RedistCatalog } from '../redist/catalog.js';
import { redistRouteFor } from '../redist/choose.js';
import { redistText } from '../i18n/redist.js';

export type RouteId = 'toolkit' | 'redist' | 'pip';
export const ROUTE_IDS: readonly RouteId[] = ['toolkit', 'redist', 'pip'];

export interface RouteFile {
  /** "cuda-installer", "cudnn", a redist component id ("libcublas"), or "tensorflow[and-cuda]". */
  id: string;
  kind: 'installer' | 'cudnn' | 'redist' | 'pip';
  /** The file's bare name, as it lies in the cache and in a bundle. */
  file: string;
  /** NVIDIA's URL (a mirror replaces the host); for a login-gated file, the login download. */
  url?: string;
  size?: number;
  /** The sha256 the catalog or the redist manifest gives, when one does. */
  sha256?: string;
  /** What fetchVerified checks the bytes against. */
  checksum: ChecksumSources;
  /** login: NVIDIA offers it only behind its developer login; the user places it by hand. */
  access: 'public' | 'login';
  /** Where to get a login-gated file. */
  page?: string;
  /** The version of what it carries (CUDA 11.2.2, cuDNN 8.1.0.77, libcublas 11.11.3.6). */
  version?: string;
}

export interface RouteNeeds {
  /** An administrator (Windows) or root (Linux, the default /usr/local): the installer route. */
  admin: boolean;
  /** NVIDIA's developer login for a cuDNN archive with no public copy. */
  login: boolean;
  /** Room the installer needs while it runs (its private copy and unpacked payload), when known. */
  scratchBytes?: number;
}

export interface RouteFiles {
  route: RouteId;
  tf: string;
  os: OsName;
  available: boolean;
  /** Why the route does not exist here, and what to use instead. */
  reason?: string;
  fix?: string;
  /** The CUDA it installs: the installer's release, or the redist release (pinned by a bundle). */
  cuda?: string;
  cudnn?: string;
  files: RouteFile[];
  /** Sum of the sizes the catalog knows. */
  knownBytes: number;
  /** Every file's size is known: knownBytes is the total. */
  sizesKnown: boolean;
  /** The total when every size is known, else null ("size unknown", never 0). */
  totalBytes: number | null;
  needs: RouteNeeds;
  /** The pip route: the requirement pip resolves, and the Pythons it resolves on; the NVIDIA wheels it pins are pip's to choose. */
  pip?: { requirement: string; pythons: string[] };
}

/** The cuDNN archive the toolkit and redist routes import (the same one: the plan's obtain-cudnn step). */
function cudnnFile(req: Requirements): RouteFile | undefined {
  const a = req.cudnnArchive;
  if (!a) return undefined;
  const url = (a.access === 'public' ? publicCopyUrl(a) : a.loginUrl) ?? a.url;
  return {
    id: 'cudnn',
    kind: 'cudnn',
    file: a.file,
    url,
    size: a.size,
    sha256: a.sha256,
    checksum: { sha256: a.sha256, manifestUrl: a.manifestUrl },
    access: a.access,
    page: a.access === 'login' ? a.page : undefined,
    version: a.version,
  };
}

function finish(base: Omit<RouteFiles, 'knownBytes' | 'sizesKnown' | 'totalBytes' | 'needs'>, admin: boolean): RouteFiles {
  const knownBytes = base.files.reduce((n, f) => n + (f.size ?? 0), 0);
  const sizesKnown = base.files.length > 0 && base.files.every((f) => f.size !== undefined);
  const installer = base.files.find((f) => f.kind === 'installer');
  return {
    ...base,
    knownBytes,
    sizesKnown,
    totalBytes: sizesKnown ? knownBytes : null,
    needs: {
      admin,
      login: base.files.some((f) => f.access === 'login'),
      scratchBytes: installer?.size ? scratchSpaceNeeded(installer.size) : undefined,
    },
  };
}

const unavailable = (route: RouteId, tf: string, os: OsName, reason: string, fix: string, admin: boolean): RouteFiles =>
  finish({ route, tf, os, available: false, reason, fix, files: [] }, admin);

function toolkitRoute(catalog: Catalog, req: Requirements, tf: string, os: OsName): RouteFiles {
  if (!req.gpuSupported || !req.cuda) return unavailable('toolkit', tf, os, redistText.noGpuBuild(tf), req.alternatives[0]?.detail ?? '', true);
  const i = req.cudaInstaller;
  if (!i) return unavailable('toolkit', tf, os, req.notes[0] ?? redistText.noGpuBuild(tf), redistText.useInstaller(tf), true);
  const installer: RouteFile = {
    id: 'cuda-installer',
    kind: 'installer',
    file: i.file,
    url: i.url,
    size: i.size,
    sha256: i.sha256,
    checksum: { sha256: i.sha256, md5: i.md5, md5sumUrl: i.md5sumUrl },
    access: 'public',
    version: i.version,
  };
  const cudnn = cudnnFile(req);
  return finish({ route: 'toolkit', tf, os, available: true, cuda: i.version, cudnn: cudnn?.version, files: cudnn ? [installer, cudnn] : [installer] }, true);
}

function redistRoute(catalog: Catalog, redist: RedistCatalog, req: Requirements, tf: string, os: OsName, pinRelease?: string): RouteFiles {
  const route = redistRouteFor(redist, catalog, req, os, undefined, pinRelease);
  if (!route.ok) return unavailable('redist', tf, os, route.reason, route.fix, false);
  const files: RouteFile[] = releaseArchives(redist, route.choice.release, os).archives.map((a) => ({
    id: a.component,
    kind: 'redist',
    file: a.relative_path.split('/').pop()!,
    url: new URL(a.relative_path, redist.baseUrl).toString(),
    size: a.size,
    sha256: a.sha256,
    checksum: { sha256: a.sha256 },
    access: 'public',
    version: a.version,
  }));
  const cudnn = cudnnFile(req);
  if (cudnn) files.push(cudnn);
  return finish({ route: 'redist', tf, os, available: true, cuda: route.choice.release.version, cudnn: cudnn?.version, files }, false);
}

function pipRoute(catalog: Catalog, tf: string, os: OsName): RouteFiles {
  if (os !== 'linux') return unavailable('pip', tf, os, pipText.refusalWindows(tf, hasAndCuda(catalog, tf, 'linux')), pipText.useToolkitRoute(tf, false), false);
  const requirement = andCudaRequirement(catalog, tf);
  if (!requirement) return unavailable('pip', tf, os, pipText.refusalPredates(tf, catalog.tensorflow.andCudaFirst), pipText.useToolkitRoute(tf, true), false);
  // The catalog pins no NVIDIA wheel (pip resolves them from tensorflow's own metadata): one entry, size unknown.
  const file: RouteFile = { id: 'tensorflow[and-cuda]', kind: 'pip', file: requirement, checksum: {}, access: 'public', version: requirement.split('==')[1] };
  return finish({ route: 'pip', tf, os, available: true, files: [file], pip: { requirement, pythons: andCudaPythons(catalog, tf) } }, false);
}

/** The files one route needs for TF `tf` on `os`. `pinRelease`: the redist release a bundle was made with. */
export function routeFiles(catalog: Catalog, redist: RedistCatalog, tf: string, os: OsName, route: RouteId, options: { pinRelease?: string } = {}): RouteFiles {
  const req = requirementsFor(catalog, tf, os);
  if (route === 'toolkit') return toolkitRoute(catalog, req, tf, os);
  if (route === 'redist') return redistRoute(catalog, redist, req, tf, os, options.pinRelease);
  return pipRoute(catalog, tf, os);
}

/**
 * The same route needing only some of its files (the installer route over a toolkit TF can already
 * load needs only cuDNN): totals and needs recomputed; no installer, so no administrator for it either.
 */
export function onlyKinds(r: RouteFiles, kinds: RouteFile['kind'][]): RouteFiles {
  const { knownBytes: _k, sizesKnown: _s, totalBytes: _t, needs, ...base } = r;
  const files = base.files.filter((f) => kinds.includes(f.kind));
  return finish({ ...base, files, cuda: undefined }, needs.admin && files.some((f) => f.kind === 'installer'));
}

/** Every route side by side, in the order the wizard offers them. */
export function allRouteFiles(catalog: Catalog, redist: RedistCatalog, tf: string, os: OsName): RouteFiles[] {
  return ROUTE_IDS.map((r) => routeFiles(catalog, redist, tf, os, r));
}

export function isRouteId(value: string): value is RouteId {
  return (ROUTE_IDS as readonly string[]).includes(value);
}
