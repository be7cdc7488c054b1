// Every kind of finding the doctor makes, and what a run does about it: the one registry. A finding's
// id is its kind, or `kind:detail` (a path, a library); each kind is a remedy (the smallest step that
// fixes that cause), a stop (what the user must do, and why cudawiz will not) or listed (its own fix,
// no step). Whether it blocks a setup's preflight, and a stop's words, are said here too. Repair's
// table (src/plan/remedies/table.ts), the preflight's blockers (./blockers.ts) and the stops that end a
// repair before anything changes derive from it; `finding()` takes only ids of a kind listed here, so
// a check that makes a new kind does not compile until it has its entry.
import type { remediesText } from '../i18n/remedies.js';

/** The steps repair can take (their step factories: src/plan/remedies/records.ts). */
export type RemedyId =
  /** finish or roll back a cuDNN copy a killed run left half-done */
  | 'settle-copy'
  /**
   * a stale copy its package manager owns (conda, pip, apt): that manager's command, journalled for
   * rollback — only with the user's consent (--package-manager yes, or a yes in the wizard); taken
   * by the plan in place of the row's own remedy or stop for that finding, never from the table alone
   */
  | 'package-manager'
  /** no toolkit TF can load (not even one of its CUDA major, minor-version compatible): install TF's */
  | 'install-toolkit'
  /** files of a toolkit the redist route made are missing or changed: fetch and unpack those components again */
  | 'redist-files'
  /** cuDNN missing or too old in the toolkit TF uses: fetch and import cuDNN only */
  | 'import-cudnn'
  /** make the right copies win for new shells: a per-user env script, no download */
  | 'load-order'
  /** a venv's nvidia-* wheel folders off the loader path: the marked block in its activate script */
  | 'wheel-loader-path';

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

/** A sentence of repair's string table (a key whose value is a plain string, in every language). */
type RemedyWords = { [K in keyof typeof remediesText]: (typeof remediesText)[K] extends string ? K : never }[keyof typeof remediesText];

/**
 * Each stop: whether it ends a repair before anything changes (fixing anything else first would be
 * wasted or wrong), whether it ends every new setup too, whatever the TF or route (`blocksEverySetup`:
 * the driver, the GPU, the platform — the stops of the kinds every preflight checks, `blocksSetup`;
 * another framework's pin is not one: a new environment is the way out), and why cudawiz will not take
 * the action (an i18n key of remediesText). A stop that does not block names the user's action and lets
 * the remedies run: a Python outside TF's range does not make a CUDA repair pointless.
 */
export const STOPS: Record<StopId, { blocksRepair: boolean; blocksEverySetup?: true; why: RemedyWords }> = {
  driver: { blocksRepair: true, blocksEverySetup: true, why: 'stopDriverWhy' },
  gpu: { blocksRepair: true, blocksEverySetup: true, why: 'stopOtherWhy' },
  'pip-pin': { blocksRepair: true, why: 'stopPinWhy' },
  platform: { blocksRepair: true, blocksEverySetup: true, why: 'stopOtherWhy' },
  'package-manager': { blocksRepair: true, why: 'stopCondaWhy' },
  python: { blocksRepair: false, why: 'stopOtherWhy' },
  runtime: { blocksRepair: false, why: 'stopOtherWhy' },
  permissions: { blocksRepair: false, why: 'stopOtherWhy' },
};

/** What a run does about a failing finding of a kind. A warning is always listed with its fix. */
export type KindAction = { remedy: RemedyId } | { stop: StopId } | { listed: true };

export interface KindEntry {
  /** The remedy, the stop, or neither (listed with the finding's own fix). */
  does: KindAction;
  /** Every route's preflight checks it before any big download (matched on the whole id: `wsl`, not `wsl:…`). */
  blocksSetup?: true;
  /** Detailed ids that block only the routes that use pip's wheels (WSL2's path to the Windows driver). */
  blocksWheels?: readonly string[];
}

const remedy = (r: RemedyId, more: Partial<KindEntry> = {}): KindEntry => ({ does: { remedy: r }, ...more });
const stop = (s: StopId, more: Partial<KindEntry> = {}): KindEntry => ({ does: { stop: s }, ...more });
const listed: KindEntry = { does: { listed: true } };

/**
 * The registry, in the order repair's table lists them. `library:<name>` rows name the library;
 * `library` is every other library of TF's toolkit. A kind the doctor never fails on (a pass, a note)
 * is listed all the same: a check that starts failing on it has its answer already.
 */
export const FINDING_KINDS = {
  'copy-interrupted': remedy('settle-copy'),
  'copy-leftovers': listed,
  'load-order': remedy('load-order'),
  cudnn: remedy('import-cudnn'),
  'library:cudnn': remedy('import-cudnn'),
  'libraries:cudnn': remedy('import-cudnn'),
  zlibwapi: stop('runtime'),
  toolkit: remedy('install-toolkit'),
  'toolkit-complete': remedy('install-toolkit'),
  'libraries:toolkit': remedy('install-toolkit'),
  library: remedy('install-toolkit'),
  'redist-files': remedy('redist-files'),
  'wheel-loader-path': remedy('wheel-loader-path'),
  'pip-cuda': remedy('wheel-loader-path'),
  'pip-pin': stop('pip-pin'),
  'conda-driver': stop('driver'),
  driver: stop('driver', { blocksSetup: true }),
  'libraries:driver': stop('driver'),
  'library:cuda': stop('driver'),
  gpu: stop('gpu', { blocksSetup: true }),
  'compute-capability': stop('gpu', { blocksSetup: true }),
  'windows-native': stop('platform', { blocksSetup: true }),
  wsl: stop('platform', { blocksSetup: true, blocksWheels: ['wsl:no-wsl-libcuda', 'wsl:windows-too-old'] }),
  python: stop('python'),
  'msvc-runtime': stop('runtime'),
  'toolkit-unreadable': stop('permissions'),
  'cuda-runtime': listed,
  'tf-target': listed,
  tensorflow: listed,
  conda: listed,
  'conda-shadows': listed,
  libraries: listed,
} satisfies Record<string, KindEntry>;

export type FindingKind = keyof typeof FINDING_KINDS;

/** A finding's id: its kind, or its kind and a detail (`library:cublas`, `load-order:/usr/local/cuda-11.8/lib64`). */
export type FindingId = FindingKind | `${FindingKind}:${string}`;

const entries = Object.entries(FINDING_KINDS) as [FindingKind, KindEntry][];

/** The kind of a finding id: the most specific match (library:cudnn before library). */
export function kindOf(id: string): FindingKind | undefined {
  const parts = id.split(':');
  for (let n = parts.length; n >= 1; n--) {
    const key = parts.slice(0, n).join(':');
    if (key in FINDING_KINDS) return key as FindingKind;
  }
  return undefined;
}

export const kindEntry = (kind: FindingKind): KindEntry => FINDING_KINDS[kind];

/** The finding ids a setup's preflight checks: every route's, and with `wheels` those the pip route adds. */
export function setupBlockers(wheels = false): string[] {
  const every = entries.filter(([, e]) => e.blocksSetup).map(([k]) => k);
  return wheels ? [...every, ...entries.flatMap(([, e]) => e.blocksWheels ?? [])] : every;
}

/** The kinds whose remedy, stop or listing is said by this registry (every kind is). */
export const FINDING_KIND_NAMES: readonly FindingKind[] = entries.map(([k]) => k);
