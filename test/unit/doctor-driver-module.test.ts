// A driver whose user-space half is installed and whose kernel module is not loaded (after a kernel update
// whose DKMS build failed): its version from the library's file name, the evidence, and a fix that fits how
// it was installed — never NVIDIA's download page over a package manager's driver. And the libraries
// upgraded while the old module still runs: reboot. The files are laid out as Debian 12's libcuda1,
// libnvidia-ml1 and nvidia-alternative leave them (relative links standing in for /etc/alternatives).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine } from '../../src/probe/index.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { startMirror } from '../helpers/mirror.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureMachine } from '../fixtures/machine.js';

const LIB = '/usr/lib/x86_64-linux-gnu';
const byId = (fs: Finding[]) => Object.fromEntries(fs.map((f) => [f.id, f]));

async function debianDriver(smi: string, install: 'dpkg' | 'run-file' = 'dpkg') {
  const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
  await m.file(`${LIB}/nvidia/current/libcuda.so.535.261.03`, 'ELF');
  await m.link(`${LIB}/nvidia/current/libcuda.so.1`, 'libcuda.so.535.261.03');
  await m.link(`${LIB}/libcuda.so.1`, 'nvidia/current/libcuda.so.1');
  await m.file(`${LIB}/nvidia/current/libnvidia-ml.so.535.261.03`, 'ELF');
  await m.link(`${LIB}/nvidia/current/libnvidia-ml.so.1`, 'libnvidia-ml.so.535.261.03');
  await m.link(`${LIB}/libnvidia-ml.so.1`, 'nvidia/current/libnvidia-ml.so.1');
  await m.nvidiaSmi('/usr/lib/nvidia/current/nvidia-smi', smi);
  await m.link('/usr/bin/nvidia-smi', '../lib/nvidia/current/nvidia-smi');
  await m.file('/proc/modules', 'ext4 1028096 1 - Live 0x0000000000000000\nsnd_hda_intel 61440 0 - Live 0x0000000000000000\n');
  if (install === 'dpkg') await m.file('/var/lib/dpkg/status', 'Package: libcuda1\nStatus: install ok installed\nArchitecture: amd64\nVersion: 535.261.03-1\n\nPackage: nvidia-smi\nStatus: install ok installed\nVersion: 535.261.03-1\n');
  else await m.script('/usr/bin/nvidia-uninstall', 'exit 0');
  return m;
}

