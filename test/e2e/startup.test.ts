// Start-up is paid on every run, so the entry loads nothing it does not need: `--version` is answered
// by dist/cli.js alone, and each command loads only its own chunks. (bench/startup.mjs times it.)
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtCli, runBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('the built entry, dist/cli.js', () => {
  it('answers --version on its own, without any chunk, and needs them for everything else', async () => {
    const dir = await tempDir('cudawiz-entry-');
    await mkdir(path.join(dir, 'dist'));
    const lone = path.join(dir, 'dist', 'cli.js');
    await copyFile(builtCli, lone);
    await copyFile(path.join(path.dirname(builtCli), '..', 'package.json'), path.join(dir, 'package.json'));
    await copyFile(path.join(path.dirname(builtCli), 'package.json'), path.join(dir, 'dist', 'package.json'));
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

describe("the bundle's prebuilt built-in catalog", () => {
  it('answers exactly as the validating loader does from source', async () => {
    for (const os of ['linux', 'windows']) {
      const built = await runBuilt(['requirements', '--tf', '2.3', '--os', os, '--json']);
      const source = await runCli(['requirements', '--tf', '2.3', '--os', os, '--json']);
      expect(built.code).toBe(0);
      expect(JSON.parse(built.stdout)).toEqual(JSON.parse(source.stdout));
    }
  });

  it('still validates an overlay given with --catalog (exit 2, the bad field named)', async () => {
    const dir = await tempDir('cudawiz-overlay-');
    const overlay = path.join(dir, 'overlay.json');
    await writeFile(overlay, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { sha256: 'not-hex' } } }] }));
    const r = await runBuilt(['requirements', '--tf', '2.3', '--catalog', overlay]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The catalog is invalid');
    expect(r.stderr).toContain('sha256');
  });
});
