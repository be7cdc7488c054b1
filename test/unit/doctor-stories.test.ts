// The doctor on whole machines: each story builds a fixture machine, runs the real CLI in-process
// (or diagnose on probed facts), and reads the verdicts a user would read.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { TOOLKIT_LIBRARIES, fakeTensorflow, fixtureMachine, hostPython, type FixtureMachine } from '../fixtures/machine.js';
import { CUDA, PYTHON38, seedLaptop } from '../fixtures/seed-laptop.js';

const byId = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.id, f]));

describe("the seed's Windows laptop", () => {
  it('CUDA 11.0 + cuDNN 8 installed, TF 2.3 wanted: install 10.1 beside it, nothing to uninstall (exit 1)', async () => {
    const m = await seedLaptop();
    const r = await runCli(['doctor', '--json'], { host: m.host });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['os', 'gpus', 'driver', 'toolkits', 'cudnn', 'python', 'tensorflow', 'findings']);
    expect(doc.toolkits).toEqual([expect.objectContaining({ version: '11.0.228', path: `${CUDA}\\v11.0` })]);
    expect(doc.cudnn).toEqual([expect.objectContaining({ version: '8.0.4', path: `${CUDA}\\v11.0` })]);
    expect(doc.tensorflow).toMatchObject({ version: '2.3.0', importable: true });
    const f = byId(doc.findings);
    expect(f['tf-target']).toMatchObject({ status: 'pass', title: 'Checking for TensorFlow 2.3.0 (pip-installed tensorflow 2.3.0)' });
    expect(f.gpu).toMatchObject({ status: 'pass', title: 'NVIDIA GPU: NVIDIA GeForce RTX 2060' });
    expect(f.driver).toMatchObject({ status: 'pass', title: 'NVIDIA driver 525.78.01 ≥ 418.96 (CUDA 10.1)' });
    expect(f.toolkit.status).toBe('fail');
    expect(f.toolkit.title).toBe('CUDA 10.1 is not installed (found 11.0.228)');
    expect(f.toolkit.fix).toBe('Install CUDA 10.1 beside it; nothing to uninstall — toolkits live side by side: cudawiz install --tf 2.3.0');
    // cuFFT 10 is in 11.0's bin too — but it is 11.0's copy, not what TF 2.3 was built against.
    // …said once, under the toolkit finding whose fix covers it (each distinct fix once).
    expect(f['library:cufft']).toBeUndefined();
    expect(f.toolkit.evidence.join('\n')).toMatch(/load a wrong copy, and no right one is on this machine: .*cufft64_10\.dll/);
    expect(f['library:cudnn']).toMatchObject({ status: 'fail', title: 'cudnn64_7.dll is not found anywhere' });
    // cuDNN 8 in 11.0 was seen: the report says so, and that it cannot serve TF 2.3 (nor needs removing).
    expect(f['library:cudnn'].evidence).toContain(`cuDNN 8.0.4 is in ${CUDA}\\v11.0, but TensorFlow 2.3.0 loads cudnn64_7.dll: a cuDNN of another major does not serve it (it can stay)`);
    expect(f['library:cuda']).toMatchObject({ status: 'pass', title: 'nvcuda.dll → C:\\Windows\\System32' });
    expect(f.python).toMatchObject({ status: 'pass', title: 'Python 3.8.5 (64-bit) within 3.5–3.8' });
    expect(f['windows-native'].status).toBe('pass');
    expect(f['msvc-runtime'].status).toBe('pass');
  });

  it('prints a readable report: compact pass lines, each problem with its fix, and a pasteable block', async () => {
    const m = await seedLaptop();
    const r = await runCli(['doctor', '--no-color'], { host: { ...m.host, env: { ...m.host.env, CUDAWIZ_ASCII: '1' } } });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('[ok] NVIDIA GPU: NVIDIA GeForce RTX 2060');
    const at = lines.indexOf('[XX] CUDA 10.1 is not installed (found 11.0.228)');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at, at + 4).join('\n')).toContain('→ Install CUDA 10.1 beside it; nothing to uninstall');
    expect(r.stdout).toMatch(/To share this, paste the block below:\n```\ncudawiz \d+\.\d+\.\d+ doctor\nos: windows\ngpus: 0: NVIDIA GeForce RTX 2060 \(cc 7\.5\)\n/);
    expect(r.stdout).toContain('[XX] toolkit: CUDA 10.1 is not installed (found 11.0.228)');
  });

  it('fixed — 10.1 with cuDNN 7.6.5 beside 11.0, 10.1 first on PATH: everything passes (exit 0)', async () => {
    const m = await seedLaptop({ fixed: true });
    const r = await runCli(['doctor', '--json'], { host: m.host });
    const doc = JSON.parse(r.stdout);
    const problems = doc.findings.filter((f: Finding) => f.status !== 'pass');
    expect(problems).toEqual([]);
    expect(r.code).toBe(0);
    const f = byId(doc.findings);
    expect(f.toolkit.title).toBe(`CUDA 10.1 installed: ${CUDA}\\v10.1`);
    expect(f.cudnn.title).toBe(`cuDNN 7.6.5 in CUDA 10.1.243 at ${CUDA}\\v10.1 (needs 7.6)`);
    expect(f['library:cudart'].title).toBe(`cudart64_101.dll → ${CUDA}\\v10.1\\bin`);
  });

  it("fixed, but 11.0's bin comes first on PATH: its cufft64_10.dll shadows 10.1's, and the fix says which folder to move up", async () => {
    const m = await seedLaptop({ fixed: true, cuda110First: true });
    const facts = await probeMachine(m.host, { catalog: builtinCatalog() });
    const f = byId(diagnose(builtinCatalog(), facts));
    // cuFFT, cuRAND and cuSOLVER shadowed by one folder: one finding, one fix, no download.
    const lo = f[`load-order:${CUDA}\\v10.1\\bin`];
    expect(lo).toMatchObject({
      status: 'fail',
      title: `3 of TensorFlow's libraries load from ${CUDA}\\v11.0\\bin (CUDA 11.0.228), ahead of the right copies in ${CUDA}\\v10.1\\bin (CUDA 10.1.243)`,
      cause: { kind: 'load-order', files: ['cufft64_10.dll', 'curand64_10.dll', 'cusolver64_10.dll'], staleDirs: [{ dir: `${CUDA}\\v11.0\\bin`, via: 'PATH' }], owner: { manager: 'none' } },
    });
    expect(lo.evidence[0]).toBe(`cufft64_10.dll: wins: ${CUDA}\\v11.0\\bin (PATH); ${CUDA}\\v10.1\\bin (PATH)`);
    expect(lo.fix).toContain(`puts ${CUDA}\\v10.1\\bin first for your new shells (nothing to download)`);
    expect(f['library:cufft']).toBeUndefined();
    expect(f['library:cudart'].status).toBe('pass');
  });
});

