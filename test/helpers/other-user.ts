// A test that runs a program as another user (`nobody`, when the tests run as root) gives that user
// what it needs from a place it can read: a copy of the built CLI (dist/ has no runtime dependencies)
// and of the fixtures it reads, in a 0755 temp folder made once per test file. The checkout itself may
// sit under a folder only its owner can enter (/root, any `mktemp -d`), and its permissions are the
// user's: a test never loosens them.
import { execFileSync } from 'node:child_process';
import { chmod, cp, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';
import { repoRoot } from './cli.js';
import { tempDir } from './tmp.js';

function can(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Root can become `nobody` here: setpriv is installed and the user exists. */
export const canSwitchToNobody = runningAsRoot && can('setpriv', ['--version']) && can('getent', ['passwd', String(NOBODY)]);

/** Who the "other user" runs are, said in a test's name so a run as the tester is never silent. */
export const otherUserLabel = canSwitchToNobody
  ? 'as nobody'
  : runningAsRoot
    ? 'as root (no setpriv or no user nobody here: the checks run as root)'
    : 'as this user, against read-only folders';

/** argv that runs `command` as the other user: through setpriv when root can switch, as is otherwise. */
export function asOtherUser(command: string[]): string[] {
  return canSwitchToNobody ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command] : command;
}

async function openUp(p: string): Promise<void> {
  const s = await stat(p);
  if (s.isDirectory()) {
    await chmod(p, 0o755);
    for (const name of await readdir(p)) await openUp(path.join(p, name));
  } else {
    await chmod(p, s.mode & 0o100 ? 0o755 : 0o644);
  }
}

let copy: Promise<string> | undefined;
const copied = new Set<string>();

/**
 * The repo paths given (relative to the checkout), copied into one 0755 temp folder that every user
 * can read; returns that folder, which mirrors the checkout's layout (`<copy>/dist/cli.js`).
 */
export async function readableCopy(...relPaths: string[]): Promise<string> {
  copy ??= tempDir('cw-readable-').then(async (d) => {
    await chmod(d, 0o755);
    return d;
  });
  const root = await copy;
  for (const rel of relPaths) {
    if (copied.has(rel)) continue;
    await cp(path.join(repoRoot, rel), path.join(root, rel), { recursive: true });
    await openUp(path.join(root, rel.split('/')[0]!));
    copied.add(rel);
  }
  return root;
}

/** The built CLI where the other user can run it. */
export async function otherUserCli(): Promise<string> {
  return path.join(await readableCopy('dist'), 'dist', 'cli.js');
}
