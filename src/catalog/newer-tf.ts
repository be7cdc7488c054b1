// A TensorFlow released after this catalog was written: normal a few months after a release. Not
// an error but a path: what still works without a catalog row for it.
import { CudawizError, EXIT } from '../errors.js';
import { planText } from '../i18n/plan.js';
import type { OsName } from '../platform.js';
import { compareDotted, major, majorMinor, parseDotted } from '../version.js';
import type { Catalog, TfRow } from './schema.js';

export interface TfBeyondCatalog {
  /** The version asked for or installed: "2.22.0". */
  tf: string;
  /** The newest minor line the catalog knows: "2.21". */
  catalogEnd: string;
  /** The catalog's newest row, and whether TF kept its CUDA and cuDNN over its last releases. */
  newest: { version: string; cuda: string; cudnn: string; sameSince?: string };
  /** Linux (and WSL2): pip's tensorflow[and-cuda] resolves its own CUDA and cuDNN; no row needed. */
  pip?: string;
}

/** How far past the catalog's end a --tf may be and still read as "came later" rather than a typo. */
const LINES_AHEAD = 4;

function newestRows(rows: readonly TfRow[]): TfRow[] {
  return [...rows].sort((a, b) => compareDotted(b.version, a.version));
}

/**
 * The newer-than-the-catalog path for `tf`, or undefined when the catalog knows it or it is not newer.
 * `installed`: pip says it is there (so it exists), however far ahead; a typed --tf counts as newer
 * only within a few minor lines of the catalog's end (2.99 is a typo, not a release).
 */
export function tfBeyondCatalog(catalog: Catalog, tf: string, os: OsName, options: { installed?: boolean } = {}): TfBeyondCatalog | undefined {
  // pip's pre- and post-releases (2.22.0rc1, 2.22.0.post1) are that release as far as CUDA goes.
  const release = /^(\d+\.\d+(?:\.\d+)?)(?:(?:a|b|rc)\d+|\.post\d+|\.dev\d+)?$/.exec(tf.trim())?.[1];
  const p = release ? parseDotted(release) : undefined;
  if (!release || !p || p.length < 2 || p.length > 3) return undefined;
  // TensorFlow's Linux table is the one that keeps going (native Windows stops at 2.10).
  const rows = newestRows(catalog.tensorflow.linux);
  const top = rows[0];
  if (!top || compareDotted(majorMinor(release), majorMinor(top.version)) <= 0) return undefined;
  const ahead = major(release) === major(top.version) ? (p[1] ?? 0) - ((parseDotted(top.version) ?? [])[1] ?? 0) : Infinity;
  if (!options.installed && ahead > LINES_AHEAD) return undefined;
  // The run of newest rows sharing the newest one's CUDA and cuDNN: TF kept them that long.
  let since: string | undefined;
  for (const r of rows.slice(1)) {
    if (r.cuda !== top.cuda || r.cudnn !== top.cudnn) break;
    since = r.version;
  }
  const version = p.length === 2 ? `${release}.0` : tf;
  return {
    tf,
    catalogEnd: majorMinor(top.version),
    newest: { version: top.version, cuda: top.cuda, cudnn: top.cudnn, ...(since ? { sameSince: since } : {}) },
    ...(os === 'linux' ? { pip: `tensorflow[and-cuda]==${version}` } : {}),
  };
}

export interface BeyondOption {
  id: 'pip' | 'same-cuda' | 'newest-row' | 'overlay' | 'upgrade';
  text: string;
  /** The TF row to set up for ('same-cuda', 'newest-row'), and what it needs. */
  tf?: string;
  cuda?: string;
  cudnn?: string;
}

/** What still works, best first: the pip route, the newest row where TF kept its CUDA, an overlay, a newer cudawiz. */
export function beyondCatalogOptions(b: TfBeyondCatalog, os: OsName): BeyondOption[] {
  const line = majorMinor(b.newest.version);
  const out: BeyondOption[] = [];
  const pipReq = b.pip ?? `tensorflow[and-cuda]==${b.tf}`;
  out.push({ id: 'pip', text: os === 'linux' ? planText.beyondPip(pipReq) : planText.beyondPipWsl(pipReq) });
  // Native Windows has no GPU build of any TF this new: only WSL2's pip route applies there.
  if (os === 'linux') {
    out.push(
      b.newest.sameSince
        ? { id: 'same-cuda', tf: b.newest.version, cuda: b.newest.cuda, cudnn: b.newest.cudnn, text: planText.beyondSameCuda(b.newest.sameSince, b.newest.version, b.newest.cuda, b.newest.cudnn, line) }
        : { id: 'newest-row', tf: b.newest.version, cuda: b.newest.cuda, cudnn: b.newest.cudnn, text: planText.beyondNewest(b.newest.version, b.newest.cuda, b.newest.cudnn, line) },
    );
  }
  out.push({ id: 'overlay', text: planText.beyondOverlay(b.tf) }, { id: 'upgrade', text: planText.beyondUpgrade });
  return out;
}

/** The path as an error for the commands that cannot go on without a row: the headline, then what still works (exit 1). */
export function beyondCatalogError(b: TfBeyondCatalog, os: OsName): CudawizError {
  const options = beyondCatalogOptions(b, os);
  return new CudawizError(planText.beyondHeadline(b.catalogEnd, b.tf), {
    code: 'tf-newer-than-catalog',
    exitCode: EXIT.problems,
    fix: `${planText.beyondWhatWorks}\n${options.map((o, i) => `    ${i + 1}. ${o.text}`).join('\n')}`,
    details: { catalogEnd: b.catalogEnd, newest: b.newest, options },
  });
}
