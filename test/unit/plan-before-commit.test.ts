// The plan says what is true before the user commits: which Python can take the TF, what it will
// download and how much disk it needs (checked against the free space), which files the loader step
// changes; afterwards a failed verify names the library; an overlay entry that matches nothing warns.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOverlay, builtinCatalog } from '../../src/catalog/load.js';
import { realHost } from '../../src/host.js';
import { createPlanContext } from '../../src/plan/context.js';
import { toolkitEnvStep as configureEnvStep, toolkitSpaceStep as diskSpaceStep, toolkitVerifyStep as verifyStep } from '../../src/plan/routes/toolkit.js';
import { pythonStep } from '../../src/plan/steps/python.js';
import { probeMachine } from '../../src/probe/index.js';
import { scanSummary, tfChoices } from '../../src/wizard/services.js';
import { runCli } from '../helpers/cli.js';
import { installByHand, laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { fakeTensorflow, fixtureMachine, hostPython } from '../fixtures/machine.js';

const catalog = builtinCatalog();

/** A Linux machine whose python3 is this host's real Python (3.11 here), with TF `tf` pip-installed, and a python3.8 beside it. */
async function machineWithPython(tf: string) {
  const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
  const site = '/home/me/.local/lib/python3/site-packages';
  await fakeTensorflow(m, site, tf, { cuda_version: '10.1', cudnn_version: '7', is_cuda_build: true });
  await m.script('/usr/bin/python3', `PYTHONPATH="${m.hostPath(site)}" exec "${await hostPython()}" "$@"`);
  await m.script('/usr/bin/python3.8', 'echo "Python 3.8.18"');
  return m;
}

describe('which Python can take the TensorFlow', () => {
  it('Python 3.11 and TF 2.3: the version list marks 2.3, the plan says so and names python3.8 and its venv', async () => {
    const m = await machineWithPython('2.3.0');
    const py = (await probeMachine(m.host)).python.version!;
    const mm = py.split('.').slice(0, 2).join('.');
    const facts = await probeMachine(m.host, { catalog });
    const { choices } = tfChoices(catalog, m.host, scanSummary(catalog, facts), facts);
    expect(choices.find((c) => c.version === '2.3.0')?.pythonCannot).toBe(`(you have ${mm})`);
    const fits = choices.filter((c) => !c.pythonCannot).map((c) => c.version);
    expect(fits.length).toBeGreaterThan(0);

    const ctx = createPlanContext(catalog, m.host, { tf: '2.3', cudaRoot: '/usr/local', configureEnv: 'no', command: 'cudawiz', cacheDir: await tempDir() });
    const check = await pythonStep.check(ctx);
    expect(check.done).toBe(false);
    expect(check.reason).toContain(`Python ${py} cannot install TensorFlow 2.3 (it takes 3.5–3.8)`);
    expect(check.reason).toContain('use python3.8 -m venv .venv-tf2.3');
    const done = await pythonStep.run(ctx, { signal: new AbortController().signal, progress: () => {}, log: () => {} });
    expect(done?.evidence).toEqual(['then: .venv-tf2.3/bin/pip install tensorflow==2.3.0']);
  });

  it('a TF this Python can take: the step is already done', async () => {
    const m = await machineWithPython('2.16.1');
    const ctx = createPlanContext(catalog, m.host, { tf: '2.16', cudaRoot: '/usr/local', configureEnv: 'no', command: 'cudawiz', cacheDir: await tempDir() });
    expect(await pythonStep.check(ctx)).toMatchObject({ done: true, reason: expect.stringContaining('can install TensorFlow 2.16') });
  });
});

describe('download sizes and disk space, before "Go ahead"', () => {
  const host = () => realHost({ PATH: process.env.PATH ?? '', HOME: '/nonexistent' });
  const withSize = (size: number) => applyOverlay(catalog, { cuda: [{ version: '10.1.243', installers: { linux: { size } } }] });

  it('the CUDA 10.1 runfile (2.4 GiB in the catalog) and its unpacking: the totals against the free space', async () => {
    const ctx = createPlanContext(withSize(2_572_375_580), host(), { tf: '2.3', cudaRoot: await tempDir(), cacheDir: await tempDir(), downloadsDir: await tempDir(), configureEnv: 'no', command: 'cudawiz' });
    const check = await diskSpaceStep.check(ctx);
    expect(check.done).toBe(false);
    expect(check.reason).toMatch(/^Downloads at least 2\.4 GiB \(1 size unknown\); needs at least 12\.0 GiB of disk \([\d.]+ [KMGT]iB free\)/);
    // The gated cuDNN archive has no size the catalog knows: the total says it is a lower bound.
    expect(check.reason).not.toMatch(/0 B/);
  });

  it('more than the disk has: the plan says it will stop, and the step stops before any download', async () => {
    const ctx = createPlanContext(withSize(2 ** 52), host(), { tf: '2.3', cudaRoot: await tempDir(), cacheDir: await tempDir(), downloadsDir: await tempDir(), configureEnv: 'no', command: 'cudawiz' });
    expect((await diskSpaceStep.check(ctx)).reason).toMatch(/^will stop: Not enough disk space: the plan needs about 20\.0 PiB|^will stop: Not enough disk space: the plan needs about 20480\.0 TiB/);
    await expect(diskSpaceStep.run(ctx, { signal: new AbortController().signal, progress: () => {}, log: () => {} })).rejects.toMatchObject({ code: 'not-enough-space' });
  });

  it('without a size in the catalog, the server says it (HEAD through the mirror)', async () => {
    const m = await laptop();
    try {
      const r = await runCli(['install', '--tf', '2.3', '--dry-run', '--json', '--configure-env', 'no', ...m.globals], { host: { ...realHost(m.env), home: m.home } });
      const plan = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'plan');
      expect(plan.steps.find((s: { id: string }) => s.id === 'disk-space').reason).toMatch(/^Downloads [\d.]+ KiB; needs about [\d.]+ KiB of disk \(/);
      expect(m.mirror.requests.filter((q) => q.method === 'GET')).toHaveLength(0);
    } finally {
      await m.mirror.close();
    }
  });
  it('a HEAD that is redirected to plain http:// is not followed: the size is unknown, said so, and nothing else is asked', async () => {
    const m = await laptop();
    // A plain-http server on every interface, reached as 0.0.0.0 — not loopback by our rule, so a
    // HEAD that followed the redirect would show up here.
    let reached = 0;
    const elsewhere = http.createServer((_req, res) => {
      reached++;
      res.writeHead(200, { 'content-length': '4096' }).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '0.0.0.0', resolve));
    try {
      const port = (elsewhere.address() as AddressInfo).port;
      m.mirror.fault({ mode: 'hostile-redirect', path: '.run', times: Infinity, location: `http://0.0.0.0:${port}/cuda.run` });
      const r = await runCli(['install', '--tf', '2.3', '--dry-run', '--json', '--configure-env', 'no', ...m.globals], { host: { ...realHost(m.env), home: m.home } });
      const plan = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((e) => e.type === 'plan');
      expect(plan.steps.find((s: { id: string }) => s.id === 'disk-space').reason).toMatch(/^Downloads size unknown; [\d.]+ [KMGT]iB free on disk$/);
      const heads = m.mirror.requests.filter((q) => q.method === 'HEAD' && q.path.endsWith('.run'));
      expect(heads).toHaveLength(1);
      expect(heads[0].fault).toBe('hostile-redirect');
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
      await m.mirror.close();
    }
  });
});

describe('the loader step names its changes', () => {
  it('"2 changes: /etc/ld.so.conf.d/….conf, run ldconfig", not "2 change(s) planned"', async () => {
    const home = await tempDir('cw-home-');
    const ctx = createPlanContext(catalog, { ...realHost({ PATH: process.env.PATH ?? '', HOME: home }), home }, { tf: '2.3', cudaRoot: await tempDir(), cacheDir: await tempDir(), configureEnv: 'no', command: 'cudawiz' });
    const check = await configureEnvStep.check(ctx);
    // As root: a loader config file and ldconfig; as a user: an env script sourced from the shell's rc.
    const script = path.join(home, '.config/cudawiz/env-cuda-10.1.sh');
    expect(check.reason).toMatch(process.getuid?.() === 0 ? /^2 changes: \/etc\/ld\.so\.conf\.d\/\S+\.conf, run ldconfig$/ : new RegExp(`^\\d+ changes?: .*${script.replace(/[.]/g, '\\.')}`));
  });
});

describe('a failed verify says which library and why', () => {
  it('CUDA 10.1 installed, no cuDNN: "libcudnn.so.7 is not found anywhere", not the layer\'s title', async () => {
    const m = await laptop();
    try {
      await installByHand(m, 'cuda_10.1.243_418.87.00_linux.run', '10.1', 'libcublas.so.10 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.10');
      const ctx = createPlanContext(catalog, { ...realHost(m.env), home: m.home }, { tf: '2.3', cudaRoot: m.cudaRoot, cacheDir: m.cache, configureEnv: 'no', command: 'cudawiz' });
      const error = await verifyStep.run(ctx, { signal: new AbortController().signal, progress: () => {}, log: () => {} }).then(() => undefined, (e: Error) => e);
      expect(error?.message).toMatch(/^libcudnn\.so\.7 is not found anywhere/);
      expect(error?.message).not.toContain('libraries resolve to');
    } finally {
      await m.mirror.close();
    }
  });
});

describe('an overlay entry that matches nothing', () => {
  const sha = 'a'.repeat(64);
  it('cuDNN "7.6.5" for CUDA 10.1 is the catalog\'s 7.6.5.32 (the only entry with that prefix): merged, no new release', () => {
    const c = applyOverlay(catalog, { cudnn: [{ version: '7.6.5', cuda: '10.1', archives: { linux: { sha256: sha } } }] });
    const r = c.cudnn.releases.filter((x) => x.cuda === '10.1' && x.version.startsWith('7.6.5'));
    expect(r.map((x) => x.version)).toEqual(['7.6.5.32']);
    expect(r[0].archives.linux?.sha256).toBe(sha);
    expect(c.warnings).toBeUndefined();
  });

  it('one that names no entry warns, naming the nearest; commands print it', async () => {
    const entry = { version: '7.6.4', cuda: '10.1', archives: { linux: { file: 'cudnn-10.1-linux-x64-v7.6.4.38.tgz', url: 'https://developer.download.nvidia.com/compute/redist/cudnn/v7.6.4/cudnn-10.1-linux-x64-v7.6.4.38.tgz', sha256: sha } } };
    const c = applyOverlay(catalog, { cudnn: [entry] }, 'overlay.json');
    expect(c.warnings).toEqual([expect.stringContaining('overlay.json: cudnn[0]: cuDNN 7.6.4 for CUDA 10.1 matches no catalog entry')]);
    expect(c.warnings![0]).toContain('the nearest catalog entry is 7.6.5.32 for CUDA 10.1');
    const dir = await fixtureMachine('linux');
    const overlay = await dir.file('/overlay.json', JSON.stringify({ cudnn: [entry] }));
    const r = await runCli(['requirements', '--tf', '2.3', '--os', 'linux', '--catalog', overlay]);
    expect(r.stderr).toContain('matches no catalog entry');
  });
});
