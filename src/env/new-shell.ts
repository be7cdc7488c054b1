// What a new shell of this user gets: the environment an interactive shell has after its rc file
// ran, started from this one without the loader path (a new terminal does not inherit what was
// exported by hand in this one). The doctor's probe run on it is what "a new shell finds" means for
// the repair's proof and for verify: the same probe and verdicts as `cudawiz doctor`, not a second model.
import path from 'node:path';
import type { Host } from '../host.js';
import type { Env } from '../platform.js';

/** Variables a new terminal gets from its rc file, not from the shell that started cudawiz. */
const FROM_RC = ['LD_LIBRARY_PATH'];

export interface NewShell {
  /** The shell that was asked: bash, zsh or fish (bash when $SHELL is another). */
  shell: string;
  env?: Env;
  /** Why it could not be asked (no such shell, an rc file that failed or hung). */
  error?: string;
}

export async function newShellEnvironment(host: Host): Promise<NewShell> {
  if (host.os !== 'linux') return { shell: '', env: host.env };
  const named = path.posix.basename(host.env.SHELL ?? '');
  const shell = ['bash', 'zsh', 'fish'].includes(named) ? named : 'bash';
  const start: Record<string, string> = {};
  for (const [k, v] of Object.entries(host.env)) if (v !== undefined && !FROM_RC.includes(k)) start[k] = v;
  const r = await host.run(shell, ['-i', '-c', 'env -0'], { env: start, timeoutMs: 30_000 });
  if (r.exitCode !== 0) return { shell, error: r.failure ?? (r.stderr.trim().split('\n').pop() || `exit ${r.exitCode}`) };
  const env: Record<string, string> = {};
  for (const kv of r.stdout.split('\0')) {
    const i = kv.indexOf('=');
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return { shell, env };
}
