// `npm run dist` needs two things from the npm registry (postject, and Node's Windows binary). On a
// machine that cannot reach it, the build must stop early, say which one and what to check, and
// leave no half-made executable (a plain Node binary named cudawiz).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('npm run dist without the npm registry', () => {
  it('names postject and how to check for it, exits 1, and builds nothing', async () => {
    const work = await tempDir('cudawiz-dist-');
    const r = await execa(process.execPath, ['scripts/dist.mjs', '--out', path.join(work, 'bin'), '--cache', path.join(work, 'cache')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: work,
        npm_config_cache: path.join(work, 'npm-cache'),
        npm_config_registry: 'http://127.0.0.1:9/', // nothing listens on the discard port
        npm_config_fetch_retries: '0',
        npm_config_update_notifier: 'false',
      },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('dist: Fetching postject@');
    expect(r.stderr).toContain('→ postject comes from the npm registry through npx');
    expect(await readdir(work)).not.toContain('bin');
  });

  it('refuses an unknown target with the list of known ones', async () => {
    const r = await execa(process.execPath, ['scripts/dist.mjs', '--target', 'darwin-arm64'], { cwd: repoRoot, reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Unknown target "darwin-arm64"');
    expect(r.stderr).toContain('linux-x64, win-x64');
  });
});
