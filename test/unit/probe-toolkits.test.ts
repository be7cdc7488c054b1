import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { machineFs } from '../../src/probe/machine-fs.js';
import { parseCudaHeader, parseCudartHeader, parseDpkgStatus, parseNvccRelease, parseVersionJson, parseVersionTxt, versionFromCudartName } from '../../src/probe/toolkit-version.js';
import { componentOf, probeToolkits } from '../../src/probe/toolkits.js';
import { aptCuda } from '../fixtures/apt-cuda.js';
import { TOOLKIT_LIBRARIES, fixtureMachine } from '../fixtures/machine.js';

describe('reading a toolkit version', () => {
  it('trusts the full version from version.txt and from a plain version.json', () => {
    expect(parseVersionTxt('CUDA Version 10.1.243\n')).toBe('10.1.243');
    expect(parseVersionJson('{"cuda": {"name": "CUDA SDK", "version": "11.5.2"}}')).toBe('11.5.2');
  });

  it('keeps only major.minor from a date-style version.json ("11.8.20220929")', () => {
    expect(parseVersionJson('{"cuda": {"name": "CUDA SDK", "version": "11.8.20220929"}}')).toBe('11.8');
    expect(parseVersionJson('not json')).toBeUndefined();
  });

  it("reads CUDART_VERSION and nvcc's release, not nvcc's own V number", () => {
    expect(parseCudartHeader('#define CUDART_VERSION  10010')).toBe('10.1');
    expect(parseCudartHeader('#define CUDART_VERSION  13000')).toBe('13.0');
    expect(parseNvccRelease('Cuda compilation tools, release 11.1, V11.1.105')).toBe('11.1');
    expect(parseCudaHeader('#define CUDA_VERSION 11080')).toBe('11.8');
    expect(versionFromCudartName(['libcudart.so.11.0', 'libcudart.so.11.8.89'])).toBe('11.8.89');
  });

  it("reads dpkg's status: installed packages only, the upstream part of Debian's version", () => {
    const status = 'Package: libcudart12\nStatus: deinstall ok config-files\nVersion: 12.4.127~12.4.1-1\n\nPackage: libcudart11.0\nStatus: install ok installed\nVersion: 11.8.89~11.8.0-5~deb12u1\n';
    expect(parseDpkgStatus(status, [/^nvidia-cuda-toolkit$/, /^libcudart\d/])).toEqual({ name: 'libcudart11.0', version: '11.8.89' });
    expect(parseDpkgStatus('Package: nvidia-cuda-toolkit\nStatus: install ok installed\nVersion: 11.5.1-1ubuntu1\n', [/^nvidia-cuda-toolkit$/])).toEqual({ name: 'nvidia-cuda-toolkit', version: '11.5.1' });
  });

  it('names the component of each library file', () => {
    expect(componentOf('cudart64_101.dll')).toBe('cudart');
    expect(componentOf('libcublasLt.so.11')).toBe('cublasLt');
    expect(componentOf('libcublas.so.11')).toBe('cublas');
    expect(componentOf('cudnn_ops_infer64_8.dll')).toBe('cudnn');
    expect(componentOf('libcudadevrt.a')).toBeUndefined();
  });
});

const CUDA_12_LIBRARIES = ['libcudart.so.12', 'libcublas.so.12', 'libcublasLt.so.12', 'libcufft.so.11', 'libcurand.so.10', 'libcusolver.so.11', 'libcusparse.so.12'];

