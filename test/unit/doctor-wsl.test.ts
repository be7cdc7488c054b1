// The doctor inside WSL2 and on native Windows: fixture machines with the kernel's microsoft marker,
// WSL's library folder holding the Windows driver's libcuda.so.1 and an nvidia-smi that prints what it
// printed inside WSL2. The driver is Windows': every driver fix says so, never a Linux driver.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { condaRecord } from '../fixtures/conda-env.js';
import { fixtureMachine } from '../fixtures/machine.js';
import { WSL1_KERNEL, wslMachine } from '../fixtures/wsl-machine.js';

const catalog = builtinCatalog();
const byId = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.id, f]));
/** No finding may tell a WSL user to install a Linux driver. */
const linuxDriverAdvice = (findings: Finding[]) => findings.filter((f) => /display driver|apt (install|remove)[^\n]*nvidia-driver|nvidia-utils|reload the NVIDIA driver/i.test(f.fix ?? ''));

describe('a WSL2 laptop: Windows 11, RTX 4070 on the Windows driver 555.99', () => {
  it('is WSL 2, judges the Windows driver against the Windows minimum for CUDA 12.3, and reports it in --json', async () => {
    const m = await wslMachine({ driver: '555.99', windowsVer: '10.0.22631.3880' });
    const r = await runCli(['doctor', '--tf', '2.16', '--json'], { host: m.host });
    const doc = JSON.parse(r.stdout);
    const f = byId(doc.findings);
    expect(f.wsl).toMatchObject({ status: 'pass', title: "Inside WSL 2 (Ubuntu): the GPU driver is Windows' (555.99)" });
    expect(f.wsl.evidence).toContain('Windows 10.0.22631.3880 (from cmd.exe ver)');
    expect(f.driver).toMatchObject({ status: 'pass', title: 'Windows NVIDIA driver 555.99 ≥ 528.33 (CUDA 12.3, used through WSL)' });
    expect(f.driver.evidence).toEqual(['Windows driver 555.99 (/usr/lib/wsl/lib/nvidia-smi inside WSL)', "NVIDIA-SMI 555.52.01 is WSL's own tool version, not the driver's"]);
    expect(f.gpu).toMatchObject({ status: 'pass', title: 'NVIDIA GPU: NVIDIA GeForce RTX 4070' });
    expect(f['library:cuda']).toMatchObject({ status: 'pass', title: 'libcuda.so.1 → /usr/lib/wsl/lib' });
    expect(doc.findings.filter((x: Finding) => x.id.startsWith('wsl:'))).toEqual([]);
    // The report keeps its keys and adds the WSL facts.
    expect(Object.keys(doc)).toEqual(['os', 'gpus', 'driver', 'toolkits', 'cudnn', 'python', 'tensorflow', 'findings', 'wsl']);
    expect(doc.wsl).toMatchObject({ version: 2, distro: 'Ubuntu', windowsBuild: 22631, windowsDriverVersion: '555.99', driverCudaVersion: '12.5', libcuda: '/usr/lib/wsl/lib/libcuda.so.1', problems: [] });
    expect(linuxDriverAdvice(doc.findings)).toEqual([]);
  });

  it('shares the WSL line in the pasteable block', async () => {
    const m = await wslMachine({ driver: '555.99', windowsVer: '10.0.22631.3880' });
    const r = await runCli(['doctor', '--tf', '2.16'], { host: m.host });
    expect(r.stdout).toContain('wsl: 2, Windows 10.0.22631.3880, Windows driver 555.99');
    expect(r.stdout).toContain('[ok] wsl: Inside WSL 2 (Ubuntu)');
  });
});

