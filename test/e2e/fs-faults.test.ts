// Every command under each filesystem fault, for real: a cache or toolkit root that is a file
// (EEXIST) or under a file (ENOTDIR), a folder this user may not write (EACCES: the CLI runs as
// `nobody` through setpriv when the tests are root), a tiny full tmpfs (ENOSPC) and a read-only one
// (EROFS). Each run says what is wrong and how to fix it; none prints a stack trace.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCudnn } from '../../src/cudnn/index.js';
import { CudawizError } from '../../src/errors.js';
import { builtCli } from '../helpers/cli.js';
import { buildCudnnArchive, makeToolkit } from '../helpers/cudnn-archive.js';
import { laptop as makeLaptop, type Laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';
import { asOtherUser, canSwitchToNobody, otherUserCli, otherUserLabel } from '../helpers/other-user.js';

interface Fault {
  name: string;
  /** A folder path that cannot be used as it should. */
  dir: string;
  /** What the message must say. */
  said: RegExp;
  asNobody?: boolean;
}

const mounts: string[] = [];
let m: Laptop;
const faults: Fault[] = [];

function tryMount(dir: string, options: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
    mounts.push(dir);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  m = await makeLaptop();
  // The `nobody` runs must be able to read the laptop (overlay, Downloads) and reach the fault folders.
  await chmod(m.home, 0o755);
  const base = await tempDir('cw-faults-');
  await chmod(base, 0o755);
  const file = path.join(base, 'a-file');
  await writeFile(file, 'not a folder\n');
  faults.push({ name: 'EEXIST: the folder is a file', dir: file, said: /already exists and is not what cudawiz expected|a part of this path is a file/ });
  faults.push({ name: 'ENOTDIR: the folder is under a file', dir: path.join(file, 'cache'), said: /a part of this path is a file, not a folder/ });
  const locked = path.join(base, 'locked');
  await mkdir(locked, { mode: 0o755 });
  if (!runningAsRoot) await chmod(locked, 0o555);
  // Root writes everywhere: EACCES is made as nobody, or as a non-root tester against a read-only folder.
  if (canSwitchToNobody || !runningAsRoot) {
    faults.push({ name: `EACCES: a folder this user may not write (${otherUserLabel})`, dir: path.join(locked, 'cache'), said: /Permission denied|not writable by this user|No permission/, asNobody: canSwitchToNobody });
  }
  const full = path.join(base, 'full');
  await mkdir(full);
  if (tryMount(full, 'size=1m')) {
    // Fill it: ENOSPC from the first block written.
    await writeFile(path.join(full, 'fill'), Buffer.alloc(2 * 1024 * 1024)).catch(() => undefined);
    faults.push({ name: 'ENOSPC: a full disk', dir: path.join(full, 'cache'), said: /disk is full|Not enough free space|is full/ });
  }
  const ro = path.join(base, 'ro');
  await mkdir(ro);
  if (tryMount(ro, 'ro,size=1m')) faults.push({ name: 'EROFS: a read-only filesystem', dir: path.join(ro, 'cache'), said: /read-only filesystem/ });
}, 60_000);

