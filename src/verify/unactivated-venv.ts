// The environment a venv's python gets as the user will run it (#39.5): from a shell opened now
// (src/env/new-shell.ts), without `source DIR/bin/activate` — so no VIRTUAL_ENV, and nothing of the
// venv's on PATH or LD_LIBRARY_PATH. Where cudawiz itself runs in that venv's activated shell, what the
// activation put there is taken off again, so the verdict is the one cron, an IDE or
// `venv/bin/python train.py` gets. The user's own variables stay as they are.
import path from 'node:path';
import { newShellHost } from '../env/new-shell.js';
import type { Host } from '../host.js';
import { pathListSeparator, splitPathList, venvBinDir, type Env } from '../platform.js';

export async function unactivatedVenvEnv(host: Host, venvDir: string, wheelDirs: readonly string[]): Promise<Env> {
  const env: Record<string, string | undefined> = { ...(await newShellHost(host)).host.env };
  const activatedHere = env.VIRTUAL_ENV !== undefined && path.resolve(env.VIRTUAL_ENV) === path.resolve(venvDir);
  delete env.VIRTUAL_ENV;
  if (!activatedHere) return env;
  const drop = (name: string, dirs: readonly string[]) => {
    const gone = new Set(dirs.map((d) => path.resolve(d)));
    const kept = splitPathList(host.os, env[name]).filter((d) => !gone.has(path.resolve(d)));
    if (kept.length) env[name] = kept.join(pathListSeparator(host.os));
    else delete env[name];
  };
  drop('PATH', [venvBinDir(host.os, venvDir)]);
  drop('LD_LIBRARY_PATH', wheelDirs);
  return env;
}
