import { it } from 'vitest';
import { condaCudnnFirst } from '../fixtures/repair-classes.js';
import { runBuilt } from '../helpers/cli.js';
import { newShellEnv } from '../helpers/broken-machine.js';
it('try', async () => {
  const c = await condaCudnnFirst();
  const f = [...c.m.globals];
  const r = await runBuilt(['repair', '--tf', '2.12', '--yes', '--package-manager', 'yes', ...f], { env: c.env });
  console.log(r.code, r.stdout, r.stderr);
  const lr = await runBuilt(['doctor', '--tf', '2.12', ...f], { env: await newShellEnv(c.m) });
  console.log(lr.code, lr.stdout.slice(0, 3000));
  const rb = await runBuilt(['rollback', ...f], { env: c.env });
  console.log(rb.code, rb.stdout, rb.stderr);
}, 120000);
