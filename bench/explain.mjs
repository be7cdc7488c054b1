#!/usr/bin/env node
// bench/explain: `cudawiz explain FILE` on the logs that were slow or hung (issue 37, X1/X2) against grep
// counting the same lines in the same run. Reference: `grep -c -F -f K FILE`, K being explain's own
// keyword list (src/doctor/explain-input.ts KEYWORDS): the lines explain would look at, found by grep.
// Cases: 211 MB of TensorFlow log lines (the fixture logs with timestamps, repeated; target ≤ 3×), a 200 MB
// log of one line (target < 30 s), a 1 MB `driver version 111…` line (target < 2 s; reference: explain of
// a small real log, i.e. start-up), 50 MB of random bytes. Best of the rounds (noise only adds time).
//
//   node bench/explain.mjs [--rounds 3] [--quick] [--json]   (needs `npm run build` first)
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleForNode } from './bundle-for-node.mjs';
import { peakRssMiB, report, round, timeCommand } from './lib/measure.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : quick ? 1 : 3;
const scale = quick ? 0.2 : 1;
const log = (s) => process.stderr.write(`bench/explain: ${s}\n`);

if (!existsSync(cli)) {
  process.stderr.write(`bench/explain: ${cli} is missing.\n  → Run \`npm run build\` first.\n`);
  process.exit(2);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'cudawiz-bench-explain-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };

/** Writes `total` bytes to `file` from `piece(i)` strings, streaming. */
async function writeRepeated(file, total, piece) {
  const out = createWriteStream(file);
  let written = 0;
  for (let i = 0; written < total; i++) {
    const s = piece(i);
    written += Buffer.byteLength(s);
    if (!out.write(s)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return written;
}

/** A tiny deterministic generator, so every run benches the same bytes. */
function randomBytes(n, seed = 37) {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

try {
  const helper = await bundleForNode(path.join(repo, 'src/doctor/explain-input.ts'), path.join(dir, 'explain-input.mjs'));
  const { KEYWORDS } = await import(pathToFileURL(helper).href);
  const keywords = path.join(dir, 'keywords.txt');
  await writeFile(keywords, `${KEYWORDS.join('\n')}\n`);

  const logsDir = path.join(repo, 'test', 'fixtures', 'logs');
  const fixtureLines = readdirSync(logsDir).sort().flatMap((f) => readFileSync(path.join(logsDir, f), 'utf8').split('\n').filter((l) => l && !l.startsWith('# source')));
  const lines = path.join(dir, 'lines.log');
  const small = path.join(dir, 'small.log');
  const oneLine = path.join(dir, 'one-line.log');
  const hostile = path.join(dir, 'driver-digits.log');
  const binary = path.join(dir, 'binary.log');
  log(`writing the logs in ${dir} …`);
  const linesBytes = await writeRepeated(lines, 211e6 * scale, (i) => {
    const t = `2026-12-04 10:${String(Math.floor(i / 60000) % 60).padStart(2, '0')}:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}.${String(i % 1e6).padStart(6, '0')}`;
    return `${t}: ${fixtureLines[i % fixtureLines.length]}\n`;
  });
  await writeFile(small, readFileSync(path.join(logsDir, 'linux-tf24-cusparse11-cudnn8.log')));
  await writeRepeated(oneLine, 200e6 * scale, () => '1'.repeat(1 << 20));
  await writeFile(hostile, `driver version ${'1'.repeat(1 << 20)}\n`);
  await writeFile(binary, randomBytes(50e6 * scale));

  const explain = (file) => [process.execPath, [cli, 'explain', file]];
  const grep = (file) => ['grep', ['-c', '-F', '-f', keywords, file]];
  const best = (cmd) => {
    let min = Infinity;
    for (let r = 0; r < rounds; r++) min = Math.min(min, timeCommand(cmd[0], cmd[1], { env, expectStatus: null }));
    return min;
  };
  const mb = (n) => `${Math.round(n / 1e6)} MB`;
  const rows = [];
  const measure = ({ name, ours, reference, refWords, target, absolute }) => {
    log(`${name} (load ${os.loadavg()[0].toFixed(2)}) …`);
    const ourMs = best(ours);
    const refMs = best(reference);
    rows.push({
      bench: 'explain',
      case: name,
      ours: `${(ourMs / 1000).toFixed(2)} s`,
      reference: `${refWords}: ${(refMs / 1000).toFixed(2)} s`,
      ratio: round(ourMs / refMs),
      target: absolute ? `${target} (${ourMs / 1000 < absolute ? 'met' : 'missed'}: < ${absolute} s)` : target,
      peakRssMiB: peakRssMiB(ours[0], ours[1], { env }),
      refPeakRssMiB: peakRssMiB(reference[0], reference[1], { env }),
    });
  };
  measure({ name: `${mb(linesBytes)} of TensorFlow log lines`, ours: explain(lines), reference: grep(lines), refWords: 'grep -c -F -f KEYWORDS', target: '≤ 3×' });
  measure({ name: `${mb(200e6 * scale)} log of one line`, ours: explain(oneLine), reference: grep(oneLine), refWords: 'grep -c -F -f KEYWORDS', target: '', absolute: 30 });
  measure({ name: 'a 1 MB "driver version 111…" line', ours: explain(hostile), reference: explain(small), refWords: 'explain of a 2 KB real log', target: '', absolute: 2 });
  measure({ name: `${mb(50e6 * scale)} of random bytes`, ours: explain(binary), reference: grep(binary), refWords: 'grep -c -F -f KEYWORDS', target: '' });
  report(rows, { json: argv.includes('--json'), title: 'bench/explain — explain against grep on the same file' });
} finally {
  await rm(dir, { recursive: true, force: true });
}
