// The runfile unpacks itself into --tmpdir before copying; a small /tmp (tmpfs) fills up midway
// ("No space left on device", compiler-explorer/infra#286). Pick a scratch dir with room first.
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { OsName } from '../platform.js';
import { nearestExistingDir } from './elevation.js';

/**
 * Room the scratch folder needs: the verified private copy of the installer that is run (1×, see
 * verified-exec.ts) plus its unpacked payload — an assumption of 3× the runfile (the payload is
 * compressed, then copied).
 */
export function scratchSpaceNeeded(installerBytes: number): number {
  return installerBytes * 4;
}

export interface ScratchChoice {
  dir: string;
  freeBytes: number;
}

/** The first candidate (created later if missing) whose disk has `neededBytes` free; undefined when none has. */
export async function scratchDirWithRoom(os: OsName, candidates: string[], neededBytes: number): Promise<ScratchChoice | undefined> {
  for (const dir of candidates) {
    const existing = await nearestExistingDir(os, path.resolve(dir));
    const fs = await statfs(existing).catch(() => undefined);
    if (!fs) continue;
    const freeBytes = fs.bavail * fs.bsize;
    if (freeBytes >= neededBytes) return { dir, freeBytes };
  }
  return undefined;
}
