// The edges every service reaches the machine through: a command runner and a description of the
// host. Tests pass fixtures for both; production passes realHost().
import os from 'node:os';
import { hostOs, type Env, type OsName } from './platform.js';

export interface CommandResult {
  /** null when the command could not be started at all (not found, not executable). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it could not start or was stopped (ENOENT, timed out …). */
  failure?: string;
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

/** Runs a real child process; never throws. */
export const runCommand: CommandRunner = async (file, args, options = {}) => {
  try {
    // Loaded on first use: execa costs start-up time that commands which run nothing should not pay.
    const { execa } = await import('execa');
    const r = await execa(file, [...args], {
      env: options.env as Record<string, string> | undefined,
      extendEnv: options.env === undefined,
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 20_000,
      reject: false,
      stdin: 'ignore',
      windowsHide: true,
    });
    if (r.failed && r.exitCode === undefined) {
      return { exitCode: null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), failure: r.timedOut ? 'timed out' : (r.code ?? r.shortMessage) };
    }
    return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), failure: r.timedOut ? 'timed out' : undefined };
  } catch (error) {
    return { exitCode: null, stdout: '', stderr: '', failure: (error as Error).message };
  }
};

/** The real machine. Children see the host's env unless a call passes its own. */
export function realHost(env: Env = process.env): Host {
  return { os: hostOs(), env, home: os.homedir(), run: (file, args, options = {}) => runCommand(file, args, { ...options, env: options.env ?? env }) };
}
