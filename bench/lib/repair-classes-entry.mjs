// Bundled by bench/repair.mjs (esbuild, `vitest` replaced by a stub whose afterAll is run at the end):
// builds each repair class from test/fixtures/repair-classes.ts, runs the built CLI's
// `repair --tf V --yes --json` in the user's shell there, and prints one JSON line per class: the
// files the mirror served for it and the repair's exit code.
import { execa } from 'execa';
import { REPAIR_CLASSES } from '../../test/fixtures/repair-classes.ts';
import { __runAfterAll } from 'vitest';

const cli = process.argv[2];
const out = [];
for (const [name, build] of Object.entries(REPAIR_CLASSES)) {
  const c = await build();
  // Not spawnSync: the mirror answers from this process's event loop.
  const r = await execa(process.execPath, [cli, 'repair', '--tf', c.tf, '--yes', '--json', ...c.m.globals, ...c.flags], { env: c.env, extendEnv: false, reject: false });
  const served = (c.mirror?.requests ?? []).filter((q) => q.status === 200 || q.status === 206).map((q) => q.path.split('/').pop());
  out.push({ name, tf: c.tf, exitCode: r.exitCode, served });
  await c.close();
}
await __runAfterAll();
process.stdout.write(`${JSON.stringify(out)}\n`);
