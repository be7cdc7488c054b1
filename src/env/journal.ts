// The record of every environment change cudawiz made, so rollback can undo exactly those.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EnvJournal } from './types.js';

export async function readEnvJournal(file: string): Promise<EnvJournal> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { format: 1, entries: [] };
  }
  const parsed = JSON.parse(text) as EnvJournal;
  if (parsed?.format !== 1 || !Array.isArray(parsed.entries)) throw new Error(`${file} is not a cudawiz environment journal`);
  return parsed;
}

/** Written to a temp file and renamed, so an interrupted write never leaves half a journal. */
export async function writeEnvJournal(file: string, journal: EnvJournal): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(journal, null, 2)}\n`);
  await rename(tmp, file);
}
