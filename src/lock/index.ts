// One cudawiz at a time per toolkit (and per download in the cache): an exclusive lock file next to
// what it guards, holding the owner's pid. A second run is told who holds it (exit 3); a lock left by
// a run that died (SIGKILL, power cut) is taken over with a notice.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { describeFsError } from '../fs-errors.js';
import { fetchText } from '../i18n/fetch.js';
import { addName, moveInto, writeNewFile } from '../trust/write.js';

export interface Lock {
  /** The lock file; undefined when the folder could not hold one (a run that cannot write there cannot change it either). */
  file?: string;
  release(): Promise<void>;
}

export interface LockOptions {
  onNotice?: (line: string) => void;
}

interface Holder {
  pid: number;
  host: string;
  /** /proc/<pid>/stat start time, so a reused pid is not mistaken for the owner. */
  startTicks?: string;
  token: string;
  started: string;
}

/** `/usr/local/cuda-10.1` → `/usr/local/.cuda-10.1.cudawiz-lock`: hidden, beside what it guards. */
export function lockFileFor(target: string): string {
  const abs = path.resolve(target);
  return path.join(path.dirname(abs), `.${path.basename(abs)}.cudawiz-lock`);
}

function startTicks(pid: number): string | undefined {
  try {
    // Fields after "(comm)": state is field 3, starttime field 22.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[19];
  } catch {
    return undefined;
  }
}

function holderAlive(h: Holder): boolean {
  if (h.host !== os.hostname()) return true; // another machine's process cannot be checked from here
  try {
    process.kill(h.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const ticks = startTicks(h.pid);
  return !(h.startTicks && ticks && ticks !== h.startTicks);
}

function parseHolder(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(h.pid) && (h.pid as number) > 0 && typeof h.host === 'string' && typeof h.token === 'string') return h as Holder;
  } catch {
    // garbage: nobody can be holding it
  }
  return undefined;
}

const CANNOT_HOLD = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

export class LockedError extends CudawizError {}

/** Takes the lock on `target` or throws LockedError (exit 3). Release it in a finally. */
export async function acquireLock(target: string, options: LockOptions = {}): Promise<Lock> {
  const file = lockFileFor(target);
  const me: Holder = { pid: process.pid, host: os.hostname(), startTicks: startTicks(process.pid), token: randomBytes(8).toString('hex'), started: new Date().toISOString() };
  const mine = JSON.stringify(me);
  const tmp = `${file}.${process.pid}.${me.token}`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeNewFile(tmp, mine, 0o644);
  } catch (error) {
    if (CANNOT_HOLD.has((error as NodeJS.ErrnoException).code ?? '')) return { release: async () => undefined };
    await unlink(tmp).catch(() => undefined);
    throw describeFsError(error, { path: file });
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        // link() fails if the name exists: the lock appears whole, or not at all.
        await addName(tmp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw error;
      }
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue; // released just now
      const holder = parseHolder(text);
      if (holder && holderAlive(holder)) {
        const dir = path.resolve(target);
        throw new LockedError(holder.host === me.host ? fetchText.locked(holder.pid, dir) : fetchText.lockedElsewhere(holder.pid, holder.host, dir), {
          code: 'locked',
          exitCode: EXIT.needsUser,
          fix: fetchText.lockedFix(file),
          details: { pid: holder.pid, host: holder.host, dir, lockFile: file },
        });
      }
      // Stale: move it aside, and make sure what was moved is the stale one (another run may have won the race).
      const aside = `${file}.stale.${me.token}`;
      if (await moveInto(file, aside).then(() => true, () => false)) {
        const moved = await readFile(aside, 'utf8').catch(() => '');
        if (moved !== text) {
          await addName(aside, file).catch(() => undefined);
          await unlink(aside).catch(() => undefined);
          continue;
        }
        await unlink(aside).catch(() => undefined);
        if (holder) options.onNotice?.(fetchText.staleLock(holder.pid, path.resolve(target)));
      }
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  const releaseSync = () => {
    try {
      if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
    } catch {
      // gone already
    }
  };
  process.once('exit', releaseSync);
  return {
    file,
    release: async () => {
      process.removeListener('exit', releaseSync);
      releaseSync();
    },
  };
}

/** Runs `work` holding the lock on `target`. */
export async function withLock<T>(target: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(target, options);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
