// The version picker's list: one entry per TensorFlow minor line known for an OS, newest first, each
// saying what it needs and whether this machine (its OS, its GPU) can run it.
import { catalogText } from '../i18n/catalog.js';
import type { OsName } from '../platform.js';
import { compareDotted, majorMinor } from '../version.js';
import { gpuSupport, type GpuVerdict } from './gpu-support.js';
import { pythonRange } from './queries.js';
import type { Catalog, TfRow } from './schema.js';

export interface TfChoice {
  /** The newest row of the minor line, e.g. "2.10.0". */
  version: string;
  cuda: string;
  cudnn: string;
  /** e.g. "3.5–3.8". */
  python: string;
  /** Why this line cannot be picked here (no native Windows GPU build, GPU unsupported). */
  blocked?: string;
  /** Something to know before picking it (a slow first-start JIT, an unknown architecture list). */
  note?: string;
  /** The GPU verdict, when a GPU was given. */
  verdict?: GpuVerdict;
}

/** The newest row of each minor line, newest line first. */
function newestRowPerLine(rows: readonly TfRow[]): TfRow[] {
  const byLine = new Map<string, TfRow>();
  for (const r of rows) {
    const line = majorMinor(r.version);
    const seen = byLine.get(line);
    if (!seen || compareDotted(r.version, seen.version) > 0) byLine.set(line, r);
  }
  return [...byLine.values()].sort((a, b) => compareDotted(b.version, a.version));
}

export function tfChoicesFor(catalog: Catalog, os: OsName, gpu?: { computeCapability: string }): TfChoice[] {
  const own = new Set(catalog.tensorflow[os].map((r) => majorMinor(r.version)));
  // On Windows the lines after the last native GPU release exist only under WSL2 (Linux's table).
  const wslOnly = os === 'windows' ? catalog.tensorflow.linux.filter((r) => !own.has(majorMinor(r.version))) : [];
  const rows = newestRowPerLine([...catalog.tensorflow[os], ...wslOnly]);
  return rows.map((row) => {
    const line = majorMinor(row.version);
    const { min, max } = pythonRange(row);
    const choice: TfChoice = { version: row.version, cuda: row.cuda, cudnn: row.cudnn, python: min === max ? min : `${min}–${max}` };
    if (!own.has(line)) {
      choice.blocked = catalogText.noNativeWindowsAfter(catalog.tensorflow.windowsNativeGpuLast, line);
      return choice;
    }
    if (!gpu) return choice;
    const s = gpuSupport(catalog, gpu, { tf: row.version, cuda: row.cuda, os });
    choice.verdict = s.verdict;
    if (s.verdict === 'unsupported') choice.blocked = s.reason;
    else if (s.verdict !== 'native') choice.note = s.reason;
    return choice;
  });
}

/** The installed TF's line when it can run here; else the newest line that runs natively (failing that, through a JIT; failing that, any). */
export function defaultTfChoice(choices: readonly TfChoice[], installedTf?: string): TfChoice | undefined {
  const runnable = choices.filter((c) => !c.blocked);
  if (installedTf) {
    const mine = runnable.find((c) => majorMinor(c.version) === majorMinor(installedTf));
    if (mine) return mine;
  }
  return runnable.find((c) => c.verdict === undefined || c.verdict === 'native') ?? runnable.find((c) => c.verdict === 'ptx-jit') ?? runnable[0];
}
