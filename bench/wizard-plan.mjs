#!/usr/bin/env node
// Benchmark: the wizard's time from start to the plan screen on a laptop whose `import tensorflow`
// takes 3 s (as a real one does: it loads CUDA), against one such import in the same run. The
// wizard probes Python once, so the ratio should stay near 1 (target ≤ 1.2×); each extra probe adds 1.
// Not part of `npm test`.
//   node bench/wizard-plan.mjs [--seconds 3] [--rounds 3] [--quick] [--json]
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleForNode } from './bundle-for-node.mjs';
import { median, report, round } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = await mkdtemp(path.join(os.tmpdir(), 'cudawiz-bench-wizard-'));
try {
  // The fixture laptop: an RTX 2060 (fixture nvidia-smi on PATH), no CUDA, pip's TF 2.3 slow to import.
  const bin = path.join(work, 'bin');
  const cudaRoot = path.join(work, 'cuda-root');
  await mkdir(bin, { recursive: true });
  await mkdir(cudaRoot, { recursive: true });
  await copyFile(path.join(repo, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repo, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  const env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: work,
    LANG: 'C.UTF-8',
    PYTHONPATH: path.join(repo, 'test/fixtures/python/tf23-slow-import'),
    CUDAWIZ_FIXTURE_TF_IMPORT_SECONDS: values.seconds,
  };
  const driver = await bundleForNode(path.join(repo, 'bench/lib/wizard-to-plan.ts'), path.join(work, 'wizard-to-plan.mjs'));

  const importOnce = () => {
    const start = performance.now();
    execFileSync('python3', ['-c', 'import tensorflow'], { env, stdio: 'ignore' });
    return performance.now() - start;
  };
  const wizardToPlan = () => JSON.parse(execFileSync(process.execPath, [driver, work, cudaRoot], { env, encoding: 'utf8' }).trim().split('\n').pop()).ms;

  const ours = [];
  const ref = [];
  for (let i = 0; i < rounds; i++) {
    ref.push(importOnce());
    ours.push(wizardToPlan());
  }
  // Fastest of each: other processes only ever add time.
  const o = Math.min(...ours);
  const r = Math.min(...ref);
  report(
    [
      {
        bench: 'wizard-plan',
        case: `wizard start → plan, TF import ${values.seconds} s`,
        ours: `${(o / 1000).toFixed(2)} s (median ${(median(ours) / 1000).toFixed(2)} s)`,
        reference: `one python3 -c "import tensorflow": ${(r / 1000).toFixed(2)} s`,
        ratio: round(o / r),
        target: '≤ 1.2×',
      },
    ],
    { json: values.json, title: 'The wizard from start to the plan, against one TensorFlow import' },
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
