#!/usr/bin/env node
// bench/redist: the redist route against the installer route. Not part of `npm test`.
//  (1) Bytes downloaded for TF 2.10 on Windows and TF 2.12 on Linux: the CUDA components from the
//      real manifest sizes (assets/redist/cuda.json) vs the local installer's size — from the catalog
//      (assets/cuda.json) when it has one; otherwise from --installer-bytes, or NVIDIA's download-page
//      figure, which is printed as unverified. Target ≤ 0.30.
//  (2) Time from "go ahead" (install --yes) to verified on the local mirror capped at 100 MiB/s, for
//      TF 2.12 on Linux, both routes through the built CLI, files at 1/scale of their real sizes with
//      the installer's bytes kept in their real ratio to the archives. Target ≤ 0.5×.
//
//      Two scales by default (1/20 and 1/10: fixed costs weigh more at the smaller one; 1/5 would
//      take minutes of fixture building on a shared 2-core machine), 3 rounds each, the median.
//
//   node bench/redist.mjs [--scale 20,10] [--rounds 3] [--installer-bytes linux=N,windows=N] [--quick] [--json]
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleForNode } from './bundle-for-node.mjs';
import { median, report, round } from './lib/measure.mjs';

const { values } = parseArgs({
  options: { scale: { type: 'string' }, rounds: { type: 'string' }, 'installer-bytes': { type: 'string' }, quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
});
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const redist = JSON.parse(readFileSync(path.join(repo, 'assets/redist/cuda.json'), 'utf8'));
const cuda = JSON.parse(readFileSync(path.join(repo, 'assets/cuda.json'), 'utf8'));
const log = (line) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
const GB = 1e9;

// NVIDIA's CUDA download pages list the local installers as 4.3 GB (11.8.0 Linux runfile) and 3.0 GB
// (11.2.2 Windows exe); neither is in the catalog yet, so these are used only when it has no size, and said to be unverified.
const DOWNLOAD_PAGE = { 'cuda_11.8.0_520.61.05_linux.run': 4.3 * GB, 'cuda_11.2.2_461.33_win10.exe': 3.0 * GB };
const given = Object.fromEntries((values['installer-bytes'] ?? '').split(',').filter(Boolean).map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));

function installer(version, osName) {
  const i = cuda.releases.find((r) => r.version === version)?.installers?.[osName];
  if (i?.size) return { file: i.file, bytes: i.size, from: 'catalog' };
  if (given[osName]) return { file: i.file, bytes: given[osName], from: '--installer-bytes' };
  return { file: i.file, bytes: DOWNLOAD_PAGE[i.file], from: "NVIDIA's download page (unverified: not in the catalog)" };
}

/** The archives the route fetches for a release and platform: the components that release has (nvJitLink only from 12.0). */
function redistArchives(version, platform) {
  const release = redist.releases.find((r) => r.version === version);
  return redist.components.map((c) => release.components[c.id]?.[platform]).filter(Boolean);
}

function redistBytes(version, platform) {
  return redistArchives(version, platform).reduce((n, a) => n + Number(a.size), 0);
}

const fmt = (b) => `${(b / GB).toFixed(2)} GB`;
const rows = [];
for (const c of [
  { case: 'bytes: TF 2.10 Windows (redist 11.8.0 vs cuda_11.2.2 exe)', tf: '2.10', platform: 'windows-x86_64', os: 'windows', installer: '11.2.2' },
  { case: 'bytes: TF 2.12 Linux (redist 11.8.0 vs cuda_11.8.0 runfile)', tf: '2.12', platform: 'linux-x86_64', os: 'linux', installer: '11.8.0' },
]) {
  const ours = redistBytes('11.8.0', c.platform);
  const ref = installer(c.installer, c.os);
  rows.push({ bench: 'redist', case: c.case, ours: `${fmt(ours)} (${redistArchives('11.8.0', c.platform).length} archives)`, reference: `${fmt(ref.bytes)} ${ref.file} [${ref.from}]`, ratio: round(ours / ref.bytes, 3), target: '≤ 0.30' });
}

const scales = (values.scale ?? (values.quick ? '80' : '20,10')).split(',').map(Number);
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const linuxInstaller = installer('11.8.0', 'linux');
const dir = await mkdtemp(path.join(os.tmpdir(), 'cudawiz-bench-redist-js-'));
try {
  const entry = await bundleForNode(path.join(repo, 'bench/lib/redist-time.ts'), path.join(dir, 'redist-time.mjs'));
  for (const scale of scales) {
    log(`timing both routes for TF 2.12 on Linux at 1/${scale} of the real sizes, ${rounds} round(s), link capped at 100 MiB/s (load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}) …`);
    const r = spawnSync(process.execPath, [entry, repo, String(scale), String(rounds), String(linuxInstaller.bytes / redistBytes('11.8.0', 'linux-x86_64'))], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`the timed run failed:\n${r.stderr.slice(-3000)}`);
    for (const line of r.stderr.trim().split('\n').filter(Boolean)) log(`  ${line}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    const ours = median(out.times.redist);
    const ref = median(out.times.toolkit);
    rows.push({
      bench: 'redist',
      case: `time to verified: TF 2.12 Linux, 100 MiB/s link, 1/${scale} sizes (median of ${rounds})`,
      ours: `${(ours / 1000).toFixed(2)} s redist (${(out.redistBytes / 2 ** 20).toFixed(1)} MiB)`,
      reference: `${(ref / 1000).toFixed(2)} s installer route (${(out.installerBytes / 2 ** 20).toFixed(1)} MiB runfile)`,
      ratio: round(ours / ref, 3),
      target: '≤ 0.5×',
    });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
report(rows, { json: values.json, title: 'bench/redist — the redist route against the installer route' });
