// Start-up is paid on every run, so the entry loads nothing it does not need: `--version` is answered
// by dist/cli.js alone, and each command loads only its own chunks. (bench/startup.mjs times it.)
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('the built entry, dist/cli.js', () => {
  it('answers --version on its own, without any chunk, and needs them for everything else', async () => {
    const dir = await tempDir('cudawiz-entry-');
    await mkdir(path.join(dir, 'dist'));
    const lone = path.join(dir, 'dist', 'cli.js');
    await copyFile(builtCli, lone);
    await copyFile(path.join(path.dirname(builtCli), '..', 'package.json'), path.join(dir, 'package.json'));
    const version = await execa(process.execPath, [lone, '--version'], { reject: false });
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await execa(process.execPath, [lone, '--help'], { reject: false });
    expect(help.exitCode).not.toBe(0);
    expect(help.stderr).toContain('chunks');
  });

  it('stops quietly when the reader closes the pipe early (`cudawiz … | head`)', async () => {
    // `true` exits without reading, long before Node has started: every write meets a closed pipe.
    const r = await execa('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${builtCli}" requirements --tf 2.3 --os linux | true`], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});
