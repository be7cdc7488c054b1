// What running a program gives back, and how it is asked for: the types the host's command runner
// (src/host.ts) and the one way to run a program (src/trust/run.ts) share. Types only, below both, so
// neither imports the other for them.
import type { Env } from './platform.js';

/** Why a program may not run, and what the user can do instead. */
export interface ProgramRefusal {
  program: string;
  reason: string;
  fix: string;
}

export interface CommandResult {
  /** null when the command could not be started at all (not found, not executable). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it could not start or was stopped (ENOENT, timed out …). */
  failure?: string;
  /** Set when cudawiz would not run the program (as root, one other users can change): why, and what to do. */
  refused?: ProgramRefusal;
}

export interface RunOptions {
  env?: Env;
  cwd?: string;
  timeoutMs?: number;
}

export type CommandRunner = (file: string, args: readonly string[], options?: RunOptions) => Promise<CommandResult>;
