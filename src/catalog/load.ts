// Loads the built-in catalog (assets/*.json, bundled into the CLI) and an optional overlay file, and
// validates both. Errors name the file and the path of the bad field.
import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import zhCN from 'zod/v4/locales/zh-CN.js';
import tensorflowData from '../../assets/tensorflow.json' with { type: 'json' };
import cudaData from '../../assets/cuda.json' with { type: 'json' };
import cudnnData from '../../assets/cudnn.json' with { type: 'json' };
import librariesData from '../../assets/libraries.json' with { type: 'json' };
import gpusData from '../../assets/gpus.json' with { type: 'json' };
import { CudawizError, EXIT } from '../errors.js';
import { catalogText } from '../i18n/catalog.js';
import { currentLang } from '../i18n/localized.js';
import { planText } from '../i18n/plan.js';
import { parseDotted, versionHasPrefix } from '../version.js';
import {
  cudaReleaseSchema,
  cudaSchema,
  cudnnReleaseSchema,
  cudnnSchema,
  gpuSchema,
  librariesSchema,
  overlaySchema,
  tensorflowSchema,
  type Catalog,
  type CatalogOverlay,
  type CudnnRelease,
} from './schema.js';

/** A field's path as a reader writes it: `cuda[0].installers.linux.sha256`. */
export function fieldPath(path: readonly PropertyKey[], prefix = ''): string {
  const out = path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), prefix);
  return out || '(root)';
}

export function formatIssues(where: string, error: z.ZodError, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${where}: ${fieldPath(i.path, prefix)}: ${i.message}`)
    .join('\n');
}

/** zod's own words for a bad field (a wrong type, a missing key) in the run's language; the schema's own messages come from catalogText. */
export function zodParseOptions(): { error?: z.core.$ZodErrorMap } {
  return currentLang() === 'zh' ? { error: zhCN().localeError } : {};
}

function parse<T>(where: string, schema: z.ZodType<T>, data: unknown, prefix = ''): T {
  const r = schema.safeParse(data, zodParseOptions());
  if (!r.success) {
    throw new CudawizError(catalogText.invalid(formatIssues(where, r.error, prefix)), {
      code: 'catalog-invalid',
      fix: catalogText.invalidFix,
      exitCode: EXIT.usage,
    });
  }
  return r.data;
}

export function builtinCatalog(): Catalog {
  return {
    tensorflow: parse('assets/tensorflow.json', tensorflowSchema, tensorflowData),
    cuda: parse('assets/cuda.json', cudaSchema, cudaData),
    cudnn: parse('assets/cudnn.json', cudnnSchema, cudnnData),
    libraries: parse('assets/libraries.json', librariesSchema, librariesData),
    gpus: parse('assets/gpus.json', gpuSchema, gpusData),
  };
}

type Plain = Record<string, unknown>;
function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/** Nested objects merge; everything else in `over` replaces what `base` had. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return (over === undefined ? base : over) as T;
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out as T;
}

/** An overlay cuDNN entry that matched no release: added as a new one, which may not be what was meant. */
function unmatchedWarning(where: string, at: string, entry: { version: string; cuda: string }, releases: readonly CudnnRelease[]): string {
  const distance = (v: string) => {
    const a = parseDotted(v) ?? [];
    const b = parseDotted(entry.version) ?? [];
    let same = 0;
    while (same < Math.min(a.length, b.length) && a[same] === b[same]) same++;
    return -same * 10 + Math.abs(a.length - b.length);
  };
  const near = [...releases].sort((x, y) => distance(x.version) - distance(y.version) || Number(y.cuda === entry.cuda) - Number(x.cuda === entry.cuda))[0];
  return planText.overlayUnmatched(where, at, entry.version, entry.cuda, near?.version, near?.cuda);
}

export function applyOverlay(catalog: Catalog, overlay: CatalogOverlay, where = 'overlay'): Catalog {
  const cudaReleases = [...catalog.cuda.releases];
  (overlay.cuda ?? []).forEach((entry, i) => {
    const at = cudaReleases.findIndex((r) => r.version === entry.version);
    const merged = deepMerge(at >= 0 ? cudaReleases[at] : { installers: {} }, entry);
    const valid = parse(where, cudaReleaseSchema, merged, `cuda[${i}]`);
    if (at >= 0) cudaReleases[at] = valid;
    else cudaReleases.push(valid);
  });
  const cudnnReleases = [...catalog.cudnn.releases];
  const warnings = [...(catalog.warnings ?? [])];
  (overlay.cudnn ?? []).forEach((entry, i) => {
    let at = cudnnReleases.findIndex((r) => r.version === entry.version && r.cuda === entry.cuda);
    if (at < 0) {
      // "7.6.5" for the catalog's "7.6.5.32": a version prefix that names exactly one entry means it.
      const byPrefix = cudnnReleases.flatMap((r, j) => (r.cuda === entry.cuda && versionHasPrefix(r.version, entry.version) ? [j] : []));
      if (byPrefix.length === 1) at = byPrefix[0];
      else warnings.push(unmatchedWarning(where, `cudnn[${i}]`, entry, cudnnReleases));
    }
    // Matched by prefix, the entry keeps the catalog's full version.
    const merged = deepMerge(at >= 0 ? cudnnReleases[at] : { archives: {} }, at >= 0 ? { ...entry, version: cudnnReleases[at].version } : entry);
    const valid = parse(where, cudnnReleaseSchema, merged, `cudnn[${i}]`);
    if (at >= 0) cudnnReleases[at] = valid;
    else cudnnReleases.push(valid);
  });
  // TF rows by version: a row for a release newer than the catalog, or a corrected one.
  const tensorflow = { ...catalog.tensorflow };
  for (const os of ['linux', 'windows'] as const) {
    const rows = [...tensorflow[os]];
    for (const row of overlay.tensorflow?.[os] ?? []) {
      const full = { label: 'tensorflow' as const, compiler: 'unknown (overlay)', buildTools: 'unknown (overlay)', ...row };
      const at = rows.findIndex((r) => r.version === row.version);
      if (at >= 0) rows[at] = full;
      else rows.push(full);
    }
    tensorflow[os] = rows;
  }
  return { ...catalog, tensorflow, cuda: { ...catalog.cuda, releases: cudaReleases }, cudnn: { ...catalog.cudnn, releases: cudnnReleases }, ...(warnings.length ? { warnings } : {}) };
}

export function readOverlay(file: string): CatalogOverlay {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CudawizError(catalogText.overlayUnreadable(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), {
      code: 'overlay-unreadable',
      fix: catalogText.overlayUnreadableFix,
      exitCode: EXIT.usage,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CudawizError(catalogText.overlayNotJson(file, (error as Error).message), {
      code: 'overlay-invalid',
      fix: catalogText.overlayNotJsonFix,
      exitCode: EXIT.usage,
    });
  }
  return parse(file, overlaySchema, data);
}

/** The catalog a command works with: built-in, plus the overlay file if one is given. */
export function loadCatalog(options: { overlayFile?: string } = {}): Catalog {
  const catalog = builtinCatalog();
  return options.overlayFile ? applyOverlay(catalog, readOverlay(options.overlayFile), options.overlayFile) : catalog;
}
