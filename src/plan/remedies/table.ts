// One table from finding kind to what repair does about it: a remedy (the smallest step that fixes
// that cause) or a stop (what the user must do, and why cudawiz will not). Read by `repair`, by
// `install` on a machine that already has parts and by the wizard's "Repair it" alike. A finding
// kind missing here is still listed by the plan, with its own fix, never dropped.

/** The steps repair can take. */
export type RemedyId =
  /** finish or roll back a cuDNN copy a killed run left half-done */
  | 'settle-copy'
  /** make the right copies win for new shells: a per-user env script, no download */
  | 'load-order'
  /** cuDNN missing or too old in the toolkit TF uses: fetch and import cuDNN only */
  | 'import-cudnn'
  /** no toolkit TF can load (not even one of its CUDA major, minor-version compatible): install TF's */
  | 'install-toolkit'
  /** a venv's nvidia-* wheel folders off the loader path: the marked block in its activate script */
  | 'wheel-loader-path'
  /**
   * a stale copy its package manager owns (conda, pip, apt): that manager's command, journalled for
   * rollback — only with the user's consent (--package-manager yes, or a yes in the wizard); taken
   * by the plan in place of the row's own remedy or stop for that finding, never from the table alone
   */
  | 'package-manager';

/** Why repair stops: causes outside what cudawiz may change. */
export type StopId =
  /** the display driver: installed the way it came, never by cudawiz */
  | 'driver'
  /** no usable GPU, or one TF has no kernels for */
  | 'gpu'
  /** another framework's pin in the same venv: a separate venv is the offered step */
  | 'pip-pin'
  /** native Windows past TF 2.10, or WSL without its GPU path */
  | 'platform'
  /** a Python outside TF's range */
  | 'python'
  /** the MSVC runtime: Microsoft's installer */
  | 'runtime'
  /** a toolkit folder this user cannot read */
  | 'permissions'
  /** a stale copy no load order can beat (conda's Library\\bin on Windows): its package manager's command */
  | 'package-manager';

export type RemedyRow = { finding: string; remedy: RemedyId; stop?: never } | { finding: string; stop: StopId; remedy?: never };

/** Finding ids are `kind` or `kind:detail`; a row names the kind (library:<name> rows name the library). */
export const REMEDY_TABLE: readonly RemedyRow[] = [
  { finding: 'copy-interrupted', remedy: 'settle-copy' },
  { finding: 'load-order', remedy: 'load-order' },
  { finding: 'cudnn', remedy: 'import-cudnn' },
  { finding: 'library:cudnn', remedy: 'import-cudnn' },
  { finding: 'libraries:cudnn', remedy: 'import-cudnn' },
  { finding: 'zlibwapi', stop: 'runtime' },
  { finding: 'toolkit', remedy: 'install-toolkit' },
  { finding: 'toolkit-complete', remedy: 'install-toolkit' },
  { finding: 'libraries:toolkit', remedy: 'install-toolkit' },
  { finding: 'library', remedy: 'install-toolkit' },
  { finding: 'wheel-loader-path', remedy: 'wheel-loader-path' },
  { finding: 'pip-cuda', remedy: 'wheel-loader-path' },
  { finding: 'pip-pin', stop: 'pip-pin' },
  { finding: 'conda-driver', stop: 'driver' },
  { finding: 'driver', stop: 'driver' },
  { finding: 'libraries:driver', stop: 'driver' },
  { finding: 'library:cuda', stop: 'driver' },
  { finding: 'gpu', stop: 'gpu' },
  { finding: 'compute-capability', stop: 'gpu' },
  { finding: 'windows-native', stop: 'platform' },
  { finding: 'wsl', stop: 'platform' },
  { finding: 'python', stop: 'python' },
  { finding: 'msvc-runtime', stop: 'runtime' },
  { finding: 'toolkit-unreadable', stop: 'permissions' },
];

/** The row for a finding id: the most specific match (library:cudnn before library). */
export function rowFor(id: string): RemedyRow | undefined {
  const parts = id.split(':');
  for (let n = parts.length; n >= 1; n--) {
    const key = parts.slice(0, n).join(':');
    const row = REMEDY_TABLE.find((r) => r.finding === key);
    if (row) return row;
  }
  return undefined;
}

/**
 * Stops that end the run before anything changes (fixing anything else first would be wasted or
 * wrong). The others name the user's action and let the remedies run: a Python outside TF's range
 * does not make a CUDA repair pointless.
 */
export const BLOCKING_STOPS: ReadonlySet<StopId> = new Set<StopId>(['driver', 'gpu', 'pip-pin', 'platform', 'package-manager']);
