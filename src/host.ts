// The edges every service reaches the machine through: a command runner and a description of the
// host. Tests pass fixtures for both; production passes realHost().
import os from 'node:os';
import { hostOs, type Env, type OsName } from './platform.js';
import type { CommandRunner } from './command-result.js';
import { runProgram } from './trust/run.js';

export type { CommandResult, CommandRunner, RunOptions } from './command-result.js';

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
