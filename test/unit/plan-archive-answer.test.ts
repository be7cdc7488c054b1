// The cuDNN question in a run: whichever comes first answers it, the path the user types or the archive
// a browser finishes saving into Downloads; the watch on Downloads ends with the question.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputNeed } from '../../src/plan/events.js';
import { typedOrFoundInDownloads } from '../../src/plan/archive-answer.js';
import { tempDir } from '../helpers/tmp.js';

const FILE = 'cudnn-10.1-linux-x64-v7.6.5.32.tgz';
const need = (downloadsDir: string): InputNeed => ({ kind: 'cudnn-archive', file: FILE, page: 'https://developer.nvidia.com/rdp/cudnn-archive', downloadsDir, why: 'TensorFlow 2.3 loads libcudnn.so.7' });

describe('typedOrFoundInDownloads', () => {
  it('answers with the archive when it appears in Downloads while nobody types', async () => {
    const downloads = await tempDir('cudawiz-answer-');
    const run = new AbortController();
    let asked = 0;
    const ask = typedOrFoundInDownloads(
      () => {
        asked++;
        return new Promise<string | undefined>(() => undefined); // the user never types
      },
      run.signal,
      { stableMs: 200 },
    )!;
    const answer = ask(need(downloads), 'obtain-cudnn');
    await writeFile(path.join(downloads, FILE), Buffer.alloc(4096, 1));
    expect(await answer).toBe(path.join(downloads, FILE));
    expect(asked).toBe(1);
  });

  it('answers with what the user typed when that comes first', async () => {
    const downloads = await tempDir('cudawiz-answer-');
    const run = new AbortController();
    const ask = typedOrFoundInDownloads(async () => '/elsewhere/cudnn.tgz', run.signal)!;
    expect(await ask(need(downloads), 'obtain-cudnn')).toBe('/elsewhere/cudnn.tgz');
  });

  it('leaves other questions to the asker, and without an asker there is nothing to race', async () => {
    const run = new AbortController();
    const ask = typedOrFoundInDownloads(async (n) => (n.kind === 'confirm' ? 'yes' : undefined), run.signal)!;
    expect(await ask({ kind: 'confirm', question: 'Change ~/.bashrc?', flag: '--configure-env yes' }, 'configure-env')).toBe('yes');
    expect(typedOrFoundInDownloads(undefined, run.signal)).toBeUndefined();
  });

  it('gives the answer back to the user when the Downloads folder cannot be watched', async () => {
    const run = new AbortController();
    const ask = typedOrFoundInDownloads(async () => '/typed/cudnn.tgz', run.signal)!;
    expect(await ask(need('/nonexistent/cudawiz-downloads'), 'obtain-cudnn')).toBe('/typed/cudnn.tgz');
  });
});
