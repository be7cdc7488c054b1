#!/usr/bin/env node
// bench/download: the built CLI (`cudawiz download`) against the local NVIDIA mirror, beside `curl -o`
// of the same URL in the same run, in three modes: (a) unthrottled loopback, (b) the whole link capped,
// (c) each connection capped. Prints throughput, ratios and peak RSS. Not part of `npm test`.
//
//   node bench/download.mjs [--rounds 3] [--scale 1] [--modes a,b,c] [--connections 4] [--quick] [--json]
//   --scale 0.0625 runs everything 16x smaller (a quick check); sizes are in the table below.
import { spawn } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const MiB = 1024 * 1024;
const RUN_PATH = 'compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '4' },
    rounds: { type: 'string' },
    scale: { type: 'string' },
    modes: { type: 'string', default: 'a,b,c' },
    // bench/run.mjs passes these: --quick is one round at 1/16 of the sizes; --json puts the rows on stdout as one JSON line.
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const scale = Number(values.scale ?? (values.quick ? 0.0625 : 1));
// With --json the human lines go to stderr and stdout carries only the rows.
const say = (line) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
const rows = [];
const want = new Set(values.modes.split(','));

const MODES = [
  { id: 'a', name: '(a) loopback, unthrottled', sizes: [256 * MiB, 1024 * MiB], server: {} },
  { id: 'b', name: '(b) link capped at 100 MiB/s', sizes: [1024 * MiB], server: { linkBytesPerSec: 100 * MiB }, cap: 100 * MiB },
  { id: 'c', name: '(c) each connection capped at 10 MiB/s', sizes: [256 * MiB], server: { perConnectionBytesPerSec: 10 * MiB } },
].filter((m) => want.has(m.id));

/** The mirror helper (TypeScript, under test/) bundled into a tiny server script. */
async function mirrorScript(dir) {
  const outfile = path.join(dir, 'mirror-server.mjs');
  await build({
    stdin: {
      contents: `import { startMirror } from './test/helpers/mirror.ts';
        const [root, opts] = process.argv.slice(2);
        const m = await startMirror({ root, ...JSON.parse(opts) });
        process.stdout.write(m.url + '\\n');`,
      resolveDir: repo,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

async function fixture(root, size) {
  const file = path.join(root, ...RUN_PATH.split('/'));
  await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(file), { recursive: true }));
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const block = Buffer.alloc(4 * MiB);
  for (let left = size; left > 0; left -= block.length) {
    const b = left >= block.length ? block : block.subarray(0, left);
    randomFillSync(b);
    hash.update(b);
    if (!out.write(b)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return hash.digest('hex');
}

function startServer(script, root, options) {
  const child = spawn(process.execPath, [script, root, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', (d) => resolve({ url: String(d).trim(), stop: () => child.kill() })));
}

/** Runs a command; wall time and peak RSS (VmHWM, polled from /proc while it runs). */
function measure(cmd, args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    let stderr = '';
    let stdout = '';
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) * 1024);
      } catch {
        /* exited */
      }
    }, 20);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${stderr}`));
      else resolve({ seconds: (performance.now() - t0) / 1000, peak, inner: stdout.startsWith('{') ? JSON.parse(stdout).seconds : undefined });
    });
  });
}

const fmt = (bytesPerSec) => `${(bytesPerSec / MiB).toFixed(1)} MiB/s`;
const mb = (b) => `${(b / 1e6).toFixed(0)} MB`;

const work = await mkdtemp(path.join(os.tmpdir(), 'cudawiz-bench-'));
try {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first.');
  const script = await mirrorScript(work);
  say(`cudawiz download bench — ${new Date().toISOString()} — ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, node ${process.version}, ${rounds} rounds`);
  for (const mode of MODES) {
    for (const fullSize of mode.sizes) {
      const size = Math.max(MiB, Math.round(fullSize * scale));
      const root = path.join(work, 'mirror');
      await rm(root, { recursive: true, force: true });
      const sha256 = await fixture(root, size);
      const server = await startServer(script, root, mode.server);
      const overlay = path.join(work, 'overlay.json');
      await writeFile(overlay, JSON.stringify({ cuda: [{ version: '10.1.243', installers: { linux: { sha256, size } } }] }));
      const ours = [];
      const curl = [];
      for (let r = 0; r < rounds; r++) {
        const cache = path.join(work, 'cache');
        await rm(cache, { recursive: true, force: true });
        ours.push(await measure(process.execPath, [cli, 'download', 'cuda', '--version', '10.1', '--os', 'linux', '--catalog', overlay, '--mirror', server.url, '--cache-dir', cache, '--connections', values.connections, '--json']));
        await rm(cache, { recursive: true, force: true });
        const out = path.join(work, 'curl.out');
        curl.push(await measure('curl', ['-s', '-f', '-o', out, `${server.url}/${RUN_PATH}`]));
        await rm(out, { force: true });
      }
      server.stop();
      const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const oursRate = size / med(ours.map((x) => x.seconds));
      const curlRate = size / med(curl.map((x) => x.seconds));
      const peak = Math.max(...ours.map((x) => x.peak));
      say(`\n${mode.name}, ${mb(size)} (median of ${rounds}; wall clock incl. start-up, hashing, rename)`);
      say(`  cudawiz  ${fmt(oursRate).padStart(13)}   rounds: ${ours.map((x) => fmt(size / x.seconds)).join(', ')}   peak RSS ${mb(peak)}`);
      say(`  curl -o  ${fmt(curlRate).padStart(13)}   rounds: ${curl.map((x) => fmt(size / x.seconds)).join(', ')}   peak RSS ${mb(Math.max(...curl.map((x) => x.peak)))}`);
      const innerRate = size / med(ours.map((x) => x.inner));
      say(`  ratio cudawiz/curl ${(oursRate / curlRate).toFixed(2)}${mode.cap ? `   cudawiz/cap ${(oursRate / mode.cap).toFixed(2)}` : ''}`);
      rows.push({ bench: 'download', case: `${mode.name}, ${mb(size)}`, ours: fmt(oursRate), reference: `curl -o ${fmt(curlRate)}`, ratio: Number((oursRate / curlRate).toFixed(2)), peakRssMiB: Math.round(peak / MiB) });
      say(`  without node start-up (the download's own clock, hash and rename included): ${fmt(innerRate)}, ratio to curl ${(innerRate / curlRate).toFixed(2)}${mode.cap ? `, to the cap ${(innerRate / mode.cap).toFixed(2)}` : ''}`);
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ rows })}\n`);
} finally {
  await rm(work, { recursive: true, force: true });
}