describe('Linux machines', () => {
  it('each distinct fix is printed once: a second finding with the same fix points back to the first (#39.5)', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'two-gpus');
    await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
    const r = await runCli(['doctor', '--tf', '2.3', '--no-color'], { host: { ...m.host, env: { ...m.host.env, CUDAWIZ_ASCII: '1' } } });
    expect(r.code).toBe(1);
    const fixes = r.stdout.split('\n').filter((l) => l.startsWith('    → '));
    // No toolkit: the toolkit finding and CUDA's missing libraries share "Install CUDA 10.1": said once, then pointed at.
    expect(fixes.filter((l) => l.includes('Install CUDA 10.1'))).toHaveLength(1);
    expect(fixes).toContain('    → the same fix as for "CUDA 10.1 is not installed" above');
    expect(new Set(fixes).size).toBe(fixes.length);
    // Beside another toolkit the toolkit's fix has other words ("beside it"), the action the same: still said once.
    await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']] });
    const beside = await runCli(['doctor', '--tf', '2.3', '--no-color'], { host: { ...m.host, env: { ...m.host.env, CUDAWIZ_ASCII: '1' } } });
    const fixesBeside = beside.stdout.split('\n').filter((l) => l.startsWith('    → '));
    expect(fixesBeside.filter((l) => l.includes('cudawiz install --tf 2.3') && !l.includes('--cudnn-archive'))).toEqual(['    → Install CUDA 10.1 beside it; nothing to uninstall — toolkits live side by side: cudawiz install --tf 2.3']);
    expect(fixesBeside).toContain('    → the same fix as for "CUDA 10.1 is not installed (found 11.2.2)" above');
  });

  async function sideBySide(): Promise<FixtureMachine> {
    const m = await fixtureMachine('linux', { PATH: '/usr/local/cuda/bin:/usr/bin:/bin', LD_LIBRARY_PATH: '/usr/local/cuda-11.2/lib64' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'two-gpus');
    await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
    await m.script('/sbin/ldconfig', `echo "4 libs found in cache \\\`/etc/ld.so.cache'"\nprintf '\\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\\n'`);
    await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.linux['10.1']], cudnn: '7.6.5' });
    await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']], cudnn: '8.1.0' });
    await m.link('/usr/local/cuda', 'cuda-11.2');
    return m;
  }

  it('10.1 and 11.2 side by side, LD_LIBRARY_PATH on 11.2: 10.1 is installed but off the path, and 11.2 shadows cuFFT', async () => {
    const m = await sideBySide();
    const r = await runCli(['doctor', '--tf', '2.3', '--json'], { host: m.host });
    expect(r.code).toBe(1);
    const f = byId(JSON.parse(r.stdout).findings);
    expect(f.toolkit).toMatchObject({ status: 'pass', title: 'CUDA 10.1 installed: /usr/local/cuda-10.1' });
    // Off the path or shadowed by 11.2, one fix for all: 10.1's lib64 first (one finding, not eight).
    const lo = f['load-order:/usr/local/cuda-10.1/lib64'];
    expect(lo.status).toBe('fail');
    expect(lo.title).toMatch(/^\d of TensorFlow's libraries load from \/usr\/local\/cuda-11\.2\/lib64 \(CUDA 11\.2\.2\), ahead of the right copies in \/usr\/local\/cuda-10\.1\/lib64 \(CUDA 10\.1\.243, cuDNN 7\.6\.5\); \d more are not on the library search path$/);
    expect(lo.cause).toMatchObject({ shadowed: expect.arrayContaining(['libcufft.so.10']), files: expect.arrayContaining(['libcudart.so.10.1']) });
    expect(lo.evidence).toContain('LD_LIBRARY_PATH=/usr/local/cuda-11.2/lib64');
    expect(lo.fix).toContain('export LD_LIBRARY_PATH="/usr/local/cuda-10.1/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"');
    expect(Object.keys(f).filter((id) => id.startsWith('library:') && f[id].status === 'fail')).toEqual([]);
    expect(f['library:cuda']).toMatchObject({ status: 'pass', title: 'libcuda.so.1 → /usr/lib/x86_64-linux-gnu' });
    expect(f.cudnn).toMatchObject({ status: 'pass', title: 'cuDNN 7.6.5 in CUDA 10.1.243 at /usr/local/cuda-10.1 (needs 7.6)' });
    expect(f.gpu.title).toBe('2 NVIDIA GPUs');
    // The Ada card has no machine code in TF 2.3's wheels: it runs only after a first-start PTX JIT.
    expect(f['compute-capability']).toMatchObject({
      status: 'warn',
      title: 'TensorFlow 2.3 has no machine code for NVIDIA RTX 5880 Ada Generation: its first start JIT-compiles PTX, which can take 30 minutes or more',
    });
  });

  it('the same box with LD_LIBRARY_PATH on 10.1: every library resolves to 10.1', async () => {
    const m = await sideBySide();
    const facts = await probeMachine({ ...m.host, env: { ...m.host.env, LD_LIBRARY_PATH: '/usr/local/cuda-10.1/lib64' } });
    const findings = diagnose(builtinCatalog(), facts, { tf: '2.3' });
    const libs = findings.filter((f) => f.id.startsWith('library:'));
    expect(libs.map((f) => f.status)).toEqual(libs.map(() => 'pass'));
    expect(libs).toHaveLength(8);
  });

  it('no GPU at all: says so once, skips the driver, still checks the rest', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const r = await runCli(['doctor', '--tf', '2.3', '--json'], { host: m.host });
    const doc = JSON.parse(r.stdout);
    const f = byId(doc.findings);
    expect(doc.gpus).toEqual([]);
    expect(doc.driver).toEqual({ version: null, source: null });
    expect(f.gpu).toMatchObject({ status: 'fail', evidence: ['nvidia-smi: not found', '/proc/driver/nvidia/version: absent (no NVIDIA kernel driver loaded)'] });
    expect(f.driver.status).toBe('skip');
    expect(f['compute-capability']).toBeUndefined();
    expect(f.toolkit).toMatchObject({ status: 'fail', fix: 'Install CUDA 10.1: cudawiz install --tf 2.3' });
    expect(f['libraries:toolkit'].title).toMatch(/^6 CUDA 10\.1 libraries are not found anywhere: libcudart\.so\.10\.1, /);
  });

  it('a driver too old for CUDA 10.1 (331.62 on three GTX 680): names the minimum and where to get it', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'gtx680-driver-331');
    // A name table that does not know the GTX 680, so its capability stays unknown.
    const catalog = { ...builtinCatalog(), gpus: { ...builtinCatalog().gpus, computeCapabilityByName: [] } };
    const facts = await probeMachine(m.host, { catalog });
    const f = byId(diagnose(catalog, facts, { tf: '2.3' }));
    expect(f.driver).toMatchObject({ status: 'fail', title: 'NVIDIA driver 331.62 is too old for CUDA 10.1 (needs 418.39 or newer)' });
    expect(f.driver.fix).toContain('https://www.nvidia.com/Download/index.aspx');
    expect(f['compute-capability']).toMatchObject({ status: 'warn', title: 'Compute capability unknown for GeForce GTX 680, GeForce GTX 680, GeForce GTX 680' });
    expect(f['compute-capability'].evidence).toContain('this nvidia-smi does not know the compute_cap field (driver R470 or older)');
  });

  it('garbage from nvidia-smi: a warning quoting what it printed, never a crash', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'garbage');
    const r = await runCli(['doctor', '--json'], { host: m.host });
    const f = byId(JSON.parse(r.stdout).findings);
    expect(f.gpu).toMatchObject({
      status: 'warn',
      title: 'Could not collect the GPU list: nvidia-smi answered something unreadable',
      evidence: ['/usr/bin/nvidia-smi: "GPU 0: NVIDIA GeForce RTX 2060 (UUID: GPU-<uuid>) ### output truncated"'],
    });
    expect(r.stdout).not.toContain('d0b2b12b');
  });

  it('a driver that cannot be reached: quotes nvidia-smi and says to reinstall or reload it', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'no-driver');
    const facts = await probeMachine(m.host);
    const f = byId(diagnose(builtinCatalog(), facts));
    expect(f.gpu).toMatchObject({ status: 'fail', title: 'nvidia-smi cannot talk to the NVIDIA driver' });
    expect(f.gpu.evidence[0]).toContain("couldn't communicate with the NVIDIA driver");
  });

  it('an unreadable toolkit directory is a warning with the reason; the readable one is still checked', async () => {
    const m = await sideBySide();
    // As root, chmod 000 hides nothing; a self-referencing link cannot be entered by anyone (ELOOP).
    await m.link('/usr/local/cuda-11.4', 'cuda-11.4');
    const facts = await probeMachine(m.host);
    const f = byId(diagnose(builtinCatalog(), facts, { tf: '2.3' }));
    expect(f['toolkit-unreadable:/usr/local/cuda-11.4']).toMatchObject({ status: 'warn', title: 'Could not read the toolkit directory /usr/local/cuda-11.4 (ELOOP)' });
    expect(f.toolkit.status).toBe('pass');
  });

  it('an interrupted cudawiz copy (manifest state "copying") fails with the fix `cudawiz repair`', async () => {
    const m = await sideBySide();
    await m.file('/usr/local/cuda-10.1/.cudawiz/manifest.json', JSON.stringify({ state: 'copying' }));
    const f = byId(diagnose(builtinCatalog(), await probeMachine(m.host), { tf: '2.3' }));
    expect(f['copy-interrupted:/usr/local/cuda-10.1']).toMatchObject({ status: 'fail', fix: 'cudawiz repair' });
  });
});

