#!/usr/bin/env node
// bench/repair: for each class of broken install repair handles (test/fixtures/repair-classes.ts, the
// very machines the end-to-end tests prove), the bytes the repair downloads against the bytes of a
// reinstall of TensorFlow's toolkit + cuDNN, and the time its plan (--dry-run) and its run take against
// a full install (NVIDIA's runfile + cuDNN on the fixture laptop) timed in the same process tree over
// the same loopback mirror. Not part of `npm test`; needs `npm run build` first.
//
// Ours: the files the repair fetched from the local mirror, each counted at its real size from the
// catalog (the fixture archives are small stand-ins under NVIDIA's names). The reference: the smallest
// reinstall cudawiz knows — the redist archives of the release serving TF's CUDA (real manifest sizes,
// assets/redist/cuda.json; a runfile is larger) plus TF's cuDNN archive (assets/cudnn.json). Target:
// a small fraction, and nothing where nothing is missing.
//
//   node bench/repair.mjs [--json] [--save FILE | --from FILE]   (--from: the measurements a --save run kept)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { report } from './lib/measure.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const redist = JSON.parse(readFileSync(path.join(repo, 'assets/redist/cuda.json'), 'utf8'));
const GB = 1e9;

const flag = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
let measured;
if (flag('--from')) measured = JSON.parse(readFileSync(flag('--from'), 'utf8'));
else {
  // Beside the helpers it bundles: they find the repo's fixtures from their own location.
  const entry = path.join(repo, 'test', 'helpers', `.repair-bench-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(repo, 'bench/lib/repair-classes-entry.mjs')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    alias: { vitest: path.join(repo, 'bench/lib/vitest-stub.mjs') },
    external: ['esbuild', 'react-devtools-core'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  try {
    measured = JSON.parse(execFileSync(process.execPath, [entry, cli], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n').pop());
  } finally {
    await rm(entry, { force: true });
  }
  if (flag('--save')) writeFileSync(flag('--save'), JSON.stringify(measured));
}
const { classes, reference } = measured;

const requirements = (tf) => JSON.parse(execFileSync(process.execPath, [cli, 'requirements', '--tf', tf, '--os', 'linux', '--json'], { encoding: 'utf8' }));
const cudnnCatalog = JSON.parse(readFileSync(path.join(repo, 'assets/cudnn.json'), 'utf8'));
/** A file's real size, by NVIDIA's name, from the catalog (or the requirements' archive of that name); undefined when none says. */
function realSize(file, req) {
  for (const r of cudnnCatalog.releases ?? cudnnCatalog.cudnn ?? []) for (const a of Object.values(r.archives ?? {})) if (a.file === file && a.size) return Number(a.size);
  return req?.cudnnArchive?.file === file && req.cudnnArchive.size ? Number(req.cudnnArchive.size) : undefined;
}
const cmp = (a, b) => { const x = a.split('.').map(Number); const y = b.split('.').map(Number); for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0); return 0; };
/** The redist release serving CUDA X.Y: that release, or the newest of its major (minor-version compatibility). */
function reinstallBytes(req) {
  const [maj] = (req.cuda ?? '').split('.');
  const release = redist.releases.filter((r) => r.version.split('.')[0] === maj && cmp(r.version, req.cuda) >= 0).at(-1);
  const cudnn = req.cudnnArchive?.size ? Number(req.cudnnArchive.size) : undefined;
  // No redist for this CUDA (before 11): NVIDIA's runfile, where the catalog has its size; none at all (TF 1.0's CUDA 8): no reference.
  if (!release) return req.cudaInstaller?.size && cudnn ? { bytes: Number(req.cudaInstaller.size) + cudnn, what: `${req.cudaInstaller.file} + ${req.cudnnArchive.file}` } : undefined;
  const toolkit = redist.components.map((c) => release.components[c.id]?.['linux-x86_64']).filter(Boolean).reduce((n, a) => n + Number(a.size), 0);
  return cudnn ? { bytes: toolkit + cudnn, what: `redist ${release.version} + ${req.cudnnArchive.file}` } : { bytes: toolkit, what: `redist ${release.version} (the catalog has no cuDNN ${req.cudnn} to add)` };
}

// Where only cuDNN is missing the repair downloads exactly its archive (nothing smaller exists); elsewhere nothing.
const oursTarget = (c) => (c.served.length ? 'only what is missing (< 1)' : '0 B');
const fmt = (b) => (b === 0 ? '0 B' : `${(b / GB).toFixed(3)} GB`);
const rows = classes.map((c) => {
  const req = requirements(c.tf);
  const sizes = c.served.map((f) => realSize(f, req));
  // A file the catalog gives no size for: the bytes cannot be said, so no ratio.
  const ours = sizes.includes(undefined) ? undefined : sizes.reduce((n, b) => n + b, 0);
  const ref = reinstallBytes(req);
  return {
    case: `${c.name} (TF ${c.tf}, exit ${c.exitCode})`,
    ours: `${ours === undefined ? 'size not in the catalog' : fmt(ours)}${c.served.length ? ` (${c.served.join(', ')})` : ''}`,
    reference: ref ? `${fmt(ref.bytes)} (${ref.what})` : 'none: the catalog has no build of this CUDA or cuDNN',
    ratio: ref && ours !== undefined ? ours / ref.bytes : null,
    target: oursTarget(c),
    oursBytes: ours ?? null,
    referenceBytes: ref?.bytes ?? null,
  };
});
// Time: the repair's run and its plan against the full install's, both on the loopback mirror (fixture
// files, so the ratio is cudawiz's own work: probing, planning, verifying, not the network).
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
for (const c of classes) {
  rows.push({
    case: `time: ${c.name} (TF ${c.tf}), run`,
    ours: `${secs(c.runMs)}${c.served.length ? ` (downloads ${c.served.join(', ')})` : ' (downloads nothing)'}`,
    reference: `${secs(reference.runMs)} (${reference.what})`,
    ratio: c.runMs / reference.runMs,
    target: '≤ 1',
  });
  rows.push({
    case: `time: ${c.name} (TF ${c.tf}), plan (--dry-run)`,
    ours: secs(c.planMs),
    reference: `${secs(reference.planMs)} (the install's --dry-run)`,
    ratio: c.planMs / reference.planMs,
    target: '≤ 1.5×',
  });
}
report(rows, { title: 'repair: bytes downloaded vs a reinstall of TF\'s toolkit + cuDNN; time vs a full install on the same mirror' });
