// Small measuring tools shared by the bench/*.mjs scripts: wall time of a child process, its peak
// memory, medians, and the one row format bench/run.mjs collects (one JSON object per line).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Milliseconds from spawn to exit; throws when the exit status is not the expected one. */
export function timeCommand(file, args, { env, cwd, expectStatus = 0 } = {}) {
  const start = performance.now();
  const r = spawnSync(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  if (r.error) throw r.error;
  if (expectStatus !== null && r.status !== expectStatus) {
    throw new Error(`${file} ${args.join(' ')} exited ${r.status} (expected ${expectStatus}):\n${String(r.stderr).slice(0, 2000)}`);
  }
  return ms;
}

/**
 * Peak resident memory (MiB) of a command and its children, from the kernel's rusage; measured in a
 * separate run so the wrapper does not count in the timings. null when python3 is not there.
 */
export function peakRssMiB(file, args, { env, cwd } = {}) {
  const probe = 'import resource,subprocess,sys\nsubprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\nprint(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)';
  const r = spawnSync('python3', ['-c', probe, file, ...args], { env, cwd, encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return Math.round((Number(r.stdout.trim()) / 1024) * 10) / 10;
}

export const round = (x, digits = 2) => (x === null || x === undefined ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** Prints rows as JSON lines (`--json`) or as an aligned table for people. */
export function report(rows, { json = process.argv.includes('--json'), title } = {}) {
  if (json) {
    for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  if (title) process.stdout.write(`${title}\n`);
  const head = ['case', 'ours', 'reference', 'ratio', 'target', 'peak MiB (ours / ref)'];
  const body = rows.map((r) => [
    r.case,
    r.ours,
    r.reference,
    r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`,
    r.target ?? '',
    `${r.peakRssMiB ?? '—'} / ${r.refPeakRssMiB ?? '—'}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)));
  for (const line of [head, ...body]) process.stdout.write(`${line.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd()}\n`);
}
