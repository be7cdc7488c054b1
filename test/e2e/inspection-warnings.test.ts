// What the archive inspection noticed without refusing reaches the user: a cuDNN tgz whose file name
// says 7.6.4 while its header says 7.6.5 is copied (the header wins) and the step says so.
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt } from '../helpers/cli.js';
import { laptop as makeLaptop } from '../helpers/laptop.js';
import type { NvidiaMirror } from '../helpers/mirror.js';

let mirror: NvidiaMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

describe('inspection warnings', () => {
  it('are shown when the file name and the version header disagree', async () => {
    const m = await makeLaptop();
    mirror = m.mirror;
    const renamed = path.join(path.dirname(m.archive), 'cudnn-10.1-linux-x64-v7.6.4.38.tgz');
    await rename(m.archive, renamed);
    const r = await runBuilt(['install', '--tf', '2.3', '--yes', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no', '--cudnn-archive', renamed], { env: m.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('warning: The file name says cuDNN 7.6.4.38 but its header says 7.6.5; the header wins.');
  });
});
