#!/usr/bin/env node
// CPU cost of the test files, one line each, heaviest first: `node scripts/test-cpu.mjs [vitest filters…]`
// (no filter: the whole `npm test` suite). Wall time on a shared machine says little; CPU seconds
// (user+sys of each file's worker and of the child processes it waited for) say what the suite costs
// a 2-core machine. Build first (`npm run build`): the end-to-end files run dist/cli.js.
// --json FILE also writes the rows; --config FILE measures another lane.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
let json;
let config = 'vitest.config.ts';
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') json = args[++i];
  else if (args[i] === '--config') config = args[++i];
  else filters.push(args[i]);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'cudawiz-test-cpu-'));
const log = path.join(dir, 'files.jsonl');
const timeOut = path.join(dir, 'time.txt');
writeFileSync(log, '');
const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const probe = path.resolve('test/helpers/cpu-probe.ts');
// An extra setup file through a wrapper config, so the lane's own config stays as it is.
const wrapper = path.resolve(`.vitest.cpu.${process.pid}.config.mjs`);
writeFileSync(
  wrapper,
  `import base from ${JSON.stringify(path.resolve(config))};\n` +
    `const t = base.test ?? {};\n` +
    `export default { ...base, test: { ...t, setupFiles: [...[t.setupFiles ?? []].flat(), ${JSON.stringify(probe)}] } };\n`,
);
const started = Date.now();
const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e', '-o', timeOut, process.execPath, vitest, 'run', '--config', wrapper, ...filters], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, CUDAWIZ_CPU_LOG: log },
});
rmSync(wrapper, { force: true });
const [user, sys, wall] = readFileSync(timeOut, 'utf8').trim().split('\n').pop().split(' ').map(Number);
const rows = readFileSync(log, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l))
  .map((x) => ({ ...x, file: path.relative(process.cwd(), x.file) }))
  .sort((a, b) => b.cpu - a.cpu);
rmSync(dir, { recursive: true, force: true });

const sum = rows.reduce((s, x) => s + x.cpu, 0);
console.log('\n   CPU s   wall s  file');
for (const x of rows) console.log(`${x.cpu.toFixed(1).padStart(8)} ${x.wall.toFixed(1).padStart(8)}  ${x.file}`);
console.log(`\n${rows.length} files: ${sum.toFixed(0)} CPU s inside the files (${(sum / 60).toFixed(1)} CPU min)`);
console.log(
  `whole run: user ${user.toFixed(0)} s + sys ${sys.toFixed(0)} s = ${((user + sys) / 60).toFixed(1)} CPU min, wall ${wall.toFixed(0)} s ` +
    `(${(Date.now() - started) / 1000 > 0 ? ((user + sys) / wall).toFixed(2) : '?'} cores busy on average)`,
);
if (json) writeFileSync(json, JSON.stringify({ user, sys, wall, files: rows }, null, 2));
process.exitCode = r.status ?? 1;
