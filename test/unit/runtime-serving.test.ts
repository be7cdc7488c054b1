// Which catalog TensorFlow versions the CUDA runtime the loader finds serves: Debian's apt CUDA 11.8
// (libraries in /usr/lib/x86_64-linux-gnu, found through the ld cache) serves TF 2.12–2.14 exactly and
// TF 2.5–2.11 by CUDA 11 minor-version compatibility; not TF 2.4 (its libcusolver.so.10 is not there).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import { cudaRuntimes, servesBuild, servingRuntimeFor } from '../../src/doctor/runtime-serving.js';
import { probeMachine } from '../../src/probe/index.js';
import { choosePlan, offeredRoutes } from '../../src/plan/choose.js';
import { onlyKinds, routeFiles } from '../../src/routes/index.js';
import { routeTotal } from '../../src/bundle/describe.js';
import { loadRedistCatalog } from '../../src/redist/catalog.js';
import { aptCuda, aptLdCacheLines } from '../fixtures/apt-cuda.js';
import { fixtureMachine, TOOLKIT_LIBRARIES } from '../fixtures/machine.js';

const catalog = builtinCatalog();

async function aptMachine(env: Record<string, string> = { PATH: '/usr/bin' }) {
  const m = await fixtureMachine('linux', env);
  await aptCuda(m, { ldconfig: true });
  return { m, facts: await probeMachine(m.host, { cudaRoot: '/usr/local' }) };
}

describe('minor-version compatibility', () => {
  it('holds within a major from CUDA 11 on, for a newer minor only', () => {
    expect(servesBuild('11.8', '11.8')).toBe('exact');
    expect(servesBuild('11.8', '11.2')).toBe('minor-version compatibility');
    expect(servesBuild('11.2', '11.8')).toBeUndefined();
    expect(servesBuild('12.4', '11.8')).toBeUndefined();
    expect(servesBuild('10.2', '10.1')).toBeUndefined();
  });
});