describe('WSL2 machines with something wrong', () => {
  it('a Windows driver too old for CUDA 12.3 (516.94): the fix is on Windows, with the minimum', async () => {
    const m = await wslMachine({ driver: '516.94', windowsVer: '10.0.19045.3803' });
    const findings = diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.16' });
    const f = byId(findings);
    expect(f.driver).toMatchObject({ status: 'fail', title: 'Windows NVIDIA driver 516.94 is too old for CUDA 12.3 (needs 528.33 or newer)' });
    expect(f.driver.fix).toContain('Update the NVIDIA driver on Windows, not inside WSL');
    expect(f.driver.fix).toContain('528.33 or newer');
    // The same driver is new enough for TF 2.10's CUDA 11.2.
    expect(byId(diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.10' })).driver.status).toBe('pass');
    expect(linuxDriverAdvice(findings)).toEqual([]);
  });

  it('WSL 1 on Windows build 18985 without a Windows driver: three findings, each fixed on Windows', async () => {
    const m = await wslMachine({ kernel: WSL1_KERNEL, ldConf: false });
    const findings = diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.16' });
    const f = byId(findings);
    expect(f.wsl).toMatchObject({ status: 'fail', title: 'Ubuntu runs under WSL 1, which has no GPU access', fix: 'In PowerShell on Windows: wsl --set-version Ubuntu 2' });
    expect(f['wsl:windows-too-old']).toMatchObject({ status: 'fail', fix: expect.stringContaining('21H2') });
    expect(f['wsl:no-wsl-libcuda']).toMatchObject({ status: 'fail', fix: expect.stringContaining('on Windows, not inside WSL') });
    expect(f.gpu).toMatchObject({ status: 'fail', title: 'No NVIDIA driver from Windows inside WSL, so no usable GPU', evidence: ['nvidia-smi: not on PATH and not in /usr/lib/wsl/lib'] });
    expect(f.gpu.fix).toContain('on Windows, not inside WSL');
    expect(f['library:cuda'].fix).toContain('on Windows, not inside WSL');
    expect(linuxDriverAdvice(findings)).toEqual([]);
  });

  it('a Linux driver installed inside WSL, and WSL\'s folder off the loader path: both found, with their fixes', async () => {
    const m = await wslMachine({ driver: '555.99', ldConf: false, strayLinuxLibcuda: true });
    const f = byId(diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.16' }));
    expect(f['wsl:linux-driver-inside-wsl']).toMatchObject({ status: 'fail', evidence: ['/usr/lib/x86_64-linux-gnu/libcuda.so.1'] });
    expect(f['wsl:linux-driver-inside-wsl'].fix).toContain('apt remove --purge "nvidia-driver-*"');
    expect(f['wsl:wsl-lib-not-on-loader-path']).toMatchObject({ status: 'fail', fix: expect.stringContaining('/etc/ld.so.conf.d/ld.wsl.conf') });
    // The Windows build could not be read (no interop here): said, not guessed.
    expect(f.wsl.evidence).toContain('Windows build: could not be read (no interop)');
  });
});

describe('not WSL', () => {
  it('a plain Linux box has no wsl finding and no wsl key in --json', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await m.file('/proc/version', 'Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) #45-Ubuntu SMP\n');
    const r = await runCli(['doctor', '--tf', '2.16', '--json'], { host: m.host });
    const doc = JSON.parse(r.stdout);
    expect(doc.wsl).toBeUndefined();
    expect(doc.findings.filter((x: Finding) => x.id === 'wsl' || x.id.startsWith('wsl:'))).toEqual([]);
  });

  it('native Windows with TF 2.16: the windows-native finding walks through the WSL2 route', async () => {
    const m = await fixtureMachine('windows', { Path: 'C:\\Windows\\System32', SystemRoot: 'C:\\Windows' });
    const f = byId(diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.16' }));
    expect(f['windows-native'].status).toBe('fail');
    const steps = f['windows-native'].evidence.filter((e) => e.startsWith('WSL2 step '));
    expect(steps[0]).toMatch(/^WSL2 step 1: Check Windows: run `winver`/);
    expect(steps.some((s) => s.includes('wsl --install -d Ubuntu'))).toBe(true);
    expect(steps.some((s) => s.includes('pip install "tensorflow[and-cuda]==2.16.1"'))).toBe(true);
    expect(f['windows-native'].fix).toContain('the steps above');
  });
});

describe('a conda env inside WSL2', () => {
  it("judges the Windows driver 516.94 against the env's CUDA 12.2 with the Windows minimum, and its fix is the Windows driver's", async () => {
    const m = await wslMachine({ driver: '516.94', windowsVer: '10.0.19045.4651' });
    const env = '/home/me/miniforge3/envs/tf';
    await m.file(`${env}/lib/libcudart.so.12`, 'ELF');
    await m.file(`${env}/conda-meta/cuda-cudart-12.2.140-hd3aeb46_0.json`, condaRecord('cuda-cudart', '12.2.140', 'hd3aeb46_0', 'linux-64', ['lib/libcudart.so.12']));
    const host = { ...m.host, env: { ...m.host.env, CONDA_PREFIX: env, CONDA_DEFAULT_ENV: 'tf' } };
    const f = byId(diagnose(catalog, await probeMachine(host, { catalog })));
    expect(f.conda.title).toBe(`Conda env tf (${env}) carries CUDA 12.2.140 (cuda-cudart); TensorFlow in it loads these first`);
    expect(f['conda-driver'].status).toBe('fail');
    expect(f['conda-driver'].title).toMatch(/^NVIDIA driver 516\.94 is too old for the conda env's CUDA 12\.2 \(needs 52\d\.\d+ or newer\)$/);
    expect(f['conda-driver'].fix).toContain('on Windows, not inside WSL');
    expect(f['conda-driver'].fix).toContain('conda install cuda-cudart=11.');
    expect(linuxDriverAdvice(Object.values(f))).toEqual([]);
  });
});