describe('toolkit probe', () => {
  it('finds 10.1 and 11.2 side by side under /usr/local, follows the /usr/local/cuda link and CUDA_HOME to the same one', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin', CUDA_HOME: '/usr/local/cuda' });
    await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.linux['10.1']], cudnn: '7.6.5' });
    await m.toolkit('/usr/local/cuda-11.2', { version: '11.2.2', versionFile: 'version.json', libraries: [...TOOLKIT_LIBRARIES.linux['11.2']], cudnn: '8.1.0' });
    await m.link('/usr/local/cuda', 'cuda-11.2');
    const { toolkits } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    expect(toolkits.map((t) => [t.path, t.version, t.versionSource])).toEqual([
      ['/usr/local/cuda-10.1', '10.1.243', 'version.txt'],
      ['/usr/local/cuda-11.2', '11.2.2', 'version.json'],
    ]);
    const t112 = toolkits[1];
    expect(t112.aliases).toEqual(['/usr/local/cuda']);
    expect(t112.foundVia.sort()).toEqual(['CUDA_HOME', 'cuda-root']);
    expect(t112.missing).toEqual([]);
    expect(t112.components.cudart).toEqual(['libcudart.so.11.0']);
  });

  it('on Windows, reads every CUDA_PATH_Vx_y variable, case-insensitively, and the v11.0 folder', async () => {
    const root = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA';
    const m = await fixtureMachine('windows', {
      Path: `${root}\\v11.0\\bin;C:\\Windows\\System32`,
      ProgramFiles: 'C:\\Program Files',
      CUDA_PATH: `${root}\\v11.0`,
      CUDA_PATH_V11_0: `${root}\\v11.0`,
      CUDA_PATH_V10_2: 'D:\\CUDA\\v10.2',
    });
    await m.toolkit(`${root}\\v11.0`, { version: '11.0.228', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.windows['11.0']] });
    await m.toolkit('D:\\CUDA\\v10.2', { version: '10.2.89', versionFile: 'version.txt', libraries: ['cudart64_102.dll'] });
    const { toolkits, nvccOnPath } = await probeToolkits(m.host, machineFs('windows', m.root), root);
    expect(toolkits.map((t) => [t.path, t.version])).toEqual([
      [`${root}\\v11.0`, '11.0.228'],
      ['D:\\CUDA\\v10.2', '10.2.89'],
    ]);
    expect(toolkits[0].foundVia.sort()).toEqual(['CUDA_PATH', 'CUDA_PATH_V11_0', 'cuda-root', 'nvcc on PATH']);
    expect(toolkits[0].libraryDir).toBe(`${root}\\v11.0\\bin`);
    expect(toolkits[1].missing).toEqual(['cublas', 'cufft', 'curand', 'cusolver', 'cusparse', 'cudnn']);
    expect(nvccOnPath).toEqual({ path: `${root}\\v11.0\\bin\\nvcc.exe`, release: '11.0' });
  });

  it("never runs a toolkit's nvcc (#33: /usr/local is group-writable on Debian): without version files, the runtime's file name says the version", async () => {
    const m = await fixtureMachine('linux', { PATH: '/opt/cuda-x/bin:/usr/bin' });
    await m.script('/opt/cuda-x/bin/nvcc', 'echo ran > "$(dirname "$0")/ran"; echo "Cuda compilation tools, release 12.4, V12.4.131"');
    await m.file('/opt/cuda-x/lib64/libcudart.so.12.4.131', 'ELF');
    await m.link('/opt/cuda-x/lib64/libcudart.so.12', 'libcudart.so.12.4.131');
    await m.file('/opt/cuda-x/include/cuda.h', '#define CUDA_VERSION 12040\n');
    const { toolkits, nvccOnPath } = await probeToolkits({ ...m.host, env: { PATH: '/opt/cuda-x/bin:/usr/bin', CUDA_HOME: '/opt/cuda-x' } }, machineFs('linux', m.root), '/usr/local');
    expect(toolkits).toHaveLength(1);
    expect(toolkits[0]).toMatchObject({ path: '/opt/cuda-x', version: '12.4', versionSource: 'cuda.h', layout: 'toolkit folder' });
    expect(nvccOnPath).toEqual({ path: '/opt/cuda-x/bin/nvcc', release: '12.4' });
    await rm(m.hostPath('/opt/cuda-x/include/cuda.h'));
    const again = await probeToolkits({ ...m.host, env: { PATH: '/usr/bin', CUDA_HOME: '/opt/cuda-x' } }, machineFs('linux', m.root), '/usr/local');
    expect(again.toolkits[0]).toMatchObject({ version: '12.4.131', versionSource: 'file name' });
    expect(existsSync(m.hostPath('/opt/cuda-x/bin/ran'))).toBe(false);
  });

  it("finds Debian's apt CUDA spread over /usr as one complete toolkit, though another toolkit's nvcc comes first on PATH", async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/local/cuda-12.4/bin:/usr/bin', CUDA_HOME: '/usr/lib/cuda' });
    await m.toolkit('/usr/local/cuda-12.4', { version: '12.4.1', versionFile: 'version.json', libraries: [...CUDA_12_LIBRARIES] });
    await aptCuda(m);
    const { toolkits, nvccOnPath } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    const apt = toolkits.find((t) => t.path === '/usr');
    expect(apt).toMatchObject({
      layout: 'distro packages', libraryDir: '/usr/lib/x86_64-linux-gnu', nvcc: '/usr/bin/nvcc', version: '11.8.89', majorMinor: '11.8',
      versionSource: 'dpkg status', package: { manager: 'dpkg', name: 'nvidia-cuda-toolkit', version: '11.8.89' },
      aliases: ['/usr/lib/cuda', '/usr/lib/nvidia-cuda-toolkit'], foundVia: expect.arrayContaining(['distro packages', 'CUDA_HOME']),
    });
    // Complete for TensorFlow: every runtime library where apt put it; only cuDNN (not in Debian) is missing.
    expect(apt?.missing).toEqual(['cudnn']);
    expect(apt?.components.cudart).toEqual(['libcudart.so.11.0', 'libcudart.so.11.8.89']);
    expect(nvccOnPath).toEqual({ path: '/usr/local/cuda-12.4/bin/nvcc', release: '12.4' });
    expect(existsSync(m.hostPath('/usr/nvcc-was-run'))).toBe(false);
    expect(existsSync(m.hostPath('/usr/lib/nvidia-cuda-toolkit/bin/nvcc-was-run'))).toBe(false);
  });

  it("apt's nvcc first on PATH leads to the same /usr toolkit, its release read from dpkg; without the status file, from the library's name", async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await aptCuda(m);
    await rm(m.hostPath('/var/lib/dpkg/status'));
    const { toolkits, nvccOnPath } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    expect(toolkits).toHaveLength(1);
    expect(toolkits[0]).toMatchObject({ path: '/usr', version: '11.8', versionSource: 'cuda_runtime_api.h', foundVia: ['distro packages', 'nvcc on PATH'] });
    expect(nvccOnPath).toEqual({ path: '/usr/bin/nvcc', release: '11.8' });
  });

  it('finds the runtime packages alone (no nvcc): a toolkit TF can load from, with nvcc missing', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await aptCuda(m, { toolkit: false });
    const { toolkits } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    expect(toolkits[0]).toMatchObject({ path: '/usr', version: '11.8.89', versionSource: 'dpkg status', package: { name: 'libcudart11.0' } });
    expect(toolkits[0].missing).toEqual(['nvcc', 'cudnn']);
  });

  it("finds Fedora/RHEL's CUDA in /usr/lib64 and Arch's /opt/cuda", async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    for (const [file, soname] of [['libcudart.so.12.4.127', 'libcudart.so.12'], ['libcublas.so.12.4.5.8', 'libcublas.so.12']]) {
      await m.file(`/usr/lib64/${file}`, 'ELF');
      await m.link(`/usr/lib64/${soname}`, file);
    }
    await m.toolkit('/opt/cuda', { version: '12.6.3', versionFile: 'version.json', libraries: [...CUDA_12_LIBRARIES] });
    const { toolkits } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    expect(toolkits.map((t) => [t.path, t.layout, t.libraryDir, t.version, t.versionSource])).toEqual([
      ['/opt/cuda', 'toolkit folder', '/opt/cuda/lib64', '12.6.3', 'version.json'],
      ['/usr', 'distro packages', '/usr/lib64', '12.4.127', 'file name'],
    ]);
  });

  it('reports a toolkit directory it cannot enter as unreadable, with the reason, without failing', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.linux['10.1']] });
    // Tests run as root, for whom chmod 000 changes nothing: a symlink that points at itself is a
    // directory entry that no one, root included, can enter (ELOOP) — the same "cannot read" path.
    await mkdir(m.hostPath('/usr/local'), { recursive: true });
    await symlink('cuda-11.2', m.hostPath('/usr/local/cuda-11.2'));
    const { toolkits } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    const bad = toolkits.find((t) => t.path === '/usr/local/cuda-11.2');
    expect(bad).toMatchObject({ readable: false, error: 'ELOOP', majorMinor: '11.2', versionSource: 'directory name' });
    expect(toolkits.find((t) => t.path === '/usr/local/cuda-10.1')?.readable).toBe(true);
  });

  it('reads the state of an interrupted cudawiz copy from the toolkit manifest', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.linux['10.1']] });
    await m.file('/usr/local/cuda-10.1/.cudawiz/manifest.json', JSON.stringify({ state: 'copying', files: [] }));
    const { toolkits } = await probeToolkits(m.host, machineFs('linux', m.root), '/usr/local');
    expect(toolkits[0].cudawizCopy).toEqual({ state: 'copying', manifest: '/usr/local/cuda-10.1/.cudawiz/manifest.json' });
  });
});
