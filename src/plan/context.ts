// What every step of a setup or repair plan works from: the target, the machine, and the places.
import envPaths from 'env-paths';
import path from 'node:path';
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import { defaultCudaRoot, defaultDownloadsDir, toolkitDir, type OsName } from '../platform.js';
import { ProbeCache } from '../probe/cache.js';
import type { MachineFacts } from '../probe/types.js';
import type { EnvConsent } from '../env/index.js';
import type { RedistCatalog } from '../redist/catalog.js';
import type { RedistChoice } from '../redist/choose.js';
import type { RedistUnpack } from '../redist/toolkit.js';
import type { OpenBundle } from '../bundle/check.js';
import type { PlanTarget } from './target.js';
import type { RouteId } from '../routes/ids.js';

export interface PlanOptions {
  tf: string;
  cudaRoot?: string;
  cacheDir?: string;
  mirror?: string;
  connections?: number;
  allowUnverified?: boolean;
  /** Linux runfile: accept an unsupported gcc (--override); TensorFlow does not compile with it. */
  overrideCompilerCheck?: boolean;
  /** The cuDNN archive the user downloaded (--cudnn-archive, or typed in the wizard). */
  cudnnArchive?: string;
  /** Where to look for (and wait for) the archive. */
  downloadsDir?: string;
  yes?: boolean;
  configureEnv: EnvConsent;
  /** --package-manager: may repair run conda/pip/apt on a stale copy they own (never implied by --yes). */
  packageManager?: EnvConsent;
  /** How the user ran us, for "re-run with sudo …" hints. */
  command: string;
  logDir?: string;
  /** The run's probe cache (the wizard shares one from its scan); a new one when not given. */
  probes?: ProbeCache;
  /** `--from DIR`: every file comes from this bundle (opened and re-hashed), none from the network. */
  bundle?: OpenBundle;
  /** The redist release to keep: a repair's toolkit's own, or the one a bundle holds. */
  pinRelease?: string;
}

export interface PlanContext extends PlanOptions {
  /** The route this plan was chosen for: set by `chosenPlan`, so a step knows its route (never guessed from the context's shape). */
  route?: RouteId;
  /** The request's target, resolved once (src/plan/target.ts): its facts and findings serve the plan's preview. */
  target?: PlanTarget;
  /** Python/TensorFlow probed once for the whole plan (preview, checks, steps); re-probed after a step changes them. */
  probes: ProbeCache;
  catalog: Catalog;
  host: Host;
  os: OsName;
  req: Requirements;
  /** major.minor of the toolkit TF needs. */
  cuda: string;
  root: string;
  toolkitDir: string;
  /**
   * Where cuDNN goes when it is not the toolkit's own folder: beside a distro's CUDA (apt's, in /usr),
   * which belongs to its packages, a folder of cuDNN's own (platform's cudnnHomeDir). Unset: the toolkit.
   */
  cudnnDir?: string;
  cacheDir: string;
  logDir: string;
  downloadsDir: string;
  /** Filled by the preflight step; later steps read it. */
  facts?: MachineFacts;
  installerFile?: string;
  /** Sizes a server gave for files the catalog has none for (the space step asks once; the download lines say the same figure). */
  serverSizes?: Map<string, number>;
  /** The sha256 the download step verified; the installer is re-checked against it right before it runs. */
  installerSha256?: string;
  /** Findings whose stale copy its package manager replaced in this run: their workaround is not needed. */
  replaced?: Set<string>;
}

export function createPlanContext(catalog: Catalog, host: Host, options: PlanOptions, target?: PlanTarget): PlanContext {
  const os = host.os;
  const req = target?.req ?? requirementsFor(catalog, options.tf, os);
  const cuda = req.cuda ?? '';
  const root = options.cudaRoot ?? defaultCudaRoot(os, host.env);
  const paths = envPaths('cudawiz', { suffix: '' });
  const cacheDir = options.cacheDir ?? paths.cache;
  return {
    ...options,
    catalog,
    host,
    os,
    req,
    cuda,
    root,
    toolkitDir: toolkitDir(os, root, cuda),
    cacheDir,
    logDir: options.logDir ?? path.join(cacheDir, 'logs'),
    downloadsDir: options.downloadsDir ?? defaultDownloadsDir(os, host.env, host.home),
    probes: options.probes ?? new ProbeCache(host),
    ...(target ? { target } : {}),
  };
}

/**
 * What a plan's lock, checks and writes are about, settled when the plan is chosen: these fields are
 * made read-only (an assignment throws), so no step can move the run to another folder after the lock
 * is taken. What steps hand on to later steps (the archive found, the answers given) stays writable.
 */
export const SETTLED_FIELDS = ['route', 'tf', 'catalog', 'host', 'os', 'req', 'cuda', 'root', 'toolkitDir', 'cudnnDir', 'target', 'choice', 'venvDir', 'pinRelease', 'redist'] as const;

export function settle<C extends PlanContext>(ctx: C): C {
  for (const key of SETTLED_FIELDS) {
    // cudnnDir is settled too where no remedy placed cuDNN elsewhere: the toolkit, for the whole run.
    if (!(key in ctx) && key !== 'cudnnDir') continue;
    const value = (ctx as Record<string, unknown>)[key];
    if (value && typeof value === 'object' && key !== 'catalog' && key !== 'host' && key !== 'redist') Object.freeze(value);
    Object.defineProperty(ctx, key, { value, writable: false, configurable: false, enumerable: true });
  }
  return ctx;
}

/** The redist route's context: its catalog, the release chosen for this TF and driver, what its steps hand on. */
export interface RedistPlanContext extends PlanContext {
  redist: RedistCatalog;
  choice: RedistChoice;
  /** A repair keeps the toolkit's own release. */
  pinRelease?: string;
  /** component id → verified archive in the cache, filled by the download step. */
  archiveFiles?: Map<string, string>;
  /** The unpack begun by the download step: archives already extracting into staging. */
  unpack?: RedistUnpack;
}

/** The pip route's own place: the virtual environment (default ./.venv). */
export interface PipPlanContext extends PlanContext {
  venvDir: string;
}

/** The folder cuDNN is imported into and checked in: its own folder beside a distro's CUDA, else the toolkit. */
export const cudnnTargetDir = (ctx: PlanContext): string => ctx.cudnnDir ?? ctx.toolkitDir;
