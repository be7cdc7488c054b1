#!/usr/bin/env node
// `npm run bench`: runs every bench/*.mjs script and prints one Markdown table of ratios and peak
// memory, headed by the date and the machine.
//
// The contract a bench script keeps: given `--json`, it prints one JSON object per line on stdout,
// one per measured case (other lines are ignored), with at least
//   { "case": "what was measured", "ratio": 1.23 }
// and, as it has them: "bench" (its name), "ours" / "reference" (what each side measured, as text),
// "target" ("≤ 1.3×", "≥ 0.8×"), "peakRssMiB" / "refPeakRssMiB" (peak memory of each side).
// `--quick` asks for a short run (fewer rounds, smaller files). bench/lib/measure.mjs has helpers.
//
// Usage: node bench/run.mjs [--only startup,download] [--quick] [--readme]
//   --readme: also write the table into docs/benchmarks.md between <!-- bench:begin --> and <!-- bench:end -->
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const quick = args.includes('--quick');

const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .filter((f) => !only || only.includes(f.replace(/\.mjs$/, '')))
  .sort();
if (only && scripts.length === 0) {
  process.stderr.write(`bench: no bench/{${only.join(',')}}.mjs here.\n  → Scripts: ${readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs').join(', ')}\n`);
  process.exit(2);
}

function runScript(file) {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, [path.join(here, file), '--json', ...(quick ? ['--quick'] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - start) / 1000 }));
  });
}

const pick = (row, ...keys) => keys.map((k) => row[k]).find((v) => v !== undefined && v !== null);

function parseRows(bench, stdout) {
  const rows = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    let value;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    for (const row of Array.isArray(value.rows) ? value.rows : [value]) {
      const ratio = Number(pick(row, 'ratio'));
      rows.push({
        bench: pick(row, 'bench') ?? bench,
        case: String(pick(row, 'case', 'name', 'label') ?? '?'),
        ours: String(pick(row, 'ours', 'value') ?? ''),
        reference: String(pick(row, 'reference', 'baseline') ?? ''),
        ratio: Number.isFinite(ratio) ? ratio : null,
        target: pick(row, 'target') ?? '',
        peak: pick(row, 'peakRssMiB', 'peakMiB', 'peakRssMB', 'peakMemMB', 'peakMemoryMiB'),
        refPeak: pick(row, 'refPeakRssMiB', 'refPeakMiB', 'refPeakRssMB', 'refPeakMemMB', 'referencePeakRssMiB'),
      });
    }
  }
  return rows;
}

/** ✓ or ✗ against a target such as "≤ 1.3×" or "≥ 0.8×"; '' when there is none. */
function verdict(ratio, target) {
  const m = /(≤|<=|≥|>=)\s*([\d.]+)/.exec(String(target));
  if (!m || ratio === null) return '';
  const limit = Number(m[2]);
  return (m[1] === '≤' || m[1] === '<=' ? ratio <= limit : ratio >= limit) ? ' ✓' : ' ✗';
}

const machine = `${os.cpus()[0]?.model.trim() ?? os.arch()} (${os.cpus().length} cores), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}${quick ? ' (--quick)' : ''}; load average ${os.loadavg()[0].toFixed(2)} at start.`,
  '',
  '| bench | case | ours | reference | ratio | target | peak MiB (ours / ref) |',
  '|---|---|---|---|---|---|---|',
];
const problems = [];
for (const file of scripts) {
  const name = file.replace(/\.mjs$/, '');
  process.stderr.write(`bench: running ${file}${quick ? ' --quick' : ''} …\n`);
  const r = await runScript(file);
  const rows = parseRows(name, r.stdout);
  if (r.code !== 0) problems.push(`${file} exited ${r.code}:\n${r.stderr.trim().split('\n').slice(-10).join('\n')}`);
  else if (rows.length === 0) problems.push(`${file} printed no JSON rows (see bench/run.mjs for the format):\n${r.stdout.trim().slice(0, 1500)}`);
  for (const row of rows) {
    const ratio = row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×${verdict(row.ratio, row.target)}`;
    lines.push(`| ${row.bench} | ${row.case} | ${row.ours} | ${row.reference} | ${ratio} | ${row.target} | ${row.peak ?? '—'} / ${row.refPeak ?? '—'} |`);
  }
}
const table = lines.join('\n');
process.stdout.write(`${table}\n`);
for (const p of problems) process.stderr.write(`\nbench: ${p}\n`);

if (args.includes('--readme')) {
  const readme = path.join(root, 'docs', 'benchmarks.md');
  const text = readFileSync(readme, 'utf8');
  const re = /(<!-- bench:begin -->\n)[\s\S]*?(<!-- bench:end -->)/;
  if (!re.test(text)) {
    process.stderr.write('bench: docs/benchmarks.md has no <!-- bench:begin --> … <!-- bench:end --> block to fill.\n');
    process.exitCode = 2;
  } else {
    writeFileSync(readme, text.replace(re, `$1${table}\n$2`));
    process.stderr.write('bench: docs/benchmarks.md updated.\n');
  }
}
if (problems.length) process.exitCode = 1;
