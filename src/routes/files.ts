// What a route needs for one TensorFlow on one OS, in one shape for every route: its files with their
// sizes and hashes, whether it exists here (and why not, and what instead), administrator and login.
// Pure: data in, data out; no network, no disk. Each route fills it in its own file (toolkit.ts, …).
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { publicCopyUrl } from '../catalog/archive-facts.js';
import { scratchSpaceNeeded } from '../cuda/scratch.js';
import type { ChecksumSources } from '../fetch/checksum.js';
import type { OsName } from '../platform.js';
import type { RedistCatalog } from '../redist/catalog.js';
import type { RouteId } from './ids.js';

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
  /** Why that CUDA is not the one TF was built with (the redist route's newer release of the same major). */
  cudaWhy?: string;
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

/** What a route's facts are computed from: the catalogs, TF's requirements here, and what pins the choice. */
export interface RouteInput {
  catalog: Catalog;
  redist: RedistCatalog;
  req: Requirements;
  tf: string;
  os: OsName;
  /** The redist release a bundle was made with, or a repaired toolkit has. */
  pinRelease?: string;
  /** The machine's driver, when known: the redist release it can run is chosen with it. */
  driver?: string;
}

/** One route's facts, in one place: the plan routes (src/plan/routes/*) add how it plans and repairs. */
export interface RouteFacts {
  id: RouteId;
  /** An administrator (Windows) or root is needed to run it. */
  admin: boolean;
  /** The wizard's label for it; `all`: every route's files, so a size claim is made only where the sizes prove it. */
  label(all: readonly RouteFiles[]): string;
  /** Why the wizard and `install` recommend it when they do (one line). */
  why(files: RouteFiles): string;
  /** Its files for a TF on an OS, or why it does not exist there. */
  files(input: RouteInput): RouteFiles;
}

/** The cuDNN archive the toolkit and redist routes import (the same one: the plan's obtain-cudnn step). */
export function cudnnFile(req: Requirements): RouteFile | undefined {
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

type Base = Omit<RouteFiles, 'knownBytes' | 'sizesKnown' | 'totalBytes' | 'needs'>;

export function finish(base: Base, admin: boolean): RouteFiles {
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

export const unavailable = (route: RouteId, input: RouteInput, reason: string, fix: string, admin: boolean): RouteFiles =>
  finish({ route, tf: input.tf, os: input.os, available: false, reason, fix, files: [] }, admin);

/** `a` is proven smaller than `b`: every size of `a` known, and below what `b` is known to need at least. */
export const provenSmaller = (a: RouteFiles | undefined, b: RouteFiles | undefined): boolean =>
  Boolean(a?.available && b?.available && a.sizesKnown && a.knownBytes < b.knownBytes);

/**
 * The same route needing only some of its files (the installer route over a toolkit TF can already
 * load needs only cuDNN): totals and needs recomputed; no installer, so no administrator for it either.
 */
export function onlyKinds(r: RouteFiles, kinds: RouteFile['kind'][]): RouteFiles {
  const { knownBytes: _k, sizesKnown: _s, totalBytes: _t, needs, ...base } = r;
  const files = base.files.filter((f) => kinds.includes(f.kind));
  return finish({ ...base, files, cuda: undefined, cudaWhy: undefined }, needs.admin && files.some((f) => f.kind === 'installer'));
}
