// The findings that stop a setup before any big download: no GPU TF can use, a driver too old for
// the CUDA TF needs, a compute capability TF has no kernels for, WSL 1, native Windows past TF 2.10.
// Said once, in the finding-kind registry (`blocksSetup`); every route's preflight checks the same ids
// (the pip route adds what its wheels need in WSL2: the Windows driver's libcuda, a Windows new enough
// to pass the GPU through).
import type { Finding } from './finding.js';
import { setupBlockers } from './finding-kinds.js';

export const SETUP_BLOCKERS: readonly string[] = setupBlockers();

export const WHEEL_BLOCKERS: readonly string[] = setupBlockers(true);

/** Of the doctor's findings, those a preflight says (`shown`: the blocker checks that ran) and those that stop it (`blocking`). */
export function blockersIn(findings: readonly Finding[], blockers: readonly string[]): { shown: Finding[]; blocking: Finding[] } {
  const shown = findings.filter((f) => blockers.includes(f.id) && f.status !== 'skip');
  return { shown, blocking: shown.filter((f) => f.status === 'fail') };
}
