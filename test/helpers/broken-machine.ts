// Linux machines left broken the way users leave them, built from real files in a temp dir at their
// real paths (no path mapping, so a new bash can source what repair wrote): a fixture nvidia-smi, the
// driver's libcuda.so.1, toolkits under a CUDA root, an ld cache (a fixture `ldconfig -p` on PATH
// printing the entries a real cache would hold), conda envs with conda-meta records, venvs with wheels
// whose libraries carry their RPATH, and a ~/.bashrc with the user's own exports.
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { runCommand, type Host } from '../../src/host.js';
import { condaRecord } from '../fixtures/conda-env.js';
import { FixtureMachine, hostPython } from '../fixtures/machine.js';
import { repoRoot } from './cli.js';
import { tempDir } from './tmp.js';

export const CUDA118_LIBS = ['libcudart.so.11.0', 'libcublas.so.11', 'libcublasLt.so.11', 'libcufft.so.10', 'libcurand.so.10', 'libcusolver.so.11', 'libcusparse.so.11'];

export interface BrokenMachine {
  home: string;
  /** Stands in for / where a system folder (/usr/lib/x86_64-linux-gnu) is needed. */
  sysroot: string;
  cudaRoot: string;
  cache: string;
  bin: string;
  rc: string;
  fx: FixtureMachine;
  /** The environment the user's shell has now (their rc file already ran). */
  env: Record<string, string>;
  globals: string[];
  /** Adds entries to the ld cache the fixture ldconfig prints. */
  ldCache(files: { name: string; path: string }[]): Promise<void>;
  /** Appends the user's own lines to ~/.bashrc. */
  rcLines(lines: string[]): Promise<void>;
}

export async function brokenMachine(options: { smi?: string } = {}): Promise<BrokenMachine> {
  const home = await tempDir('cw-broken-');
  const sysroot = path.join(home, 'sysroot');
  const cudaRoot = path.join(home, 'cuda-root');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(sysroot, 'usr/lib/x86_64-linux-gnu');
  await Promise.all([mkdir(cudaRoot, { recursive: true }), mkdir(bin), mkdir(driverLib, { recursive: true })]);
  await copyFile(path.join(repoRoot, `test/fixtures/nvidia-smi/${options.smi ?? 'rtx2060-laptop'}.sh`), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'ELF');
  const cacheList = path.join(home, '.ld-cache');
  await writeFile(cacheList, `\tlibcuda.so.1 (libc6,x86-64) => ${path.join(driverLib, 'libcuda.so.1')}\n`);
  // `ldconfig -p` as the real one prints it; anything else (a rebuild) is not this machine's to change.
  await writeFile(path.join(bin, 'ldconfig'), `#!/bin/sh\n[ "$1" = "-p" ] || exit 1\necho "$(wc -l < '${cacheList}') libs found in cache \\\`/etc/ld.so.cache'"\ncat '${cacheList}'\n`);
  await chmod(path.join(bin, 'ldconfig'), 0o755);
  // python3: the host's, without the user site of whoever runs the tests.
  const real = await hostPython();
  await writeFile(path.join(bin, 'python3'), `#!/bin/sh\nPYTHONNOUSERSITE=1 exec "${real}" "$@"\n`);
  await chmod(path.join(bin, 'python3'), 0o755);
  const rc = path.join(home, '.bashrc');
  await writeFile(rc, '# ~/.bashrc: the user\'s own\ncase $- in *i*) ;; *) return;; esac\nHISTCONTROL=ignoreboth\n');
  const env: Record<string, string> = { HOME: home, SHELL: '/bin/bash', PATH: `${bin}:/usr/bin:/bin` };
  return {
    home,
    sysroot,
    cudaRoot,
    cache: path.join(home, 'cache'),
    bin,
    rc,
    fx: new FixtureMachine('linux', '', env),
    env,
    globals: ['--cuda-root', cudaRoot, '--cache-dir', path.join(home, 'cache')],
    async ldCache(files) {
      await writeFile(cacheList, (await readFile(cacheList, 'utf8')) + files.map((f) => `\t${f.name} (libc6,x86-64) => ${f.path}\n`).join(''));
    },
    async rcLines(lines) {
      await writeFile(rc, (await readFile(rc, 'utf8')) + lines.join('\n') + '\n');
    },
  };
}

/**
 * The environment a new interactive bash gets on this machine: ~/.bashrc run from the login
 * environment (HOME, SHELL, the PATH the session starts with), nothing of this test process.
 */
