// Is a toolkit directory complete, partial or absent? Answered from the two files TensorFlow and
// the user rely on: nvcc and the CUDA runtime library under their real names.
import { cliText } from '../i18n/cli.js';
import { cudaText as T } from '../i18n/cuda.js';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { cudartFileFor } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { executableName, pathFor, toolkitLibraryDir, toolkitSubdirs, type OsName } from '../platform.js';

export interface ToolkitState {
  os: OsName;
  dir: string;
  state: 'absent' | 'partial' | 'complete';
  /** The proof files looked for, as absolute paths. */
  expected: string[];
  /** Those of `expected` that are not there. */
  missing: string[];
  /** Top-level entries, so a partial tree can be described. */
  entries: string[];
}

export function toolkitProofFiles(os: OsName, catalog: Catalog, dir: string, version: string): string[] {
  const p = pathFor(os);
  return [p.join(dir, toolkitSubdirs(os).bin, executableName(os, 'nvcc')), p.join(toolkitLibraryDir(os, dir), cudartFileFor(catalog, os, version))];
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

export async function toolkitState(os: OsName, catalog: Catalog, dir: string, version: string): Promise<ToolkitState> {
  const expected = toolkitProofFiles(os, catalog, dir, version);
  const entries = await readdir(dir).then(
    (e) => e.sort(),
    () => undefined,
  );
  if (entries === undefined) return { os, dir, state: 'absent', expected, missing: expected, entries: [] };
  const present = await Promise.all(expected.map(isFile));
  const missing = expected.filter((_, i) => !present[i]);
  return { os, dir, state: missing.length === 0 ? 'complete' : 'partial', expected, missing, entries };
}

/** One line for a person: "absent", or what a partial tree holds and lacks. */
export function describeToolkitState(s: ToolkitState): string {
  if (s.state === 'absent') return T.stateAbsent(s.dir);
  if (s.state === 'complete') return T.stateComplete(s.dir);
  const holds = s.entries.length ? cliText.list([...s.entries.slice(0, 8), ...(s.entries.length > 8 ? ['…'] : [])]) : undefined;
  return T.statePartial(s.dir, holds, s.missing.map((m) => pathFor(s.os).basename(m)).join(T.and));
}

/** Files and bytes under a dir: the hang watchdog's sign that a quiet installer is still copying. */
export async function treeSize(dir: string): Promise<number> {
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else total += 1 + (await stat(full).then((s) => s.size, () => 0));
    }
  };
  await walk(dir);
  return total;
}