describe('the CUDA runtimes on the loader path', () => {
  it("credits apt's 11.8 for TF 2.5–2.14: exactly for 2.12–2.14, by minor-version compatibility (driver ≥ 450.80.02) for 2.5–2.11", async () => {
    const { facts } = await aptMachine();
    const [runtime, ...more] = cudaRuntimes(catalog, facts);
    expect(more).toEqual([]);
    expect(runtime).toMatchObject({ dir: '/usr/lib/x86_64-linux-gnu', via: 'ld cache', cudart: 'libcudart.so.11.0', version: '11.8.89', majorMinor: '11.8', from: 'toolkit', toolkit: '/usr' });
    const majorMinors = (list: { tf: string }[]) => list.map((s) => s.tf.split('.').slice(0, 2).join('.'));
    expect(majorMinors(runtime.serves.filter((s) => s.how === 'exact'))).toEqual(['2.14', '2.13', '2.12']);
    const compat = runtime.serves.filter((s) => s.how === 'minor-version compatibility');
    expect(majorMinors(compat)).toEqual(['2.11', '2.10', '2.9', '2.8', '2.7', '2.6', '2.5']);
    expect(new Set(compat.map((s) => s.driverMin))).toEqual(new Set(['450.80.02']));
    expect(runtime.notServed).toEqual([{ tf: '2.4.0', cuda: '11.0', missing: ['libcusolver.so.10'] }]);
  });

  it('answers the plan: a serving runtime resolves for TF 2.11 and 2.12, none for 2.15 (CUDA 12) or 2.4', async () => {
    const { facts } = await aptMachine();
    expect(servingRuntimeFor(catalog, facts, '2.11')).toMatchObject({ runtime: { dir: '/usr/lib/x86_64-linux-gnu' }, served: { tf: '2.11.0', cuda: '11.2', how: 'minor-version compatibility', driverMin: '450.80.02' } });
    expect(servingRuntimeFor(catalog, facts, '2.12.1')).toMatchObject({ served: { tf: '2.12.0', how: 'exact' } });
    expect(servingRuntimeFor(catalog, facts, '2.15')).toBeUndefined();
    expect(servingRuntimeFor(catalog, facts, '2.4')).toBeUndefined();
    expect(servingRuntimeFor(catalog, facts, 'nonsense')).toBeUndefined();
  });

  it('an older copy of the same soname earlier on the path is the runtime TF loads, and is judged as such', async () => {
    const { m } = await aptMachine();
    await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']] });
    const facts = await probeMachine({ ...m.host, env: { PATH: '/usr/bin', LD_LIBRARY_PATH: '/usr/local/cuda-11.2/lib64' } }, { cudaRoot: '/usr/local' });
    const runtime = cudaRuntimes(catalog, facts).find((r) => r.cudart === 'libcudart.so.11.0');
    expect(runtime).toMatchObject({ dir: '/usr/local/cuda-11.2/lib64', via: 'LD_LIBRARY_PATH', majorMinor: '11.2' });
    expect(runtime?.serves.map((s) => s.cuda)).not.toContain('11.8');
    expect(servingRuntimeFor(catalog, facts, '2.12')).toBeUndefined();
    expect(servingRuntimeFor(catalog, facts, '2.11')?.served.how).toBe('exact');
  });

  it('the doctor says it: the runtime finding, and the toolkit credited for TF 2.11 with only cuDNN missing', async () => {
    const { facts } = await aptMachine();
    const byId = Object.fromEntries(diagnose(catalog, facts, { tf: '2.11' }).map((f) => [f.id, f]));
    expect(byId['cuda-runtime:/usr/lib/x86_64-linux-gnu']).toMatchObject({
      status: 'pass',
      title: 'CUDA 11.8.89 runtime at /usr/lib/x86_64-linux-gnu (libcudart.so.11.0) serves TensorFlow 2.5–2.14',
      evidence: expect.arrayContaining([
        'exactly: TensorFlow 2.12–2.14 (built with CUDA 11.8)',
        'by CUDA 11 minor-version compatibility: TensorFlow 2.5–2.11 (built with CUDA 11.2); needs driver 450.80.02 or newer',
        'not TensorFlow 2.4 (built with CUDA 11.0): no libcusolver.so.10',
      ]),
    });
    expect(byId.toolkit).toMatchObject({ status: 'pass', title: expect.stringContaining("CUDA 11.2's libraries from CUDA 11.8") });
    expect(byId['toolkit-complete']).toBeUndefined();
    for (const lib of ['cudart', 'cublas', 'cublasLt', 'cufft', 'curand', 'cusolver', 'cusparse']) expect(byId[`library:${lib}`]?.status).toBe('pass');
    expect(byId.cudnn.status).toBe('fail');
    expect(byId['library:cudnn'].status).toBe('fail');
  });
});

