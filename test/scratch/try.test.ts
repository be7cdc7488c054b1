import { it } from 'vitest';
import * as C from '../fixtures/repair-classes.js';
import { runBuilt } from '../helpers/cli.js';
it('try', async () => {
  const name = process.env.CLASS!;
  const c = await (C as any)[name]();
  const flags = [...c.m.globals, ...c.flags];
  const out: string[] = [];
  const d = await runBuilt(['doctor', '--tf', c.tf, ...flags], { env: c.env });
  out.push('DOCTOR ' + d.code + '\n' + d.stdout + d.stderr);
  const dry = await runBuilt(['repair', '--tf', c.tf, '--dry-run', ...flags], { env: c.env });
  out.push('DRY ' + dry.code + '\n' + dry.stdout + dry.stderr);
  if (process.env.REAL) { const r = await runBuilt(['repair', '--tf', c.tf, '--yes', ...flags], { env: c.env }); out.push('REAL ' + r.code + '\n' + r.stdout + r.stderr); }
  require('fs').writeFileSync('/tmp/rp/out.txt', out.join('\n=====\n'));
  await c.close();
}, 120000);