export async function newShellEnv(m: Pick<BrokenMachine, 'home' | 'bin'>, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const base = { HOME: m.home, SHELL: '/bin/bash', PATH: `${m.bin}:/usr/bin:/bin`, TERM: 'dumb', ...extra };
  const r = await execa('bash', ['-i', '-c', 'env -0'], { env: base, extendEnv: false, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`a new bash failed: ${r.stderr}`);
  const out: Record<string, string> = {};
  for (const kv of r.stdout.split('\0')) {
    const i = kv.indexOf('=');
    if (i > 0) out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  // bash's own bookkeeping is no part of what a program sees as the user's environment.
  for (const k of ['_', 'SHLVL', 'PWD', 'OLDPWD']) delete out[k];
  return out;
}

/** A site directory with TensorFlow's pip metadata and an importable stand-in. */
export async function fakeTf(m: BrokenMachine, site: string, version: string): Promise<void> {
  await m.fx.file(path.join(site, `tensorflow-${version}.dist-info`, 'METADATA'), `Metadata-Version: 2.1\nName: tensorflow\nVersion: ${version}\n`);
  await m.fx.file(path.join(site, 'tensorflow', '__init__.py'), `__version__ = "${version}"\n`);
}

/** A conda env as conda lays it out: conda-meta records naming the files under lib/. */
export async function condaEnv(m: BrokenMachine, name: string, packages: { name: string; version: string; build: string; libs: string[] }[]): Promise<string> {
  const prefix = path.join(m.home, 'miniconda3', 'envs', name);
  for (const p of packages) {
    const files = p.libs.map((l) => `lib/${l}`);
    for (const f of files) await m.fx.file(path.join(prefix, f), 'ELF');
    await m.fx.file(path.join(prefix, 'conda-meta', `${p.name}-${p.version}-${p.build}.json`), condaRecord(p.name, p.version, p.build, 'linux-64', files));
  }
  // conda's history: the command, then a +line per package linked (what `conda list --revisions` reads).
  const linked = packages.map((p) => `+defaults/linux-64::${p.name}-${p.version}-${p.build}`).join('\n');
  await m.fx.file(path.join(prefix, 'conda-meta', 'history'), `==> 2023-03-01 10:00:00 <==\n# cmd: conda create -n ${name} ${packages.map((p) => `${p.name}=${p.version}`).join(' ')}\n# conda version: 23.1.0\n${linked}\n`);
  return prefix;
}

export interface ChannelPackage {
  name: string;
  version: string;
  build: string;
  /** Files under the env, as the package's info/files lists them (lib/libcudnn.so.8). */
  files: string[];
}

/**
 * `conda` on the machine's PATH (test/fixtures/conda/conda.mjs) and a local channel in ~/.condarc
 * holding these packages as conda's pkgs cache holds them extracted: info/files and the files.
 */
export async function condaTool(m: BrokenMachine, packages: ChannelPackage[]): Promise<string> {
  const channel = path.join(m.home, 'conda-channel');
  const repodata: Record<string, unknown> = {};
  for (const p of packages) {
    const fn = `${p.name}-${p.version}-${p.build}.tar.bz2`;
    const dir = path.join(channel, 'linux-64', `${p.name}-${p.version}-${p.build}`);
    for (const f of p.files) await m.fx.file(path.join(dir, f), 'ELF');
    await m.fx.file(path.join(dir, 'info', 'files'), `${p.files.join('\n')}\n`);
    repodata[fn] = { name: p.name, version: p.version, build: p.build, build_number: 0, depends: [], subdir: 'linux-64' };
  }
  await m.fx.file(path.join(channel, 'linux-64', 'repodata.json'), JSON.stringify({ info: { subdir: 'linux-64' }, packages: repodata }, null, 2));
  await m.fx.file(path.join(m.home, '.condarc'), `channels:\n  - file://${channel}\n`);
  await writeFile(path.join(m.bin, 'conda'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'test/fixtures/conda/conda.mjs')}" "$@"\n`);
  await chmod(path.join(m.bin, 'conda'), 0o755);
  return channel;
}

/**
 * A real venv (python3 -m venv) with nvidia-* wheels laid out as pip lays them out: dist-info with
 * METADATA and RECORD, site-packages/nvidia/<part>/lib/*.so.N, each library's RUNPATH being
 * $ORIGIN (what NVIDIA's wheels carry), and other packages' Requires-Dist pins.
 */
export async function venvWithWheels(m: BrokenMachine, dir: string, wheels: { name: string; version: string; part: string; libs: string[] }[], others: { name: string; version: string; requires: string[] }[] = []): Promise<string> {
  await execa(path.join(m.bin, 'python3'), ['-m', 'venv', '--without-pip', dir]);
  const site = (await execa(path.join(dir, 'bin', 'python'), ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'])).stdout.trim();
  for (const w of wheels) {
    const dist = `${w.name.replace(/-/g, '_')}-${w.version}.dist-info`;
    const files = w.libs.map((l) => `nvidia/${w.part}/lib/${l}`);
    for (const f of files) {
      await mkdir(path.dirname(path.join(site, f)), { recursive: true });
      await writeFile(path.join(site, f), elfWithRunpath('$ORIGIN'));
    }
    await m.fx.file(path.join(site, 'nvidia', w.part, '__init__.py'), '');
    await m.fx.file(path.join(site, dist, 'METADATA'), `Metadata-Version: 2.1\nName: ${w.name}\nVersion: ${w.version}\n`);
    await m.fx.file(path.join(site, dist, 'RECORD'), [...files, `${dist}/METADATA`, `${dist}/RECORD`].map((f) => `${f},,`).join('\n') + '\n');
  }
  for (const o of others) {
    const dist = `${o.name.replace(/-/g, '_')}-${o.version}.dist-info`;
    await m.fx.file(path.join(site, dist, 'METADATA'), `Metadata-Version: 2.1\nName: ${o.name}\nVersion: ${o.version}\n${o.requires.map((r) => `Requires-Dist: ${r}\n`).join('')}`);
    await m.fx.file(path.join(site, dist, 'RECORD'), `${dist}/METADATA,,\n`);
  }
  return site;
}

/** The bytes of a minimal ELF header followed by a DT_RUNPATH string, enough for a reader to find it. */
function elfWithRunpath(runpath: string): Buffer {
  return Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56), Buffer.from(`\0${runpath}\0`)]);
}

/** This machine as a Host for an in-process run: its environment for the probes and every child. */
export function hostOf(m: Pick<BrokenMachine, 'home'>, env: Record<string, string>): Host {
  return { os: 'linux', env, home: m.home, run: (file, args, options = {}) => runCommand(file, args, { ...options, env: options.env ?? env }) };
}