describe("the plan over apt's CUDA (install and repair alike)", () => {
  it('TF 2.12 and 2.11: cuDNN only, into a folder of its own under the CUDA root, put first for new shells; no installer, no ld.so.conf.d', async () => {
    const { m } = await aptMachine();
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'rtx2060-laptop');
    await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
    // The driver's library in the ld cache too, as libcuda1's ldconfig trigger leaves it.
    await m.script('/sbin/ldconfig', `cat <<'EOF'\n9 libs found in cache \`/etc/ld.so.cache'\n${aptLdCacheLines()}\n\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\nEOF`);
    const facts = await probeMachine(m.host, { cudaRoot: '/usr/local', catalog });
    const machine = { catalog, host: m.host, redist: () => loadRedistCatalog() };
    for (const [tf, cudnn] of [['2.12', '8.6'], ['2.11', '8.1']]) {
      for (const mode of ['install', 'repair'] as const) {
        const plan = choosePlan(machine, { mode, tf, facts, options: { yes: true, configureEnv: 'no', command: 'cudawiz', cudaRoot: '/usr/local' } });
        expect(plan.stepIds.filter((id) => id !== 'left-to-you'), `${mode} ${tf}`).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'load-order', 'verify']);
        expect(plan.ctx.cudnnDir).toBe(`/usr/local/cudnn-${cudnn}-cuda11`);
        expect(plan.lockTarget).toBe(plan.ctx.cudnnDir);
      }
    }
    // The wizard offers that route first, and sizes it as what it brings: the cuDNN archive alone.
    expect(offeredRoutes(machine, '2.12', facts)[0]).toBe('toolkit');
    expect(offeredRoutes(machine, '2.12')[0]).toBe('redist');
    const toolkit = routeFiles(catalog, loadRedistCatalog(), '2.12', 'linux', 'toolkit');
    const cudnnOnly = onlyKinds(toolkit, ['cudnn']);
    expect(cudnnOnly.files.map((f) => f.kind)).toEqual(['cudnn']);
    expect(cudnnOnly.needs.admin).toBe(false);
    expect(routeTotal(cudnnOnly)).toBe('1 file, 824.4 MiB in all');
    // Under sudo, the folder of its own is root's: the plan says so, and how to make it the user's.
    const sudo = { ...machine, host: { ...m.host, env: { ...m.host.env, SUDO_USER: 'alice', HOME: '/root' }, home: '/root' } };
    const events: { type: string; steps?: { id: string; reason?: string }[] }[] = [];
    await choosePlan(sudo, { mode: 'install', tf: '2.12', facts, options: { yes: true, configureEnv: 'no', command: 'cudawiz' } }).run({ signal: new AbortController().signal, dryRun: true, onEvent: (e) => events.push(e) });
    const reason = events.find((e) => e.type === 'plan')!.steps!.find((x) => x.id === 'import-cudnn')!.reason;
    expect(reason).toBe("include, lib into /root/.local/share/cudawiz/cudnn-8.6-cuda11 (nothing of the distribution's packages is written), under a manifest — for root only (this runs under sudo); for alice, run it without sudo: it needs no administrator");
    // Without a GPU driver it stops, changing nothing, whichever door.
    const bare = await aptMachine();
    const noDriver = await probeMachine(bare.m.host, { cudaRoot: '/usr/local', catalog });
    expect(choosePlan({ ...machine, host: bare.m.host }, { mode: 'install', tf: '2.12', facts: noDriver, options: { yes: true, configureEnv: 'no', command: 'cudawiz' } }).stepIds).toEqual(['stop']);
  });

  it("the doctor judges the cuDNN the loader finds beside a distro's CUDA, and sends the user to install, not to a login", async () => {
    const { m } = await aptMachine();
    const home = '/home/u/.local/share/cudawiz/cudnn-8.6-cuda11';
    await m.file(`${home}/lib64/libcudnn.so.8`, 'ELF');
    await m.file(`${home}/include/cudnn_version.h`, '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n');
    const before = Object.fromEntries(diagnose(catalog, await probeMachine(m.host, { cudaRoot: '/usr/local' }), { tf: '2.12' }).map((f) => [f.id, f]));
    expect(before.cudnn).toMatchObject({ status: 'fail', title: 'No cuDNN in CUDA 11.8.89 at /usr (TensorFlow 2.12 needs cuDNN 8.6)' });
    expect(before.cudnn.fix).toContain('cudawiz install --tf 2.12 puts cuDNN 8.6 in a folder of its own');
    const onPath = await probeMachine({ ...m.host, env: { PATH: '/usr/bin', LD_LIBRARY_PATH: `${home}/lib64` } }, { cudaRoot: '/usr/local' });
    const after = Object.fromEntries(diagnose(catalog, onPath, { tf: '2.12' }).map((f) => [f.id, f]));
    expect(after.cudnn).toMatchObject({ status: 'pass', title: `cuDNN 8.6.0 in ${home}/lib64 (needs 8.6)` });
  });
});

