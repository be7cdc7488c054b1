// Issues 32 (items 4–5) and 33 (item 5): the run log (--log FILE, the default timestamped one under a
// shared --cache-dir), the installer's fixed-name log and the crash report are never written through
// a planted link or into someone else's file, the crash report is readable by its user only, and a
// --mirror password appears in none of them, nor on the screen. The built CLI in real child processes;
// as `nobody` too when the tests run as root.
import { chmod, copyFile, lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import type { CudaRelease } from '../../src/catalog/schema.js';
import { reportError } from '../../src/cli.js';
import { installToolkit, type InstallToolkitOptions } from '../../src/cuda/install.js';
import { CudawizError } from '../../src/errors.js';
import { createPrivateFile, openNamedLog } from '../../src/trust/write.js';
import { redactCredentials } from '../../src/redact.js';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { asOtherUser, canSwitchToNobody, otherUserCli, otherUserLabel } from '../helpers/other-user.js';
import { tempDir } from '../helpers/tmp.js';

const SECRET = 's3cret-Pa55';
const MIRROR = `https://mirror-user:${SECRET}@127.0.0.1:9/nvidia/`;

async function machine() {
  const base = await tempDir('cw-hardening-logs-');
  await chmod(base, 0o755);
  const victim = path.join(base, 'victim');
  await mkdir(victim);
  await writeFile(path.join(victim, 'passwd'), 'root:x:0:0\n');
  const home = path.join(base, 'home');
  await mkdir(home, { mode: 0o755 });
  const cache = path.join(base, 'cache');
  await mkdir(cache);
  // A machine whose NVIDIA driver is not loaded (whatever this host has): the dry run says its plan
  // will stop there, exit 1, and writes its log all the same.
  const bin = path.join(base, 'bin');
  await mkdir(bin, { mode: 0o755 });
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/no-driver.sh'), path.join(bin, 'nvidia-smi'));
  const run = async (argv: string[], as: 'me' | 'nobody' = 'me') => {
    // nobody runs a readable copy of the built CLI: the checkout may be where only its owner can go.
    const [file, ...args] = as === 'nobody' ? asOtherUser([process.execPath, await otherUserCli(), ...argv]) : [process.execPath, builtCli, ...argv];
    const r = await execa(file, args, { env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home }, extendEnv: false, cwd: base, reject: false });
    return { code: r.exitCode ?? -1, out: `${String(r.stdout)}\n${String(r.stderr)}` };
  };
  const dryRun = ['install', '--tf', '2.10', '--route', 'toolkit', '--dry-run', '--cuda-root', path.join(base, 'cuda'), '--cache-dir', cache, '--mirror', MIRROR, '--no-color'];
  return { base, victim, home, cache, run, dryRun };
}

const victimUnchanged = async (victim: string) => {
  expect(await readdir(victim)).toEqual(['passwd']);
  expect(await readFile(path.join(victim, 'passwd'), 'utf8')).toBe('root:x:0:0\n');
};