describe('the NVIDIA driver without its kernel module', () => {
  it('is a diagnosis of its own: version from libcuda.so.535.261.03, the evidence, and the package manager’s fix', async () => {
    const m = await debianDriver('debian-535-no-module');
    const facts = await probeMachine(m.host);
    expect(facts.gpu).toMatchObject({
      state: 'no-driver',
      driver: { version: '535.261.03', source: 'userspace library' },
      userspace: { version: '535.261.03', library: `${LIB}/nvidia/current/libcuda.so.535.261.03` },
      kernelModule: { versionFile: false, modules: [] },
      install: { how: 'package', manager: 'dpkg', package: 'libcuda1', version: '535.261.03' },
    });
    const f = byId(diagnose(builtinCatalog(), facts, { tf: '2.12' }));
    expect(f.gpu).toMatchObject({ status: 'fail', title: 'NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded' });
    expect(f.gpu.evidence).toEqual([
      "/usr/bin/nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
      '/proc/driver/nvidia/version: absent (no NVIDIA kernel driver loaded)',
      'lsmod (/proc/modules): no nvidia module loaded',
      `driver 535.261.03 from its library's file name: ${LIB}/nvidia/current/libcuda.so.535.261.03`,
      'installed by the package manager: libcuda1 535.261.03 (dpkg)',
    ]);
    for (const step of ['dkms status', 'linux-headers-$(uname -r)', 'sudo dkms autoinstall', 'sudo modprobe nvidia', 'mokutil', 'dmesg | grep NVRM', 'reboot']) expect(f.gpu.fix).toContain(step);
    expect(f.gpu.fix).not.toMatch(/nvidia\.com/);
    expect(f.driver).toMatchObject({ status: 'pass', evidence: ['driver 535.261.03 (userspace library)', 'kernel module not loaded'] });
  });

  it("NVIDIA's .run driver: rebuild with the same installer's --dkms", async () => {
    const m = await debianDriver('debian-535-no-module', 'run-file');
    const f = byId(diagnose(builtinCatalog(), await probeMachine(m.host)));
    expect(f.gpu.evidence).toContain("installed by NVIDIA's .run installer (/usr/bin/nvidia-uninstall)");
    expect(f.gpu.fix).toContain('sudo sh NVIDIA-Linux-x86_64-535.261.03.run --dkms');
    expect(f.gpu.fix).not.toContain('apt install');
  });

  it('"Driver/library version mismatch": the libraries are 535.261.03, the loaded module 535.183.01 — reboot, do not reinstall', async () => {
    const m = await debianDriver('version-mismatch');
    await m.file('/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n');
    await m.file('/proc/modules', 'nvidia_uvm 1556480 0 - Live 0x0\nnvidia 56807424 1 nvidia_uvm, Live 0x0\n');
    const f = byId(diagnose(builtinCatalog(), await probeMachine(m.host)));
    expect(f.gpu).toMatchObject({ status: 'fail', title: "The NVIDIA driver's libraries (535.261.03) and its loaded kernel module (535.183.01) differ: upgraded without a reboot" });
    expect(f.gpu.evidence).toContain('/usr/bin/nvidia-smi: Failed to initialize NVML: Driver/library version mismatch');
    expect(f.gpu.fix).toMatch(/^Reboot/);
  });

  it('install --dry-run over it: the plan says once where it stops and the fix, later steps not reached, exit 1; the run without --dry-run stops with the same fact', async () => {
    const m = await debianDriver('debian-535-no-module');
    const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
    try {
      const flags = ['--configure-env', 'no', '--cuda-root', await tempDir('cw-cuda-'), '--cache-dir', await tempDir('cw-cache-'), '--mirror', mirror.url];
      const dry = await runCli(['install', '--tf', '2.12', '--route', 'toolkit', '--dry-run', ...flags], { host: m.host });
      expect(dry.code, dry.stderr).toBe(1);
      const title = 'NVIDIA driver 535.261.03 is installed, but its kernel module is not loaded';
      expect(dry.stdout).toContain(`• Check this machine — will stop: ${title}`);
      expect(dry.stdout).toMatch(/– Download the CUDA installer {2}\(not reached\) — cuda_11\.8\.0_520\.61\.05_linux\.run/);
      expect(dry.stdout).toContain(`✗ Will stop at "Check this machine": ${title}\n    → The driver comes from your package manager`);
      expect(dry.stdout.split('Will stop at')).toHaveLength(2);
      expect(dry.stdout.trimEnd().split('\n').at(-1)).toBe('dry run: nothing was changed');
      const json = (await runCli(['install', '--tf', '2.12', '--route', 'toolkit', '--dry-run', '--json', ...flags], { host: m.host })).stdout.trim().split('\n').map((l) => JSON.parse(l));
      const plan = json.find((e) => e.type === 'plan');
      expect(plan.stop).toMatchObject({ step: 'preflight', code: 'preflight-gpu', message: title });
      expect(plan.stop.fix).toContain('sudo dkms autoinstall');
      expect(plan.steps.filter((s: { notReached?: boolean }) => s.notReached).length).toBe(plan.steps.filter((s: { id: string; done: boolean }) => s.id !== 'preflight' && !s.done).length);
      expect(json.at(-1)).toEqual({ type: 'result', ok: false, exitCode: 1, message: 'dry run: nothing was changed' });
      // Without --dry-run and without --yes: not offered, the same stop, exit 1 — never "pass --yes".
      const asked = await runCli(['install', '--tf', '2.12', '--route', 'toolkit', ...flags], { host: m.host });
      expect(asked.code).toBe(1);
      expect(asked.stdout).toContain(`✗ Will stop at "Check this machine": ${title}`);
      expect(`${asked.stdout}${asked.stderr}`).not.toContain('--yes');
      // With --yes it runs, and the check itself stops with that message and fix.
      const run = await runCli(['install', '--tf', '2.12', '--route', 'toolkit', '--yes', ...flags], { host: m.host });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`✗ Check this machine: ${title}\n    → The driver comes from your package manager`);
      expect(run.stdout).not.toContain('Will stop at');
      const zh = await runCli(['install', '--tf', '2.12', '--route', 'toolkit', '--dry-run', '--lang', 'zh', ...flags], { host: m.host });
      expect(zh.code).toBe(1);
      expect(zh.stdout).toContain('✗ 将在“检查这台机器”这一步中止：已安装 NVIDIA 显卡驱动 535.261.03，但它的内核模块没有加载');
      expect(zh.stdout).toContain('（执行不到这一步）');
      expect(englishIn(zh.stdout)).toEqual([]);
    } finally {
      await mirror.close();
    }
  });

  it('says it in Chinese, with no English sentence left', async () => {
    const m = await debianDriver('debian-535-no-module');
    const r = await runCli(['doctor', '--lang', 'zh', '--tf', '2.12'], { host: m.host });
    expect(r.stdout).toContain('已安装 NVIDIA 显卡驱动 535.261.03，但它的内核模块没有加载');
    expect(r.stdout).toContain('sudo dkms autoinstall');
    expect(englishIn(r.stdout)).toEqual([]);
  });
});
