#!/usr/bin/env node
// Start-up of the built CLI against bare Node in the same run: `--version` (target ≤ 1.3×),
// `requirements --tf 2.3 --json` (≤ 2×) and the wizard's first frame in a real pseudo-terminal (≤ 3×,
// against bare Node printing one character in the same pseudo-terminal). Rounds interleave the cases;
// ratios compare the fastest round of each side (noise from other processes only ever adds time),
// and the medians are shown beside them. The standalone executable is timed too when it is built.
// The wizard draws its first frame before Ink loads (src/cli/first-frame.ts); a second row shows
// when Ink has drawn its own and the wizard is live.
// Usage: node bench/startup.mjs [--rounds N] [--quick] [--json]   (needs `npm run build` first)
//   BENCH_SAMPLES=1 also prints every round's times on stderr (to see the noise).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, peakRssMiB, report, round, timeCommand } from './lib/measure.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.js');
const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : argv.includes('--quick') ? 3 : 15;
const warmup = argv.includes('--quick') ? 1 : 2;

if (!existsSync(cli)) {
  process.stderr.write(`bench/startup: ${cli} is missing.\n  → Run \`npm run build\` first.\n`);
  process.exit(2);
}

// A clean environment, so a developer's NODE_OPTIONS or locale does not skew one side.
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', TERM: 'xterm-256color' };
const node = process.execPath;

const sea = path.join(root, 'dist', 'bin', 'cudawiz');
const headless = {
  bare: [node, ['-e', '0']],
  version: [node, [cli, '--version']],
  help: [node, [cli, '--help']],
  requirements: [node, [cli, 'requirements', '--tf', '2.3', '--json']],
  ...(existsSync(sea) ? { seaVersion: [sea, ['--version']], seaRequirements: [sea, ['requirements', '--tf', '2.3', '--json']] } : {}),
};

const sh = (s) => `'${s.replaceAll("'", "'\\''")}'`;
// The pty gets a fixed size: `script` without a terminal of its own would give the child 0×0.
const inPty = (command) => `stty cols 100 rows 30 2>/dev/null; exec ${command}`;
const ptyCases = {
  ptyBare: inPty(`${sh(node)} -e "process.stdout.write('.')"`),
  firstFrame: inPty(`${sh(node)} ${sh(cli)}`),
};

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

function descendants(pid) {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return kids.flatMap((k) => [k, ...descendants(k)]);
  } catch {
    return [];
  }
}

function peakOf(pids) {
  let best = null;
  for (const pid of pids) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) best = Math.max(best ?? 0, Number(m[1]));
    } catch {
      // gone already
    }
  }
  return best === null ? null : round(best / 1024, 1);
}

// eslint-disable-next-line no-control-regex
const visible = (text) => text.replace(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B[\]P^_][^\u0007\u001B]*(?:\u0007|\u001B\\)|\u001B./g, '').trim();

// Ink hides the cursor as it draws its first frame: from then on the wizard is Ink's, and live.
const INK_DREW = '\u001B[?25l';

/**
 * Milliseconds until the first visible character appears in a fresh pseudo-terminal, and with
 * `untilInk`, also until Ink has drawn its own first frame (`inkMs`).
 */
