// The env step tells the truth about the loader: a normal user with a toolkit outside HOME (a system
// folder only root can point ldconfig at) is shown the sudo lines, and the step is never "already
// done". The user is a real unprivileged process (`id -u` as nobody through setpriv, as root runs the tests).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.js';
import type { Host } from '../../src/host.js';
import { createPlanContext } from '../../src/plan/context.js';
import { NeedsInput } from '../../src/plan/runner.js';
import { toolkitEnvStep as configureEnvStep } from '../../src/plan/routes/toolkit.js';
import type { MachineFacts } from '../../src/probe/types.js';
import { planEnvChanges } from '../../src/env/plan.js';
import { unprivilegedRunner } from '../fixtures/cuda-installer/unprivileged.js';
import { linuxMachine, makeLinuxToolkit, tfLibraryFiles } from './env-fixtures.js';

const TF23 = tfLibraryFiles('2.3', 'linux');

async function normalUser(configureEnv: 'yes' | 'no') {
  const m = await linuxMachine();
  const cudaRoot = path.join(m.root, 'opt');
  await mkdir(cudaRoot, { recursive: true });
  const host: Host = { ...m.host, fsRoot: m.root, run: (file, args, o) => (file === 'id' || file === 'test' ? unprivilegedRunner(file, args, o) : m.host.run(file, args, o)) };
  const ctx = createPlanContext(loadCatalog(), host, { tf: '2.3', cudaRoot, configureEnv, command: 'cudawiz install --tf 2.3', cacheDir: path.join(m.home, 'cache') });
  await makeLinuxToolkit(ctx.toolkitDir, TF23);
  // What the preflight step fills in: the toolkits on this machine (only this one).
  ctx.facts = { toolkits: [] } as unknown as MachineFacts;
  return { m, ctx };
}

describe('a normal user, toolkit outside HOME', () => {
  it('is not told "already done: the loader already finds them"; it is told to run the sudo lines', async () => {
    const { ctx } = await normalUser('yes');
    const check = await configureEnvStep.check(ctx);
    expect(check.done).toBe(false);
    expect(check.reason).toBe(`the loader does not find ${ctx.toolkitDir} yet, and only root can add it: run the lines below with sudo`);
    const e = await configureEnvStep.run(ctx, { signal: new AbortController().signal, progress: () => undefined, log: () => undefined }).then(() => undefined, (error: unknown) => error);
    expect(e).toBeInstanceOf(NeedsInput);
    const need = (e as NeedsInput).need as { kind: string; message: string };
    expect(need.kind).toBe('elevation');
    expect(need.message).toContain(`sudo tee '${ctx.host.fsRoot}/etc/ld.so.conf.d/cudawiz-cuda-10.1.conf'`);
    expect(need.message).toContain('sudo ldconfig');
  });

  it('with --configure-env no, prints the same lines and says it left things as they are', async () => {
    const { ctx } = await normalUser('no');
    const done = await configureEnvStep.run(ctx, { signal: new AbortController().signal, progress: () => undefined, log: () => undefined });
    expect(done).toMatchObject({ summary: 'left as it is (--configure-env no); to do it yourself:' });
    expect((done as { evidence: string[] }).evidence).toContain('sudo ldconfig');
  });
});

describe('a toolkit path that would break the lines written from it', () => {
  it('with a newline is refused, and no ld.so.conf.d file is planned', () => {
    const plan = planEnvChanges({
      os: 'linux',
      tf: '2.3',
      cuda: '10.1',
      toolkitDir: '/usr/local/cuda-10.1\ninclude /tmp/evil',
      requiredFiles: TF23,
      toolkits: [],
      elevated: true,
      places: { home: '/home/ada', ldSoConfDir: '/etc/ld.so.conf.d', configDir: '/home/ada/.config/cudawiz', journalFile: '/home/ada/.config/cudawiz/env.json' },
      env: {},
    } as Parameters<typeof planEnvChanges>[0]);
    expect(plan.changes).toEqual([]);
    expect(plan.refusals[0].reason).toContain('not a plain absolute path');
  });
});
