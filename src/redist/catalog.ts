// NVIDIA's redist manifests as data (assets/redist/cuda.json), validated at load like the catalog,
// with releases an overlay (--catalog FILE, key "redist") adds or amends. Only the components
// TensorFlow loads and the platforms cudawiz serves are kept.
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import redistData from '../../assets/redist/cuda.json' with { type: 'json' };
import { deepMerge, formatIssues, zodParseOptions } from '../catalog/load.js';
import { CudawizError, EXIT } from '../errors.js';
import { catalogText } from '../i18n/catalog.js';
import type { OsName } from '../platform.js';
import { compareDotted } from '../version.js';

const dotted = z.string().regex(/^\d+(\.\d+)*$/, { error: () => catalogText.expectedDotted('11.8.0') });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: () => catalogText.expectedSha256 });
// NVIDIA writes size as a string ("913876"); some copies give a number.
const sizeWords = { error: () => catalogText.expectedSize };
const size = z
  .union([z.string().regex(/^\d+$/, sizeWords), z.number().int(sizeWords).nonnegative(sizeWords)], sizeWords)
  .transform((v) => Number(v))
  .pipe(z.number().int(sizeWords).positive(sizeWords));
/** Free text a person wrote (a name, a source): said in words when missing, not as a schema rule. */
const text = (min: number) => z.string({ error: () => catalogText.expectedText }).min(min, { error: () => catalogText.expectedText });
// A manifest path stays below the redist folder: no "..", not absolute, "/"-separated.
const relativePath = z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9._+\-/]+\.(tar\.xz|zip)$/, { error: () => catalogText.expectedRelativePath });

export const REDIST_PLATFORMS = ['linux-x86_64', 'windows-x86_64'] as const;
export type RedistPlatform = (typeof REDIST_PLATFORMS)[number];

const archiveSchema = z.object({ relative_path: relativePath, sha256, md5: z.string().regex(/^[0-9a-f]{32}$/, { error: () => catalogText.expectedMd5 }).optional(), size }).strict();
const componentSchema = z
  .object({
    name: text(1),
    version: dotted,
    license: z.string().optional(),
    'linux-x86_64': archiveSchema.optional(),
    'windows-x86_64': archiveSchema.optional(),
  })
  .strict();
const releaseSchema = z
  .object({
    version: dotted,
    releaseDate: z.string().optional(),
    source: text(3),
    provides: z.object({ 'linux-x86_64': z.array(z.string().min(1)).optional(), 'windows-x86_64': z.array(z.string().min(1)).optional() }).strict(),
    providesSource: z.string().min(3).optional(),
    components: z.record(z.string(), componentSchema),
  })
  .strict();
const redistSchema = z
  .object({
    source: z.string().min(3),
    baseUrl: z.string().url(),
    firstRelease: dotted,
    firstReleaseSource: z.string(),
    // `since`: a component only releases from that version on need (nvJitLink, new in CUDA 12).
    components: z.array(z.object({ id: z.string().min(1), why: z.string().min(1), since: dotted.optional() }).strict()).min(1),
    layout: z.object({ 'linux-x86_64': z.record(z.string(), z.string()), 'windows-x86_64': z.record(z.string(), z.string()) }).strict(),
    layoutSource: z.string(),
    releases: z.array(releaseSchema),
  })
  .strict();

export type RedistCatalog = z.infer<typeof redistSchema>;
export type RedistRelease = z.infer<typeof releaseSchema>;
export type RedistArchive = z.infer<typeof archiveSchema>;

export const redistPlatform = (os: OsName): RedistPlatform => (os === 'windows' ? 'windows-x86_64' : 'linux-x86_64');

function parse<T>(where: string, schema: z.ZodType<T>, data: unknown, prefix = ''): T {
  const r = schema.safeParse(data, zodParseOptions());
  if (!r.success) {
    throw new CudawizError(catalogText.invalid(formatIssues(where, r.error, prefix)), { code: 'catalog-invalid', fix: catalogText.invalidFix, exitCode: EXIT.usage });
  }
  return r.data;
}

/** The "redist" entries of an overlay file: releases, each merged over the built-in one of the same version. */
function overlayReleases(file: string): unknown[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { redist?: unknown };
  if (doc.redist === undefined) return [];
  return parse(file, z.array(z.object({ version: dotted }).passthrough()), doc.redist, 'redist');
}

/** Built-in manifests, plus the overlay's (the CLI has already read and checked the file's JSON). */
export function loadRedistCatalog(overlayFile?: string): RedistCatalog {
  const catalog = parse('assets/redist/cuda.json', redistSchema, redistData);
  const releases = [...catalog.releases];
  if (overlayFile) {
    overlayReleases(overlayFile).forEach((entry, i) => {
      const version = (entry as { version: string }).version;
      const at = releases.findIndex((r) => r.version === version);
      const valid = parse(overlayFile, releaseSchema, deepMerge(at >= 0 ? releases[at] : {}, entry), `redist[${i}]`);
      if (at >= 0) releases[at] = valid;
      else releases.push(valid);
    });
  }
  releases.sort((a, b) => compareDotted(a.version, b.version));
  return { ...catalog, releases };
}

/** The archives one release needs on one platform, in the catalog's component order; the missing ones named. */
export function releaseArchives(catalog: RedistCatalog, release: RedistRelease, os: OsName): { archives: (RedistArchive & { component: string; version: string })[]; missing: string[] } {
  const platform = redistPlatform(os);
  const archives: (RedistArchive & { component: string; version: string })[] = [];
  const missing: string[] = [];
  for (const { id, since } of catalog.components) {
    if (since && compareDotted(release.version, since) < 0) continue;
    const c = release.components[id];
    const a = c?.[platform];
    if (!c || !a) missing.push(id);
    else archives.push({ ...a, component: id, version: c.version });
  }
  return { archives, missing };
}