function firstOutput(commandLine, { untilInk = false } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('script', ['-qfec', commandLine, '/dev/null'], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let text = '';
    let firstMs = null;
    let done = false;
    const finish = (error, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already exited
      }
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(() => finish(new Error(`no output within 20 s from: ${commandLine}\n${text}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      text += String(chunk);
      const now = performance.now() - start;
      if (firstMs === null && visible(text)) firstMs = now;
      if (firstMs !== null && (!untilInk || text.includes(INK_DREW))) {
        finish(null, { ms: firstMs, inkMs: untilInk ? now : null, peak: peakOf(descendants(child.pid)), text: visible(text.split(INK_DREW)[0]) || visible(text) });
      }
    });
    child.on('error', (error) => finish(error));
    child.on('exit', () => setImmediate(() => finish(new Error(`exited without visible output: ${commandLine}\n${JSON.stringify(text)}`))));
  });
}

const times = Object.fromEntries([...Object.keys(headless), ...(hasScript ? Object.keys(ptyCases) : [])].map((k) => [k, []]));
const inkTimes = [];
let firstFrameText = '';
let firstFramePeak = null;
let ptyBarePeak = null;
for (let i = 0; i < warmup + rounds; i++) {
  // Rotate the order each round so no case always runs right after another.
  const order = Object.keys(times);
  const rotated = [...order.slice(i % order.length), ...order.slice(0, i % order.length)];
  for (const key of rotated) {
    let ms;
    if (key in headless) {
      ms = timeCommand(...headless[key], { env });
    } else {
      const r = await firstOutput(ptyCases[key], { untilInk: key === 'firstFrame' });
      ms = r.ms;
      if (key === 'firstFrame') {
        if (i >= warmup) inkTimes.push(r.inkMs);
        firstFrameText = r.text;
        firstFramePeak = r.peak ?? firstFramePeak;
      } else ptyBarePeak = r.peak ?? ptyBarePeak;
    }
    if (i >= warmup) times[key].push(ms);
  }
}

if (process.env.BENCH_SAMPLES) for (const [k, v] of Object.entries(times)) process.stderr.write(`${k}: ${v.map((x) => x.toFixed(0)).join(' ')}\n`);
const best = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.length ? Math.min(...v) : null]));
const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.length ? median(v) : null]));
const mem = Object.fromEntries(Object.entries(headless).map(([k, [f, a]]) => [k, peakRssMiB(f, a, { env })]));
const ms = (k) => `${best[k].toFixed(1)} ms (median ${med[k].toFixed(1)})`;
const vsBare = (key, label, target) => ({
  bench: 'startup',
  case: label,
  ours: ms(key),
  reference: `node -e 0: ${ms('bare')}`,
  ratio: round(best[key] / best.bare),
  medianRatio: round(med[key] / med.bare),
  target,
  peakRssMiB: mem[key],
  refPeakRssMiB: mem.bare,
});
const rows = [
  vsBare('version', 'cudawiz --version', '≤ 1.3×'),
  vsBare('help', 'cudawiz --help', ''),
  vsBare('requirements', 'cudawiz requirements --tf 2.3 --json', '≤ 2×'),
  ...(existsSync(sea)
    ? [vsBare('seaVersion', 'standalone dist/bin/cudawiz --version', ''), vsBare('seaRequirements', 'standalone dist/bin/cudawiz requirements --tf 2.3 --json', '')]
    : []),
];
if (hasScript) {
  rows.push({
    bench: 'startup',
    case: 'cudawiz (wizard) first frame in a pty',
    ours: ms('firstFrame'),
    reference: `node printing "." in the same pty: ${ms('ptyBare')}`,
    ratio: round(best.firstFrame / best.ptyBare),
    medianRatio: round(med.firstFrame / med.ptyBare),
    target: '≤ 3×',
    peakRssMiB: firstFramePeak,
    refPeakRssMiB: ptyBarePeak,
    firstFrame: firstFrameText.slice(0, 200),
  });
  // The first frame is drawn before Ink loads (src/cli/first-frame.ts); this is when Ink has taken
  // it over and the wizard answers keys.
  const inkBest = Math.min(...inkTimes);
  const inkMedian = median(inkTimes);
  rows.push({
    bench: 'startup',
    case: 'cudawiz (wizard) live: Ink has drawn its first frame',
    ours: `${inkBest.toFixed(1)} ms (median ${inkMedian.toFixed(1)})`,
    reference: `node printing "." in the same pty: ${ms('ptyBare')}`,
    ratio: round(inkBest / best.ptyBare),
    medianRatio: round(inkMedian / med.ptyBare),
    target: '',
    peakRssMiB: firstFramePeak,
    refPeakRssMiB: ptyBarePeak,
  });
} else {
  rows.push({ bench: 'startup', case: 'cudawiz (wizard) first frame in a pty', ours: 'skipped', reference: 'util-linux `script` is not installed', ratio: null, target: '≤ 3×' });
}
report(rows, { title: `Start-up, best of ${rounds} rounds (Node ${process.version})` });
