// Bundled by bench/repair.mjs (esbuild, `vitest` replaced by a stub whose afterAll is run at the end):
// builds each repair class from test/fixtures/repair-classes.ts, runs the built CLI's
// `repair --tf V --dry-run --json` (the plan) and `repair --tf V --yes --json` (the run) in the user's
// shell there, and times both; then, in this same process tree, the reference: a full `install` of TF
// 2.3's toolkit (NVIDIA's runfile) and cuDNN on the fixture laptop, over the same loopback mirror. Prints
// one JSON line: per class the files the mirror served, the exit code and the times; the reference's times.
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { REPAIR_CLASSES } from '../../test/fixtures/repair-classes.ts';
import { laptop } from '../../test/helpers/laptop.ts';
import { __runAfterAll } from 'vitest';

const cli = process.argv[2];
/** The CLI in a child process, timed from spawn to exit (not spawnSync: the mirror answers from this event loop). */
async function timed(args, env) {
  const start = performance.now();
  const r = await execa(process.execPath, [cli, ...args], { env, extendEnv: false, reject: false });
  return { ms: performance.now() - start, exitCode: r.exitCode };
}
const out = [];
for (const [name, build] of Object.entries(REPAIR_CLASSES)) {
  const c = await build();
  const flags = ['--tf', c.tf, '--json', ...c.m.globals, ...c.flags];
  const plan = await timed(['repair', '--dry-run', ...flags], c.env);
  const before = c.mirror?.requests.length ?? 0;
  const run = await timed(['repair', '--yes', ...flags], c.env);
  const served = (c.mirror?.requests ?? []).slice(before).filter((q) => q.status === 200 || q.status === 206).map((q) => q.path.split('/').pop());
  out.push({ name, tf: c.tf, exitCode: run.exitCode, served, planMs: plan.ms, runMs: run.ms });
  await c.close();
}
// The reference: the whole toolkit and cuDNN, installed from scratch on the same kind of mirror.
const m = await laptop();
const args = ['--tf', '2.3', '--json', ...m.globals, '--downloads', m.downloads, '--configure-env', 'no'];
const refPlan = await timed(['install', '--dry-run', ...args], m.env);
const refRun = await timed(['install', '--yes', ...args], m.env);
const refServed = m.mirror.requests.filter((q) => (q.status === 200 || q.status === 206) && q.method === 'GET').map((q) => q.path.split('/').pop());
await m.mirror.close();
if (refRun.exitCode !== 0) throw new Error(`the reference install exited ${refRun.exitCode}`);
await __runAfterAll();
process.stdout.write(`${JSON.stringify({ classes: out, reference: { what: 'install --tf 2.3 (CUDA 10.1 runfile + cuDNN 7.6.5)', planMs: refPlan.ms, runMs: refRun.ms, served: refServed } })}\n`);
