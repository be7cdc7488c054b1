// openBundle: is this folder a complete bundle for this machine, this TensorFlow and this route, with
// every file's bytes as the manifest (and, where it knows them, the catalog) says? Every file is
// hashed again (opened once, never through a link); every problem is named, none is fixed. Reads
// only: the plan's steps copy each file into the cache while hashing it again, and use that copy.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { requirementsFor } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError, EXIT } from '../errors.js';
import { bundleText } from '../i18n/bundle.js';
import { cliText } from '../i18n/cli.js';
import type { OsName } from '../platform.js';
import type { RedistCatalog } from '../redist/catalog.js';
import { readBundleManifest, type BundleManifest } from './manifest.js';
import { routeFiles, type RouteId } from '../routes/index.js';
import { hashOnce, othersCanChange, VerifyFailure } from '../trust/verified-file.js';

export interface BundleProblem {
  code: 'no-manifest' | 'bad-manifest' | 'other-os' | 'other-tf' | 'other-route' | 'other-files' | 'incomplete' | 'missing' | 'altered';
  file?: string;
  message: string;
}

export interface BundleFile {
  path: string;
  sha256: string;
  md5: string;
  size: number;
  id: string;
  kind: string;
}

export interface OpenBundle {
  dir: string;
  manifest: BundleManifest;
  /** File name → its path in the bundle (verified just now). */
  files: Map<string, BundleFile>;
  /** The cuDNN archive in the bundle, for the plan's obtain-cudnn step. */
  cudnnArchive?: string;
  /** The first of the bundle's files or folders other users can change, said in the plan (B3); undefined when none. */
  sharedBy?: string;
}

export interface BundleExpectation {
  catalog: Catalog;
  redist: RedistCatalog;
  os: OsName;
  /** What the command was asked for; undefined: the bundle's own. */
  tf?: string;
  route?: RouteId;
}

/** The same TensorFlow: the same row of the tested table on this OS ("2.10" and "2.10.0" are one). */
function sameTf(catalog: Catalog, os: OsName, a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return requirementsFor(catalog, a, os).row === requirementsFor(catalog, b, os).row;
  } catch {
    return false;
  }
}

/** What is wrong with the bundle in `dir` for this expectation; an empty list when nothing is. */
export async function checkBundle(dir: string, want: BundleExpectation): Promise<{ problems: BundleProblem[]; bundle?: OpenBundle }> {
  const root = path.resolve(dir);
  const read = await readBundleManifest(root);
  if (read.invalid) return { problems: [{ code: 'bad-manifest', message: bundleText.badManifest(root, read.invalid) }] };
  const m = read.manifest;
  if (!m) return { problems: [{ code: 'no-manifest', message: bundleText.noManifest(root) }] };
  const problems: BundleProblem[] = [];
  if (m.os !== want.os) problems.push({ code: 'other-os', message: bundleText.otherOs(m.os, want.os) });
  if (want.tf && !sameTf(want.catalog, want.os, want.tf, m.tensorflow)) problems.push({ code: 'other-tf', message: bundleText.otherTf(m.tensorflow, want.tf) });
  if (want.route && want.route !== m.route) problems.push({ code: 'other-route', message: bundleText.otherRoute(m.route, want.route) });
  if (problems.length) return { problems };
  // The files this cudawiz's catalog says the route needs (the bundle's redist release kept): the
  // manifest must list the same names, and where the catalog knows a sha256, the same one.
  const expected = routeFiles(want.catalog, want.redist, m.tensorflow, m.os, m.route, { pinRelease: m.route === 'redist' ? m.cuda : undefined });
  if (!expected.available) return { problems: [{ code: 'other-files', message: expected.reason ?? '' }] };
  const listed = new Map(m.files.map((f) => [f.file, f]));
  const wrong = expected.files.filter((f) => !listed.has(f.file) || (f.sha256 && listed.get(f.file)!.sha256 && listed.get(f.file)!.sha256 !== f.sha256));
  if (wrong.length || (m.route === 'redist' && m.cuda !== expected.cuda)) {
    return { problems: [{ code: 'other-files', message: bundleText.otherFiles(cliText.list(wrong.map((f) => f.file)), m.cuda ?? '', expected.cuda ?? '') }] };
  }
  const files: OpenBundle['files'] = new Map();
  let sharedBy: string | undefined;
  for (const f of expected.files) {
    const entry = listed.get(f.file)!;
    const p = path.join(root, f.file);
    if (!(await lstat(p).catch(() => undefined))) {
      problems.push({ code: 'missing', file: f.file, message: f.access === 'login' ? bundleText.missingLogin(f.file, f.page ?? want.catalog.cudnn.archivePage) : bundleText.missingFile(f.file) });
      continue;
    }
    const want256 = f.sha256 ?? entry.sha256;
    if (!want256) {
      problems.push({ code: 'altered', file: f.file, message: bundleText.altered(f.file, '', '') });
      continue;
    }
    // Opened once, never through a link, its size compared before a byte is hashed (#37).
    let d: { sha256: string; md5: string; bytes: number };
    try {
      d = await hashOnce(p, { size: entry.size, sha256: want256 });
    } catch (error) {
      if (!(error instanceof VerifyFailure)) throw error;
      problems.push({ code: 'altered', file: f.file, message: error.problem === 'digest' && error.got ? bundleText.altered(f.file, want256, error.got.sha256) : error.message });
      continue;
    }
    sharedBy ??= await othersCanChange(p);
    files.set(f.file, { path: p, sha256: d.sha256, md5: d.md5, size: d.bytes, id: f.id, kind: f.kind });
  }
  if (problems.length === 0 && !m.complete) problems.push({ code: 'incomplete', message: bundleText.incomplete(root) });
  const cudnn = expected.files.find((f) => f.kind === 'cudnn');
  return { problems, bundle: { dir: root, manifest: m, files, cudnnArchive: cudnn ? files.get(cudnn.file)?.path : undefined, sharedBy } };
}

/** The bundle, or a refusal that names every problem (exit 1); nothing on the machine changes either way. */
export async function openBundle(dir: string, want: BundleExpectation): Promise<OpenBundle> {
  const { problems, bundle } = await checkBundle(dir, want);
  if (problems.length || !bundle) {
    throw new CudawizError(bundleText.refused(path.resolve(dir), problems.map((p) => p.message)), {
      code: `bundle-${problems[0]?.code ?? 'invalid'}`,
      exitCode: EXIT.problems,
      fix: bundleText.refusedFix(problems[0]?.code === 'other-os' || problems[0]?.code === 'other-tf' || problems[0]?.code === 'other-route' ? 'remake' : 'redownload'),
      details: { problems },
    });
  }
  return bundle;
}
