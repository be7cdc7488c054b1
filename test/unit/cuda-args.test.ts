import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { installerCommand, linuxInstallerArgs, windowsInstallerArgs } from '../../src/cuda/args.js';
import { explainInstallerExit } from '../../src/cuda/exit-codes.js';
import { scratchDirWithRoom, scratchSpaceNeeded } from '../../src/cuda/scratch.js';
import { defaultCudaRoot, processTreeKill, toolkitDir } from '../../src/platform.js';
import { tempDir } from '../helpers/tmp.js';

const catalog = builtinCatalog();

describe('the CUDA installer command line', () => {
  it('on Linux 10.1+, installs the toolkit only into --installpath, with a scratch dir and no man pages', () => {
    const cmd = installerCommand({
      os: 'linux',
      catalog,
      version: '10.1.243',
      installerFile: '/home/ana/.cache/cudawiz/cuda_10.1.243_418.87.00_linux.run',
      toolkitDir: toolkitDir('linux', '/usr/local', '10.1'),
      tmpDir: '/var/tmp/cudawiz',
      logDir: '/home/ana/.cache/cudawiz/logs',
    });
    expect(cmd).toEqual({
      file: 'sh',
      args: [
        '/home/ana/.cache/cudawiz/cuda_10.1.243_418.87.00_linux.run',
        '--silent',
        '--toolkit',
        '--installpath=/usr/local/cuda-10.1',
        '--tmpdir=/var/tmp/cudawiz',
        '--no-man-page',
      ],
    });
    expect(cmd.args).not.toContain('--driver');
  });

  it('on Linux before 10.1, names the toolkit path with --toolkitpath and asks for --verbose', () => {
    const args = linuxInstallerArgs({ catalog, version: '10.0.130', installerFile: 'cuda_10.0.130_410.48_linux', toolkitDir: '/opt/cuda-10.0', tmpDir: '/big/tmp' });
    expect(args).toEqual(['cuda_10.0.130_410.48_linux', '--silent', '--toolkit', '--toolkitpath=/opt/cuda-10.0', '--verbose', '--tmpdir=/big/tmp', '--no-man-page']);
  });

  it('adds --override only when the user allows an unsupported compiler', () => {
    const args = linuxInstallerArgs({ catalog, version: '11.2.2', installerFile: 'f.run', toolkitDir: '/d', tmpDir: '/t', overrideCompilerCheck: true });
    expect(args.at(-1)).toBe('--override');
  });

  it('on Windows, lists every 10.1 component by name, never the display driver, no reboot, logs to the log dir', () => {
    const programFiles = defaultCudaRoot('windows', { ProgramFiles: 'C:\\Program Files' });
    const logDir = path.win32.join('C:\\Users\\ana\\AppData\\Local\\cudawiz', 'logs');
    const cmd = installerCommand({
      os: 'windows',
      catalog,
      version: '10.1.243',
      installerFile: 'C:\\Users\\ana\\Downloads\\cuda_10.1.243_426.00_win10.exe',
      toolkitDir: toolkitDir('windows', programFiles, '10.1'),
      tmpDir: 'C:\\Temp',
      logDir,
    });
    expect(cmd.file).toBe('C:\\Users\\ana\\Downloads\\cuda_10.1.243_426.00_win10.exe');
    expect(cmd.args).toEqual([
      '-s',
      'nvcc_10.1', 'cuobjdump_10.1', 'nvprune_10.1', 'cupti_10.1', 'cublas_10.1', 'cublas_dev_10.1', 'cudart_10.1',
      'cufft_10.1', 'cufft_dev_10.1', 'curand_10.1', 'curand_dev_10.1', 'cusolver_10.1', 'cusolver_dev_10.1',
      'cusparse_10.1', 'cusparse_dev_10.1', 'nvgraph_10.1', 'nvgraph_dev_10.1', 'npp_10.1', 'npp_dev_10.1',
      'nvrtc_10.1', 'nvrtc_dev_10.1', 'nvml_dev_10.1',
      '-n',
      '-loglevel:6',
      '-log:"C:\\Users\\ana\\AppData\\Local\\cudawiz\\logs"',
    ]);
    expect(cmd.args.join(' ')).not.toMatch(/Display\.Driver/i);
  });

  it('gives a release added by an overlay, with no component list, no components (the installer step refuses it)', () => {
    expect(windowsInstallerArgs({ catalog, version: '99.0.1', logDir: 'C:\\l' })).toEqual(['-s', '-n', '-loglevel:6', '-log:"C:\\l"']);
  });
});

describe('what the installer exit means', () => {
  it('reads 3772776473 (0xE0E00019), however Node signs it, as a wrong component name', () => {
    expect(explainInstallerExit('windows', { code: 3772776473 })).toMatchObject({ kind: 'failed', id: 'wrong-components' });
    expect(explainInstallerExit('windows', { code: 3772776473 - 2 ** 32 })).toMatchObject({ id: 'wrong-components' });
  });

  it('takes the missing-telemetry exit as installed with a note', () => {
    expect(explainInstallerExit('windows', { code: -2147023836 })).toMatchObject({ kind: 'ok-with-warning', id: 'telemetry-missing' });
  });

  it('on Linux, names a crash, an unsupported gcc, a full disk, and a plain failure', () => {
    expect(explainInstallerExit('linux', { code: 139 }).fix).toContain('/tmp/cuda-installer.log');
    expect(explainInstallerExit('linux', { code: undefined, signal: 'SIGSEGV' }).id).toBe('segfault');
    expect(explainInstallerExit('linux', { code: 1 }, 'Failed to verify gcc version. See log at /var/log/cuda-installer.log').id).toBe('unsupported-compiler');
    expect(explainInstallerExit('linux', { code: 1 }, '[ERROR]: boost::filesystem::copy_file: No space left on device').id).toBe('no-space');
    expect(explainInstallerExit('linux', { code: 1 }, 'Installation failed. See log at /var/log/cuda-installer.log for details.')).toMatchObject({
      kind: 'failed',
      id: 'installation-failed',
    });
  });
});

describe('a scratch dir for the runfile to unpack into', () => {
  it('takes a candidate not made yet when its disk has room, and none when no disk is big enough', async () => {
    const base = await tempDir();
    const notYet = path.join(base, 'cudawiz-scratch');
    expect(scratchSpaceNeeded(2_600_000_000)).toBe(10_400_000_000);
    expect(await scratchDirWithRoom('linux', [notYet], 1024)).toMatchObject({ dir: notYet });
    expect(await scratchDirWithRoom('linux', [notYet], Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});

describe('stopping the installer', () => {
  it('on Windows kills the whole tree with taskkill; on Linux signals the process group instead', () => {
    expect(processTreeKill('windows', 4242)).toEqual({ file: 'taskkill', args: ['/PID', '4242', '/T', '/F'] });
    expect(processTreeKill('linux', 4242)).toBeUndefined();
  });
});
