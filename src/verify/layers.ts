// Verification is layered: each layer is a check with evidence, so a failure says exactly which
// layer broke (files, library resolution, the compiler, TensorFlow itself).
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { safetyText } from '../i18n/safety.js';
import { verifyText } from '../i18n/verify.js';
import { toolkitLibraryDir, type OsName } from '../platform.js';

import type { Status } from '../status.js';

export type LayerStatus = Extract<Status, 'pass' | 'fail' | 'skip'>;

export interface LayerResult {
  id: 'manifest' | 'libraries' | 'nvcc' | 'tensorflow';
  title: string;
  status: LayerStatus;
  evidence: string[];
  fix?: string;
}

/** A library file name: a shared object (`libcudnn.so.7`), a DLL, an import or static library. */
export const isLibraryName = (name: string) => /\.(so(\.\d+)*|dll|lib|a|dylib)$/i.test(name);

/**
 * Each library file resolves (through its links) to a real, non-empty file of its own name:
 * `libcudnn.so.7` → `libcudnn.so.7.6.5` is right; a self-loop, a link to nothing, a 0-byte file,
 * or `libcudart.so.10.1` → `libcudnn.so.7` (another library) is not. Files that are absent are
 * not this check's business (the loader layer reports those).
 */
export async function checkLibraryFiles(files: readonly string[]): Promise<{ file: string; problem: string }[]> {
  const out: { file: string; problem: string }[] = [];
  for (const file of files) {
    const problem = await libraryProblem(file);
    if (problem) out.push({ file, problem });
  }
  return out;
}

/** NVIDIA's 11.x runtime: libcudart.so.11.0 → libcudart.so.11.8.89, the same library and major under a fixed soname. */
function sameSonameMajor(name: string, got: string): boolean {
  const a = /^(.+\.so)\.(\d+)(\.|$)/.exec(name);
  const b = /^(.+\.so)\.(\d+)(\.|$)/.exec(got);
  return Boolean(a && b && a[1] === b[1] && a[2] === b[2]);
}

async function libraryProblem(file: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return safetyText.libraryLoop(file);
    if (code === 'ENOENT') return safetyText.libraryMissing(file);
    return verifyText.libraryUnreadable(file, code ?? (error as Error).message);
  }
  const s = await stat(real);
  if (!s.isFile()) return safetyText.libraryNotFile(file);
  if (s.size === 0) return safetyText.libraryEmpty(file);
  const name = path.basename(file).toLowerCase();
  const got = path.basename(real).toLowerCase();
  if (got !== name && !got.startsWith(`${name}.`) && !sameSonameMajor(name, got)) return safetyText.libraryOther(file, real);
  return undefined;
}

/** The problems of TF's library files that sit in the toolkit's library folder (absent ones are skipped). */
export async function toolkitLibraryProblems(os: OsName, toolkitDir: string, files: readonly string[]): Promise<{ file: string; problem: string }[]> {
  const dir = toolkitLibraryDir(os, toolkitDir);
  const present: string[] = [];
  for (const f of files) {
    const p = path.join(dir, f);
    if (await lstat(p).then(() => true, () => false)) present.push(p);
  }
  return checkLibraryFiles(present);
}
