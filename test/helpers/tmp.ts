// Real temporary directories, removed after each test file.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

export async function tempDir(prefix = 'cudawiz-'): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}
