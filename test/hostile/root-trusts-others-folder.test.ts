// Hostile class: a root change that trusts a folder others can write (#37 R1, R2). A loader file in
// /etc/ld.so.conf.d hands its folders to every program root runs; cudawiz writes one only for folders
// that root owns and no other user can write, up to `/`. Otherwise the plan stops before anything
// changes: no file under the test's private /etc stand-in (the fixture machine's root), no ldconfig.
import { chmod, chown, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEnvChanges, describeEnvPlan, prepareEnvPlan } from '../../src/env/index.js';
import { CudawizError } from '../../src/errors.js';
import type { PlanContext } from '../../src/plan/context.js';
import { cudnnForEveryoneStep } from '../../src/plan/steps/load-order.js';
import { untrustedLoaderFolder } from '../../src/trust/loader-folder.js';
import { NOBODY } from '../fixtures/cuda-installer/unprivileged.js';
import { linuxMachine, makeLinuxToolkit, tfLibraryFiles } from '../unit/env-fixtures.js';

const asRoot = process.getuid?.() === 0;
const TF23 = tfLibraryFiles('2.3', 'linux');

/** A root `install --cuda-root W`'s environment step on a fixture machine whose /etc is its own. */
async function rootInstallInto(prepare: (w: string) => Promise<void>) {
  const m = await linuxMachine();
  const w = path.join(m.root, 'W');
  await mkdir(w);
  const cuda = path.join(w, 'cuda-10.1');
  await makeLinuxToolkit(cuda, [...TF23, 'libcupti.so.10.1']);
  await prepare(w);
  const { plan, places } = await prepareEnvPlan({ host: m.host, tf: '2.3', cuda: '10.1', toolkitDir: cuda, requiredFiles: TF23, toolkits: [], elevated: true, root: m.root });
  const applied = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
  const confs = await readdir(path.join(m.root, 'etc/ld.so.conf.d'));
  return { m, w, cuda, plan, applied, confs, calls: await m.calls() };
}

describe.runIf(asRoot)('root never hands a folder others can change to every program', () => {
  it('R1: --cuda-root W with W mode 0777: the plan stops with the reason and the fix; no loader file, no ldconfig', async () => {
    const r = await rootInstallInto((w) => chmod(w, 0o777));
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.refusals).toHaveLength(1);
    expect(r.plan.refusals[0].reason).toContain(`will not make ${r.cuda}/lib64 a folder every program on this machine loads libraries from: ${r.w} is writable by other users`);
    expect(r.plan.refusals[0].fix).toContain(`sudo chmod go-w "${r.w}"`);
    expect(describeEnvPlan(r.plan).join('\n')).toContain('writable by other users');
    expect(r.confs).toEqual(['libc.conf']);
    expect(r.calls).toEqual([]);
  });

  it('R2: --cuda-root W with W owned by another user (0755): the same stop, naming the owner', async () => {
    const r = await rootInstallInto((w) => chown(w, NOBODY, NOBODY));
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.refusals[0].reason).toContain(`${r.w} is owned by user ${NOBODY}, neither root nor you`);
    expect(r.plan.refusals[0].fix).toContain(`sudo chown root: "${r.w}"`);
    expect(r.confs).toEqual(['libc.conf']);
    expect(r.calls).toEqual([]);
  });

  it('a folder above the toolkit that others can write counts too, up to /', async () => {
    const m = await linuxMachine();
    const shared = path.join(m.root, 'shared');
    const deep = path.join(shared, 'a', 'b', 'cuda-10.1', 'lib64');
    await mkdir(deep, { recursive: true });
    await chmod(shared, 0o777);
    expect((await untrustedLoaderFolder([deep]))?.culprit).toBe(shared);
    // The sticky /tmp the fixture sits under is no reason: others cannot swap root's entries there.
    await chmod(shared, 0o755);
    expect(await untrustedLoaderFolder([deep])).toBeUndefined();
  });

  it("the control: W root's and 0755 gets its loader file and ldconfig (the stop above is the folder, not the fixture)", async () => {
    const r = await rootInstallInto(async () => undefined);
    expect(r.plan.refusals).toEqual([]);
    expect(r.applied.ok).toBe(true);
    expect(r.confs).toContain('cudawiz-cuda-10.1.conf');
    expect(r.calls.length).toBeGreaterThan(0);
  });

  it("cuDNN's folder for everyone: a folder others can write stops the step at its check (the dry run) and its run, before anything is written", async () => {
    const m = await linuxMachine();
    const lib = path.join(m.root, 'opt', 'cudnn', 'lib');
    await mkdir(lib, { recursive: true });
    await chmod(path.join(m.root, 'opt'), 0o777);
    const step = cudnnForEveryoneStep(lib, []);
    const ctx = { host: { ...m.host, fsRoot: m.root }, tf: '2.12', configureEnv: 'yes', req: { cudnn: '8.6', libraries: [] } } as unknown as PlanContext;
    const check = await step.check(ctx);
    expect(check.stop).toBeInstanceOf(CudawizError);
    expect(check.stop?.message).toContain(`${path.join(m.root, 'opt')} is writable by other users`);
    await expect(step.run(ctx, { log: () => undefined } as never)).rejects.toMatchObject({ code: 'loader-folder-untrusted' });
    expect(await readdir(path.join(m.root, 'etc/ld.so.conf.d'))).toEqual(['libc.conf']);
    expect(await m.calls()).toEqual([]);
  });
});
