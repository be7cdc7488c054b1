// The edges every service reaches the machine through: a command runner and a description of the
// host. Tests pass fixtures for both; production passes realHost().
import os from 'node:os';
import { hostOs, type Env, type OsName } from './platform.js';
import { runProgram, type ProgramRefusal } from './trust/run.js';

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

export interface Host {
  os: OsName;
  env: Env;
  home: string;
  run: CommandRunner;
  /** A host directory standing in for the machine's filesystem root (fixture machines); absent in production. */
  fsRoot?: string;
}

/** Runs a real child process, located and checked by the one rule (src/trust/run.ts); never throws. */
export const runCommand: CommandRunner = (file, args, options = {}) => runProgram(file, args, options);

/** The real machine. Children see the host's env unless a call passes its own. */
export function realHost(env: Env = process.env): Host {
  return { os: hostOs(), env, home: os.homedir(), run: (file, args, options = {}) => runCommand(file, args, { ...options, env: options.env ?? env }) };
}