describe('the TensorFlow target', () => {
  it('without --tf and without TensorFlow installed, skips its checks and says how to pass --tf', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const f = byId(diagnose(builtinCatalog(), await probeMachine(m.host)));
    expect(f['tf-target']).toMatchObject({ status: 'skip', evidence: ['no Python interpreter was found'] });
    expect(f['tf-target'].fix).toContain('cudawiz doctor --tf');
    expect(f.toolkit).toMatchObject({ status: 'warn', title: 'No CUDA toolkit found' });
  });

  it('refuses an unknown --tf before probing, with exit 2', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const r = await runCli(['doctor', '--tf', '2.99'], { host: m.host });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown TensorFlow version "2.99"');
  });

  it('TensorFlow past 2.10 on native Windows fails and explains WSL2', async () => {
    const base = builtinCatalog();
    // A catalog that knows a Linux-only 2.12 row, as the full TF table does.
    const catalog = { ...base, tensorflow: { ...base.tensorflow, linux: [...base.tensorflow.linux, { ...base.tensorflow.linux[0], version: '2.12.0', cuda: '11.8', cudnn: '8.6' }] } };
    const m = await seedLaptop();
    const f = byId(diagnose(catalog, await probeMachine(m.host), { tf: '2.12' }));
    expect(f['windows-native']).toMatchObject({ status: 'fail', title: 'TensorFlow 2.12 has no GPU support on native Windows (the last was 2.10)' });
    expect(f['windows-native'].fix).toContain('WSL2');
    // No CUDA check on native Windows for it: the toolkits are only listed.
    expect(f.toolkit).toBeUndefined();
    expect(f[`toolkit:${CUDA}\\v11.0`].status).toBe('pass');
  });

  it('tensorflow[and-cuda] on Linux: CUDA and cuDNN come from pip wheels, and no toolkit is needed', async () => {
    const base = builtinCatalog();
    // The rows the full catalog carries for TF 2.16 and CUDA 12.x (domain.md §1a, §2b).
    const catalog = {
      ...base,
      tensorflow: { ...base.tensorflow, linux: [...base.tensorflow.linux, { ...base.tensorflow.linux[0], version: '2.16.1', python: ['3.9-3.12'], cuda: '12.3', cudnn: '8.9' }] },
      libraries: { ...base.libraries, toolkits: [...base.libraries.toolkits, { from: '12.0', to: '12.9', cudart: '12', cublas: '12', cublasLt: '12', cufft: '11', curand: '10', cusolver: '11', cusparse: '12', source: 'yggdrasil' }] },
    };
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.nvidiaSmi('/usr/bin/nvidia-smi', 'rtx2060-laptop');
    await m.file('/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'ELF');
    await m.script('/sbin/ldconfig', `printf '\\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\\n'`);
    const site = '/home/me/venv/lib/python3/site-packages';
    await fakeTensorflow(m, site, '2.16.1', { cuda_version: '12.3', cudnn_version: '8', is_cuda_build: true });
    const wheels: Record<string, string[]> = {
      cuda_runtime: ['libcudart.so.12'], cublas: ['libcublas.so.12', 'libcublasLt.so.12'], cufft: ['libcufft.so.11'],
      curand: ['libcurand.so.10'], cusolver: ['libcusolver.so.11'], cusparse: ['libcusparse.so.12'], cudnn: ['libcudnn.so.8'],
    };
    for (const [part, files] of Object.entries(wheels)) for (const f of files) await m.file(`${site}/nvidia/${part}/lib/${f}`, 'ELF');
    await m.file(`${site}/nvidia/cudnn/include/cudnn_version.h`, '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n');
    await m.script('/usr/bin/python3', `PYTHONPATH="${m.hostPath(site)}" exec "${await hostPython()}" "$@"`);
    const facts = await probeMachine(m.host, { catalog });
    const findings = diagnose(catalog, facts);
    const f = byId(findings);
    expect(f['tf-target'].title).toBe('Checking for TensorFlow 2.16.1 (pip-installed tensorflow 2.16.1)');
    expect(f.toolkit).toMatchObject({ status: 'pass', title: "CUDA 12.3 comes from pip's nvidia-* wheels (tensorflow[and-cuda]); no toolkit needed" });
    expect(f.cudnn).toMatchObject({ status: 'pass', title: "cuDNN 8.9.7 in pip's nvidia-cudnn wheel (needs 8.9)" });
    expect(f['library:cudart']).toMatchObject({ status: 'pass', evidence: [`wins: ${site}/nvidia/cuda_runtime/lib (pip wheel)`] });
    expect(findings.filter((x) => x.status === 'fail' || x.status === 'warn')).toEqual([]);
  });
});