describe("the plan over NVIDIA's CUDA 11.8 for TF 2.11 (built with 11.2)", () => {
  it('cuDNN 8.1 goes into the 11.8 toolkit TF loads (minor-version compatible); no 11.2 installer, no second toolkit', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin', LD_LIBRARY_PATH: '/usr/local/cuda-11.8/lib64:/usr/lib/x86_64-linux-gnu' });
    await m.toolkit('/usr/local/cuda-11.8', { version: '11.8.89', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']] });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'rtx2060-laptop');
    await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
    const facts = await probeMachine(m.host, { cudaRoot: '/usr/local', catalog });
    const machine = { catalog, host: m.host, redist: () => loadRedistCatalog() };
    for (const mode of ['install', 'repair'] as const) {
      const plan = choosePlan(machine, { mode, tf: '2.11', facts, options: { yes: true, configureEnv: 'no', command: 'cudawiz', cudaRoot: '/usr/local' } });
      expect(plan.stepIds.filter((id) => id !== 'left-to-you'), mode).toEqual(['cuda-serves', 'disk-space', 'obtain-cudnn', 'import-cudnn', 'verify']);
      expect(plan.ctx.toolkitDir).toBe('/usr/local/cuda-11.2');
      expect(plan.ctx.cudnnDir).toBe('/usr/local/cuda-11.8');
    }
    // TF 2.12's own toolkit is the route's: its own steps, which skip what is healthy there.
    expect(choosePlan(machine, { mode: 'install', route: 'toolkit', tf: '2.12', facts, options: { yes: true, configureEnv: 'no', command: 'cudawiz', cudaRoot: '/usr/local' } }).stepIds).toContain('download-cuda');
  });
});

describe("an older cudawiz's own ld.so.conf.d file behind a stale copy", () => {
  async function withConf(head: string) {
    const { m } = await aptMachine();
    await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: ['libcudart.so.11.0'] });
    await m.file('/etc/ld.so.conf.d/cudawiz-cuda-11.2.conf', `${head}/usr/local/cuda-11.2/lib64\n`);
    // The cache as ldconfig builds it from that file: 11.2's libcudart first, apt's after it.
    await m.script('/sbin/ldconfig', `cat <<'EOF'\n9 libs found in cache \`/etc/ld.so.cache'\n\tlibcudart.so.11.0 (libc6,x86-64) => /usr/local/cuda-11.2/lib64/libcudart.so.11.0\n${aptLdCacheLines()}\nEOF`);
    const facts = await probeMachine(m.host, { cudaRoot: '/usr/local', catalog });
    return { facts, byId: Object.fromEntries(diagnose(catalog, facts, { tf: '2.12' }).map((f) => [f.id, f])) };
  }

  it('is named as cudawiz\'s own and its fix takes it away for every program; repair plans its removal, not an order around it', async () => {
    const { facts, byId } = await withConf('# Written by cudawiz: CUDA 11.2 for TensorFlow 2.11. `cudawiz rollback` removes it.\n');
    expect(facts.search.cudawizConfs).toEqual([{ file: '/etc/ld.so.conf.d/cudawiz-cuda-11.2.conf', dirs: ['/usr/local/cuda-11.2/lib64'] }]);
    const lo = byId['load-order:/usr/lib/x86_64-linux-gnu'];
    expect(lo.evidence).toContain('/etc/ld.so.conf.d/cudawiz-cuda-11.2.conf was written by cudawiz (an older run): it gives that folder to every program on the machine');
    expect(lo.fix).toMatch(/^cudawiz repair --tf 2\.12 removes cudawiz's own \/etc\/ld\.so\.conf\.d\/cudawiz-cuda-11\.2\.conf/);
    // TF's toolkit is apt's complete one, shadowed — not the partial 11.2 folder that wins libcudart.
    expect(byId['toolkit-complete']).toBeUndefined();
    expect(byId.toolkit).toMatchObject({ status: 'pass', title: 'CUDA 11.8 installed: /usr' });
  });

  it("is left alone when it is not cudawiz's (no header of ours): the fix is the per-user order", async () => {
    const { facts, byId } = await withConf('# an admin wrote this\n');
    expect(facts.search.cudawizConfs).toEqual([]);
    expect(byId['load-order:/usr/lib/x86_64-linux-gnu'].fix).toMatch(/^cudawiz repair --tf 2\.12 puts \/usr\/lib\/x86_64-linux-gnu first for your new shells/);
  });
});