describe('the run log', () => {
  it('--log FILE that is a planted link: refused with exit 2 and a fix, its target untouched', async () => {
    const m = await machine();
    const link = path.join(m.base, 'run.log');
    await symlink(path.join(m.victim, 'passwd'), link);
    const r = await m.run([...m.dryRun, '--log', link]);
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`Will not write the log to ${link}`);
    expect(r.out).not.toContain(SECRET);
    await victimUnchanged(m.victim);
  });

  it.runIf(canSwitchToNobody)(`as another user (${otherUserLabel}), --log naming root's file through a link: refused, the file untouched`, async () => {
    const m = await machine();
    const shared = path.join(m.base, 'shared');
    await mkdir(shared, { mode: 0o1777 });
    await chmod(shared, 0o1777);
    const link = path.join(shared, 'run.log');
    await symlink(path.join(m.victim, 'passwd'), link);
    await chmod(m.cache, 0o777);
    const r = await m.run([...m.dryRun, '--log', link], 'nobody');
    expect(r.code, r.out).toBe(2);
    await victimUnchanged(m.victim);
  });

  it('--log FILE that is this user\'s own log: appended to, run after run; someone else\'s hard link is refused', async () => {
    const m = await machine();
    const log = path.join(m.base, 'mine.log');
    expect((await m.run([...m.dryRun, '--log', log])).code).toBe(1);
    const first = await readFile(log, 'utf8');
    expect(first).toContain('"stop":{"step":"preflight"');
    expect((await m.run([...m.dryRun, '--log', log])).code).toBe(1);
    const both = await readFile(log, 'utf8');
    expect(both.length).toBeGreaterThan(first.length);
    expect(both).not.toContain(SECRET);
    expect((await lstat(log)).mode & 0o777).toBe(0o600);
    await execa('ln', [path.join(m.victim, 'passwd'), path.join(m.base, 'hard.log')]);
    expect(() => openNamedLog(path.join(m.base, 'hard.log'))).toThrow(/not this user's own file/);
    await victimUnchanged(m.victim);
  });

  it('the default log under a --cache-dir whose logs folder is a planted link: written to a private temp folder instead, the target untouched', async () => {
    const m = await machine();
    await symlink(m.victim, path.join(m.cache, 'logs'));
    const r = await m.run([...m.dryRun]);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('Will stop at "Check this machine"');
    await victimUnchanged(m.victim);
  });

  it('a link planted at a log\'s exact name is never followed (exclusive create)', async () => {
    const m = await machine();
    const at = path.join(m.base, 'cudawiz-2026.log');
    await symlink(path.join(m.victim, 'passwd'), at);
    expect(() => createPrivateFile(at)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    await victimUnchanged(m.victim);
  });
});

describe('the crash report', () => {
  it('is a new file only its user can read, and holds no --mirror password (nor does the screen)', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let said = '';
    err.on('data', (d) => (said += String(d)));
    const bug = new TypeError(`fetch ${MIRROR}x failed`);
    expect(reportError(bug, { stdout: out, stderr: err, stdin: new PassThrough() } as never, false, ['install', '--mirror', MIRROR])).toBe(1);
    expect(said).not.toContain(SECRET);
    const file = /the details in (\S+)\.\n$/.exec(said)![1];
    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('--mirror https://***@127.0.0.1:9/nvidia/');
    await rm(file);
  });
});

describe('redaction', () => {
  it('hides userinfo and token-like query values, and leaves other URLs alone', () => {
    expect(redactCredentials(`--mirror ${MIRROR}`)).toBe('--mirror https://***@127.0.0.1:9/nvidia/');
    expect(redactCredentials('https://host/f.tar.xz?token=abc&x=1')).toBe('https://host/f.tar.xz?token=***&x=1');
    expect(redactCredentials('https://developer.download.nvidia.com/compute/cuda/redist/')).toBe('https://developer.download.nvidia.com/compute/cuda/redist/');
  });
});

describe("the installer's fixed-name log under a cache", () => {
  const catalog = builtinCatalog();
  const cuda101 = catalog.cuda.releases.find((r) => r.version === '10.1.243') as CudaRelease;
  async function installer() {
    const dir = await tempDir('cw-hardening-installer-');
    const installerFile = path.join(dir, 'downloads', 'cuda_10.1.243_418.87.00_linux.run');
    await mkdir(path.dirname(installerFile));
    await copyFile(path.join(repoRoot, 'test/fixtures/cuda-installer/cuda_runfile.sh'), installerFile);
    const tmpLog = path.join(dir, 'tmp-cuda-installer.log');
    const logDir = path.join(dir, 'logs');
    await mkdir(logDir);
    const options: InstallToolkitOptions = { os: 'linux', catalog, installerFile, release: cuda101, root: path.join(dir, 'root'), tmpDir: path.join(dir, 'scratch'), logDir, installerLogs: [path.join(dir, 'scratch', 'cuda-installer.log')], leftoverLogFile: tmpLog, env: { CUDA_FIXTURE_TMP_LOG: tmpLog } };
    return { options, logDir };
  }

  it('a link planted at its name is removed as a name: the log is a new 0600 file, the link\'s target untouched', async () => {
    const m = await machine();
    const i = await installer();
    await symlink(path.join(m.victim, 'passwd'), path.join(i.logDir, 'cuda-10.1.243-installer.log'));
    const r = await installToolkit(i.options);
    const s = await lstat(r.logFile!);
    expect(s.isFile()).toBe(true);
    expect(s.mode & 0o777).toBe(0o600);
    expect(await readFile(r.logFile!, 'utf8')).toContain('Toolkit:  Installed in');
    await victimUnchanged(m.victim);
  });

  it('a log folder other users can write: refused before the installer runs, with the reason', async () => {
    const i = await installer();
    await chmod(i.logDir, 0o777);
    const e = await installToolkit(i.options).then(() => undefined, (error: unknown) => error as CudawizError);
    expect(e).toBeInstanceOf(CudawizError);
    expect(e!.code).toBe('log-unwritable');
    expect(e!.message).toContain('other users can write it');
    await expect(lstat(path.join(i.options.root, 'cuda-10.1'))).rejects.toThrow();
  });
});