afterAll(async () => {
  await m?.mirror.close();
  // A child that has just exited can hold the mount for a moment (EBUSY): then detach it lazily, which the kernel finishes once it is free.
  for (const dir of mounts) {
    try {
      execFileSync('umount', [dir], { stdio: 'ignore' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    }
  }
});

async function cli(fault: Fault, args: string[]) {
  const env = { PATH: process.env.PATH ?? '', ...m.env };
  const [file, ...argv] = fault.asNobody ? asOtherUser([process.execPath, await otherUserCli(), ...args]) : [process.execPath, builtCli, ...args];
  const r = await execa(file!, argv, { env, extendEnv: false, reject: false, timeout: 60_000 });
  return { code: r.exitCode ?? -1, out: `${String(r.stdout)}\n${String(r.stderr)}` };
}

const noStackTrace = (out: string) => {
  expect(out).not.toMatch(/unexpected error/);
  expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
};

/** The commands, each pointed at the fault where it would write. */
function commands(d: string): { name: string; args: string[]; mustFail: boolean }[] {
  const common = ['--catalog', m.overlay, '--mirror', m.mirror.url];
  const plan = ['--tf', '2.3', '--yes', '--downloads', m.downloads, '--configure-env', 'no'];
  return [
    { name: 'download into the cache', args: ['download', 'cuda', '--version', '10.1', '--os', 'linux', ...common, '--cache-dir', d], mustFail: true },
    { name: 'download to --dest', args: ['download', 'cuda', '--version', '10.1', '--os', 'linux', ...common, '--cache-dir', path.join(m.home, 'good-cache'), '--dest', d], mustFail: true },
    { name: 'install (cache and root)', args: ['install', ...plan, ...common, '--cuda-root', d, '--cache-dir', d], mustFail: true },
    { name: 'install (root only)', args: ['install', ...plan, ...common, '--cuda-root', d, '--cache-dir', path.join(m.home, 'good-cache-2')], mustFail: true },
    { name: 'repair', args: ['repair', ...plan, ...common, '--cuda-root', d, '--cache-dir', d], mustFail: true },
    { name: 'install --log', args: ['install', ...plan, ...common, '--cuda-root', m.cudaRoot, '--cache-dir', path.join(m.home, 'good-cache-3'), '--log', path.join(d, 'run.log'), '--dry-run'], mustFail: false },
    { name: 'rollback --cuda-root', args: ['rollback', '--cuda-root', d], mustFail: false },
    { name: 'rollback --cuda-dir', args: ['rollback', '--cuda-dir', d], mustFail: true },
    { name: 'doctor', args: ['doctor', '--tf', '2.3', '--cuda-root', d, ...common], mustFail: false },
    { name: 'requirements', args: ['requirements', '--tf', '2.3', '--cache-dir', d], mustFail: false },
    { name: 'explain', args: ['explain', d], mustFail: true },
  ];
}

describe('every command under each filesystem fault', () => {
  it(`has the faults this machine can make: at least EEXIST, ENOTDIR and EACCES (${canSwitchToNobody || !runningAsRoot ? otherUserLabel : 'not EACCES: root here cannot become nobody'})`, () => {
    expect(faults.map((f) => f.name.split(':')[0])).toEqual(expect.arrayContaining(['EEXIST', 'ENOTDIR', ...(canSwitchToNobody || !runningAsRoot ? ['EACCES'] : [])]));
    if (runningAsRoot) expect(faults.map((f) => f.name.split(':')[0])).toEqual(expect.arrayContaining(['ENOSPC', 'EROFS']));
  });

  it('says what is wrong with a fix, never a stack trace', async () => {
    const seen: string[] = [];
    for (const fault of faults) {
      for (const c of commands(fault.dir)) {
        const r = await cli(fault, c.args);
        const label = `${fault.name} / ${c.name}\n${r.out}`;
        noStackTrace(r.out);
        if (c.mustFail) {
          expect(r.code, label).not.toBe(0);
          // rollback --cuda-dir and explain check their argument first, and say so in their own words.
          if (c.name === 'rollback --cuda-dir') expect(r.out, label).toMatch(new RegExp(`is not a folder|${fault.said.source}`));
          else if (c.name !== 'explain') expect(r.out, label).toMatch(fault.said);
          // explain of a plain file reads it as a log: "nothing recognised", with what to capture instead.
          expect(r.out, label).toMatch(c.name === 'explain' ? /→|Nothing recognised/ : /→|"fix"/);
        }
        seen.push(`${fault.name.split(':')[0]} ${c.name} ${r.code}`);
      }
    }
    expect(seen.length).toBe(faults.length * commands('x').length);
  }, 600_000);
});

describe('a full disk while cuDNN is staged', () => {
  for (const era of ['linux-cuda-folder', 'windows-cuda-folder'] as const) {
    const os = era.startsWith('linux') ? 'linux' : 'windows';
    it(`says the disk is full, not that the archive is damaged (${os === 'linux' ? 'the .tgz' : 'the .zip'})`, async () => {
      const base = await tempDir('cw-stage-full-');
      const small = path.join(base, 'small');
      await mkdir(small);
      if (!tryMount(small, 'size=512k')) {
        // Without root no tmpfs: the fault cannot be made here; the sweep above still ran.
        expect(runningAsRoot).toBe(false);
        return;
      }
      const toolkit = await makeToolkit(path.join(small, 'cuda-10.1'), os);
      const archive = await buildCudnnArchive(base, { era, libraryBytes: 1024 * 1024 });
      const e = await importCudnn({ archive: archive.file, toolkitDir: toolkit, os }).then(() => undefined, (error: unknown) => error);
      expect(e).toBeInstanceOf(CudawizError);
      expect((e as CudawizError).message).toMatch(/disk is full/);
      expect((e as CudawizError).message).toContain(small);
      expect((e as CudawizError).message).not.toMatch(/damaged/);
    });
  }
});
