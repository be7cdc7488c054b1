#!/usr/bin/env node
// Benchmark: cudawiz's cuDNN import (inspect, staging, sha256 of every file, manifest, backups,
// renames into place) against `unzip -q` (or `tar -xf`) + `cp -r` of the same tree, same run.
// Target: within 1.3× of the reference. Not part of `npm test`.
//
//   node bench/cudnn-import.mjs [--cases zip:800,tgz:300,txz:100,txz-real:100] [--files 24] [--rounds 5] [--dir DIR] [--quick] [--json]
//   (a case is format:MB; formats zip, tgz, txz; `txz-real` packs half-compressible libraries with
//   xz's default level, as NVIDIA's archives are, so xz itself does real work on both sides)
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { bundleForNode } from './bundle-for-node.mjs';
import { median } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    cases: { type: 'string' },
    files: { type: 'string', default: '24' },
    rounds: { type: 'string' },
    dir: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const cases = (values.cases ?? (values.quick ? 'zip:100,tgz:60,txz:30' : 'zip:800,tgz:300,txz:100,txz-real:100')).split(',').map((c) => {
  const [format, mb] = c.split(':');
  if (!['zip', 'tgz', 'txz', 'txz-real'].includes(format) || !(Number(mb) > 0)) throw new Error(`bad case "${c}" (want zip:MB, tgz:MB or txz:MB)`);
  return { format, mb: Number(mb) };
});
const fileCount = Number(values.files);
const rounds = Number(values.rounds ?? (values.quick ? 1 : 5));
const log = (line) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = await mkdtemp(path.join(values.dir ?? os.tmpdir(), 'cudawiz-bench-'));
const sh = (cmd) => execFileSync('sh', ['-c', cmd], { stdio: ['ignore', 'ignore', 'inherit'] });

/** Incompressible bytes; or, `half`, each MiB half random and half repeated text (machine code compresses ~2×). */
async function randomFile(file, bytes, half = false) {
  const fh = await open(file, 'w');
  const chunk = 1024 * 1024;
  const text = Buffer.alloc(chunk / 2, 'cudnnConvolutionForward sm_80 kernel ');
  for (let left = bytes; left > 0; left -= chunk) {
    const n = Math.min(chunk, left);
    await fh.write(half ? Buffer.concat([randomBytes(n >> 1), text]).subarray(0, n) : randomBytes(n));
  }
  await fh.close();
}

/** A cuDNN-shaped tree of incompressible data (≥ 8.3 layout; Windows names for a zip, Linux for a tar) packed as asked. */
async function buildArchive({ format, mb }) {
  const zip = format === 'zip';
  const version = '8.9.7.29';
  const root = zip ? `cudnn-windows-x86_64-${version}_cuda12-archive` : `cudnn-linux-x86_64-${version}_cuda12-archive`;
  const src = path.join(work, 'src', root);
  const libDir = zip ? 'lib/x64' : 'lib';
  for (const d of ['bin', 'include', libDir]) await mkdir(path.join(src, d), { recursive: true });
  await writeFile(path.join(src, 'include/cudnn_version.h'), '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n');
  await writeFile(path.join(src, 'include/cudnn.h'), '#include "cudnn_version.h"\n');
  await writeFile(path.join(src, 'LICENSE'), 'license\n');
  const each = Math.floor((mb * 1024 * 1024) / fileCount);
  for (let i = 0; i < fileCount; i++) {
    const name = zip ? (i === 0 ? 'bin/cudnn64_8.dll' : `bin/cudnn_part${i}64_8.dll`) : i === 0 ? 'lib/libcudnn.so.8.9.7' : `lib/libcudnn_part${i}.so.8.9.7`;
    await randomFile(path.join(src, name), each, format === 'txz-real');
  }
  if (zip) await writeFile(path.join(src, 'lib/x64/cudnn.lib'), 'lib');
  else {
    // NVIDIA's own links, as in every Linux archive.
    sh(`cd "${src}/lib" && ln -s libcudnn.so.8.9.7 libcudnn.so.8 && ln -s libcudnn.so.8 libcudnn.so`);
  }
  const archive = path.join(work, `${root}.${{ zip: 'zip', tgz: 'tgz', txz: 'tar.xz', 'txz-real': 'tar.xz' }[format]}`);
  log(`building a ${mb} MB ${zip ? 'store-only zip' : format} with ${fileCount} libraries …`);
  if (zip) sh(`cd "${path.dirname(src)}" && zip -0 -q -r "${archive}" "${root}"`);
  else if (format === 'tgz') sh(`tar -czf "${archive}" -C "${path.dirname(src)}" "${root}"`);
  else if (format === 'txz') sh(`XZ_OPT=-0 tar -cJf "${archive}" -C "${path.dirname(src)}" "${root}"`);
  else sh(`XZ_OPT="-6 -T0" tar -cJf "${archive}" -C "${path.dirname(src)}" "${root}"`);
  await rm(path.join(work, 'src'), { recursive: true });
  return { archive, root, zip };
}

