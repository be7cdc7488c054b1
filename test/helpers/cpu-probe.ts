// Loaded only by scripts/test-cpu.mjs (as an extra setup file): how much CPU one test file costs —
// its worker's own user+sys time plus that of every child process it waited for (the built CLI,
// python, tar, xz …), read from /proc/self/stat before the file's first hook and after its last.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

const TICKS = 100; // CLK_TCK on Linux

function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 14–17 of proc(5): utime, stime, cutime, cstime; f[0] is field 3.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS;
}

const log = process.env.CUDAWIZ_CPU_LOG;
const start = cpuSeconds();
const wallStart = Date.now();
afterAll(({}, suite) => {
  if (!log) return;
  // The root suite of a setup file's hook is the test file itself.
  const s = suite as { filepath?: string; file?: { filepath?: string } };
  const file = s.file?.filepath ?? s.filepath ?? '';
  appendFileSync(log, JSON.stringify({ file, cpu: cpuSeconds() - start, wall: (Date.now() - wallStart) / 1000, pid: process.pid }) + '\n');
});
