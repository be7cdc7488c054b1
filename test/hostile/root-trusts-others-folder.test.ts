// Hostile class: a root change that trusts a folder others can write (#37 R1, R2). A loader file in
// /etc/ld.so.conf.d hands its folders to every program root runs; cudawiz writes one only for folders
// that root owns and no other user can write, up to `/`. Otherwise the plan stops before anything
// changes: no file under the test's private /etc stand-in (the fixture machine's root), no ldconfig.
import { chmod, chown, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEnvChanges, describeEnvPlan, planEnvChanges, prepareEnvPlan } from '../../src/env/index.js';
import { CudawizError } from '../../src/errors.js';
import type { PlanContext } from '../../src/plan/context.js';
import { cudnnForEveryoneStep } from '../../src/plan/steps/load-order.js';
import { untrustedLoaderFolder, untrustedMachinePathFolder } from '../../src/trust/loader-folder.js';
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

// Windows keeps who may write a folder in ACLs, which cudawiz does not read (Wine has none): the rule is
// Windows' defaults, as data. Only Program Files and %SystemRoot% are Administrators' and SYSTEM's alone.
describe("Windows: a Machine PATH entry only for a folder ordinary users cannot write (item 5, as data)", () => {
  const PF = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA';
  const TF23W = ['cudart64_101.dll', 'cufft64_10.dll'];
  const SYSTEM = '%SystemRoot%\\system32;%SystemRoot%';
  const env = { SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)' };
  /** An elevated run's plan for `toolkitDir`, with another CUDA's bin (`rival`) first on the saved Machine PATH or none. */
  function elevatedPlan(toolkitDir: string, rival?: string, elevated = true) {
    const machine = rival ? `${SYSTEM};${rival}\\bin` : SYSTEM;
    return planEnvChanges({
      os: 'windows', tf: '2.3', cuda: '10.1', toolkitDir, requiredFiles: TF23W,
      toolkits: [{ version: '10.1', dir: toolkitDir, files: TF23W }, ...(rival ? [{ version: '11.0', dir: rival, files: ['cufft64_10.dll'] }] : [])],
      elevated, env, places: { ldSoConfDir: '', configDir: '', journalFile: '', home: 'C:\\Users\\me' },
      windows: { processPath: machine, persisted: { Machine: { value: machine, kind: 'REG_EXPAND_SZ' }, User: { value: '', kind: 'REG_EXPAND_SZ', absent: true } }, unreadable: [] },
    });
  }

  it.each([
    ['C:\\tools\\cuda\\v10.1', 'a folder at the drive root'],
    ['C:\\Users\\me\\cuda\\v10.1', 'a user profile'],
    ['D:\\cuda\\v10.1', 'another drive'],
    ['C:\\Program Files\\..\\tools\\cuda\\v10.1', 'a path that only looks as if it were under Program Files'],
    ['C:\\Program Files Evil\\cuda\\v10.1', 'a sibling whose name begins the same'],
  ])('%s (%s), elevated: the plan stops with the reason and the fix; no Machine PATH change', (dir) => {
    const plan = elevatedPlan(dir);
    expect(plan.changes).toEqual([]);
    expect(plan.refusals).toHaveLength(1);
    expect(plan.refusals[0].reason).toContain(`will not add ${dir} to the Machine PATH`);
    expect(plan.refusals[0].reason).toContain('ordinary users can create and change files');
    expect(plan.refusals[0].fix).toContain('User PATH');
    expect(plan.refusals[0].fix).toContain('C:\\Program Files');
  });

  it('the same folder with a Machine PATH rival stops too (the Machine scope is the only one that could win)', () => {
    const plan = elevatedPlan('C:\\tools\\cuda\\v10.1', `${PF}\\v11.0`);
    expect(plan.changes).toEqual([]);
    expect(plan.refusals[0].reason).toContain('will not add C:\\tools\\cuda\\v10.1 to the Machine PATH');
  });

  it('not elevated, the same folder goes on the User PATH (only this user reads it): no stop', () => {
    const plan = elevatedPlan('C:\\tools\\cuda\\v10.1', undefined, false);
    expect(plan.refusals).toEqual([]);
    expect(plan.changes.map((c) => c.target)).toEqual(['User']);
  });

  it.each([`${PF}\\v10.1`, 'c:\\program files\\nvidia gpu computing toolkit\\cuda\\v10.1', '%ProgramFiles%\\CUDA\\v10.1', 'C:\\Program Files (x86)\\CUDA\\v10.1', 'C:\\Windows\\CUDA\\v10.1'])(
    'the control: %s, elevated, gets its Machine PATH entry',
    (dir) => {
      const plan = elevatedPlan(dir, `${PF}\\v11.0`);
      expect(plan.refusals).toEqual([]);
      expect(plan.changes.map((c) => c.target)).toEqual(['Machine']);
    },
  );

  it('the rule reads where Windows put Program Files and the Windows folder (another drive)', () => {
    const e = { ProgramFiles: 'E:\\Apps', SystemRoot: 'E:\\Win' };
    expect(untrustedMachinePathFolder('E:\\Apps\\CUDA\\v10.1', e)).toBeUndefined();
    expect(untrustedMachinePathFolder('E:\\Win\\System32', e)).toBeUndefined();
    expect(untrustedMachinePathFolder('C:\\Program Files\\CUDA\\v10.1', e)?.reason).toContain('Machine PATH');
    expect(untrustedMachinePathFolder('cuda\\v10.1', e)?.reason).toContain('Machine PATH');
  });
});