try {
  const bundle = await bundleForNode(path.join(repo, 'src/cudnn/index.ts'), path.join(work, 'cudnn.mjs'));
  const { importCudnn } = await import(pathToFileURL(bundle).href);
  for (const c of cases) {
    const { archive, root, zip } = await buildArchive(c);
    const toolkitOs = zip ? 'windows' : 'linux';
    const freshToolkit = async (name) => {
      const t = path.join(work, name);
      await rm(t, { recursive: true, force: true });
      for (const d of ['bin', 'include', zip ? 'lib/x64' : 'lib64']) await mkdir(path.join(t, d), { recursive: true });
      return t;
    };
    const reference = async () => {
      const t = await freshToolkit('toolkit-ref');
      const x = path.join(work, 'x');
      await rm(x, { recursive: true, force: true });
      await mkdir(x);
      const t0 = performance.now();
      if (zip) sh(`unzip -q "${archive}" -d "${x}" && cp -r "${x}/${root}/bin" "${x}/${root}/include" "${x}/${root}/lib" "${t}/"`);
      else sh(`tar -xf "${archive}" -C "${x}" && cp -r "${x}/${root}/include/." "${t}/include/" && cp -r "${x}/${root}/lib/." "${t}/lib64/"`);
      const ms = performance.now() - t0;
      await rm(x, { recursive: true, force: true });
      return ms;
    };
    const ours = async () => {
      const t = await freshToolkit('toolkit-ours');
      const t0 = performance.now();
      const m = await importCudnn({ archive, toolkitDir: t, os: toolkitOs });
      const ms = performance.now() - t0;
      if (m.files.length < fileCount) throw new Error(`imported ${m.files.length} files, expected ≥ ${fileCount}`);
      return ms;
    };
    const refTimes = [];
    const ourTimes = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate the order so neither side always gets the warmer page cache.
      for (const side of r % 2 === 0 ? ['ref', 'ours'] : ['ours', 'ref']) (side === 'ref' ? refTimes : ourTimes).push(side === 'ref' ? await reference() : await ours());
      log(`${c.format} round ${r + 1}: reference ${refTimes.at(-1).toFixed(0)} ms, cudawiz ${ourTimes.at(-1).toFixed(0)} ms`);
    }
    const ratio = median(ourTimes) / median(refTimes);
    const refName = zip ? 'unzip -q + cp -r' : 'tar -xf + cp -r';
    log(`${c.format} ${c.mb} MB: reference (${refName}) median ${median(refTimes).toFixed(0)} ms; cudawiz import median ${median(ourTimes).toFixed(0)} ms; ratio ${ratio.toFixed(2)}× (target ≤ 1.30×) ${ratio <= 1.3 ? 'OK' : 'SLOWER THAN TARGET'}`);
    if (values.json) {
      const row = { bench: 'cudnn-import', case: `import a ${c.mb} MB ${c.format} (${rounds} rounds)`, ours: `${median(ourTimes).toFixed(0)} ms (median)`, reference: `${refName}: ${median(refTimes).toFixed(0)} ms (median)`, ratio, target: '≤ 1.3×' };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
    if (ratio > 1.3) process.exitCode = 1;
    await rm(archive, { force: true });
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
