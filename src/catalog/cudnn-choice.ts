// Which cuDNN build a setup takes and why, in words: public or login, tested or compatible.
import { catalogText } from '../i18n/catalog.js';
import { cliText } from '../i18n/cli.js';
import { majorMinor } from '../version.js';
import { requirementsFor, type ArchiveChoice } from './queries.js';
import type { Catalog } from './schema.js';
import type { OsName } from '../platform.js';

/**
 * The one answer to "which cuDNN (and for which CUDA) does TensorFlow `tf` take on `os`": the archive the plan's
 * cuDNN step obtains (toolkit and redist routes alike, src/routes/), requirements prints, the doctor
 * and explain name. null when the catalog has no GPU build of that TF on that OS.
 */
export function cudnnArchiveFor(catalog: Catalog, tf: string, os: OsName): { cudnn: string; cuda: string; archive: ArchiveChoice | null } | null {
  let req;
  try {
    req = requirementsFor(catalog, tf, os);
  } catch {
    return null;
  }
  if (!req.cudnn || !req.cuda) return null;
  return { cudnn: req.cudnn, cuda: req.cuda, archive: req.cudnnArchive };
}

/** The lines `requirements` and the wizard show under the cuDNN archive: access, pick, alternative. */
export function cudnnChoiceLines(a: ArchiveChoice, tf: string): string[] {
  if (a.access === 'login') return [catalogText.cudnnLogin(a.version, a.cuda), catalogText.cudnnLoginWhere(a.page, a.file)];
  const lines = [cliText.clauses(catalogText.cudnnPublic(a.version, a.cuda), a.unverified ? catalogText.cudnnUnverified : catalogText.cudnnVerified)];
  if (a.pick === 'compatible') {
    lines.push(catalogText.cudnnCompatible(majorMinor(tf), a.tested, majorMinor(a.version)));
    lines.push(a.alternative ? catalogText.cudnnAlternative(a.alternative.version, a.alternative.file, a.alternative.page) : catalogText.cudnnNoTestedBuild(a.tested));
  }
  return lines;
}

/** The plan's one-line reason for the cuDNN step. */
export function cudnnPlanReason(a: ArchiveChoice): string {
  if (a.access === 'login') return catalogText.planCudnnLogin(a.file);
  return a.pick === 'compatible' ? catalogText.planCudnnCompatible(a.file, a.tested) : catalogText.planCudnnPublic(a.file);
}

/**
 * The fix that gets this TF's cuDNN, said the same way wherever it is said (doctor, explain): with a
 * public copy `cudawiz install` downloads it; behind the login the user brings the file.
 */
export function cudnnGetFix(a: ArchiveChoice | null, tf: string, fallback: { cudnn: string | null; cuda: string; page: string }): string {
  if (!a) return catalogText.cudnnGetUnknown(tf, fallback.cudnn, fallback.cuda, fallback.page);
  return a.access === 'public' ? catalogText.cudnnGetPublic(tf, a.file) : catalogText.cudnnGetLogin(tf, a.file, a.page);
}

/** Download failures that mean the public copy is not there or not NVIDIA's bytes: the login path is the way out. A full disk or Ctrl+C is not one. */
const COPY_UNAVAILABLE = new Set(['http-status', 'download-failed', 'download-stalled', 'checksum-mismatch', 'size-mismatch', 'no-checksum', 'retry-later', 'redirect-loop', 'body-too-long', 'too-large', 'insecure-url']);
export function publicCopyUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && COPY_UNAVAILABLE.has(code);
}
