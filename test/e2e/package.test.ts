// The npm package as a user gets it: `npm pack`, then installed on a machine with no network and an
// empty npm cache. Everything cudawiz runs is bundled in dist/, so the package has no dependencies
// to fetch and installs offline.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const pkg = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };

let work: string;
let tarball: string;
let env: Record<string, string>;

// A clean npm: its own cache and HOME, no inherited npm_config_* from `npm test`, no network calls.
function npm(args: string[], cwd = work) {
  return execa('npm', args, { cwd, env, extendEnv: false, reject: false });
}

beforeAll(async () => {
  work = await tempDir('cudawiz-pack-');
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: work,
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const r = await npm(['pack', repoRoot, '--pack-destination', work, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  tarball = path.join(work, (JSON.parse(r.stdout) as { filename: string }[])[0].filename);
}, 60_000);

describe('the npm package', () => {
  it('holds only what runs: the bundled CLI, package.json and the README', async () => {
    const list = await execa('tar', ['-tzf', tarball]);
    const files = list.stdout.split('\n').map((f) => f.replace(/^package\//, ''));
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('package.json');
    expect(files).toContain('README.md');
    const unexpected = files.filter((f) => !/^(?:dist\/cli\.js|dist\/package\.json|dist\/chunks\/[\w-]+\.c?js|dist\/chunks\/package\.json|package\.json|README(?:\.zh-CN)?\.md|LICENSE)$/.test(f));
    expect(unexpected).toEqual([]);
  });

  it('declares no dependencies to install, a bin, and the Node it needs', async () => {
    await execa('tar', ['-xzf', tarball, '-C', work, 'package/package.json']);
    const manifest = JSON.parse(await readFile(path.join(work, 'package', 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ cudawiz: 'dist/cli.js' });
    expect(manifest.engines.node).toMatch(/^>=20/);
  });

  it('installs offline into an empty prefix, and the installed `cudawiz` answers', async () => {
    const prefix = path.join(work, 'global');
    const install = await npm(['install', '--global', '--offline', '--prefix', prefix, tarball]);
    expect(install.exitCode, install.stderr).toBe(0);
    const bin = path.join(prefix, 'bin', 'cudawiz');

    const version = await execa(bin, ['--version'], { env, extendEnv: false });
    expect(version.stdout.trim()).toBe(pkg.version);

    const help = await execa(bin, ['--help'], { env, extendEnv: false });
    expect(help.stdout).toMatch(/Commands:[\s\S]*doctor/);

    const req = await execa(bin, ['requirements', '--tf', '2.3', '--os', 'linux', '--json'], { env, extendEnv: false });
    expect(JSON.parse(req.stdout)).toMatchObject({ tensorflow: '2.3', os: 'linux', cuda: '10.1', cudnn: '7.6' });

    const bad = await execa(bin, ['requirements', '--tf', '2.99'], { env, extendEnv: false, reject: false });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Unknown TensorFlow version "2.99"');
  }, 60_000);

  it('runs straight from the tarball with npx, offline', async () => {
    const r = await execa('npx', ['--offline', '--yes', `./${path.basename(tarball)}`, '--help'], { cwd: work, env, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cudawiz — /);
  }, 60_000);
});
