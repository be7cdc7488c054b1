// A Windows machine under Wine for one test: a copy of the lane's prepared prefix (C:\ with the
// fixture programs in place), its own wineserver, and the built CLI run by the official node.exe.
// The Wine rules from reference/wine.md: every stdio stream a file (a Unix pipe breaks node.exe),
// `wineserver -p` first with its stdio at /dev/null, and Windows 10 as the reported version.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { builtCli } from '../helpers/cli.js';

export interface WineRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RegValue {
  kind: string;
  value: string;
}

export const MACHINE_ENV = 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment';
export const USER_ENV = 'HKCU\\Environment';
export const CUDA_ROOT = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA';

/** A Unix path as Windows programs under Wine name it (Z: is /). */
export function zPath(unix: string): string {
  return `Z:${path.resolve(unix).replace(/\//g, '\\')}`;
}

let counter = 0;

function wineEnv(prefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    // wineboot links the profile's Desktop, Downloads … to $HOME: never the real one.
    HOME: path.join(path.dirname(prefix), 'home'),
    USER: process.env.USER ?? 'root',
    LANG: 'C.UTF-8',
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    WINEARCH: 'win64',
    ...extra,
  };
}

/** Runs a Unix command with stdio in files (never pipes), stdin from a file or /dev/null. */
export async function runWithFiles(file: string, args: string[], options: { env: NodeJS.ProcessEnv; dir: string; stdin?: string; timeoutMs?: number }): Promise<WineRun> {
  const n = ++counter;
  const out = path.join(options.dir, `run-${n}.out`);
  const err = path.join(options.dir, `run-${n}.err`);
  const fds = [openSync(options.stdin ?? '/dev/null', 'r'), openSync(out, 'w'), openSync(err, 'w')];
  try {
    const child = spawn(file, args, { env: options.env, stdio: fds });
    const code = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${file} ${args.join(' ')} ran past ${options.timeoutMs ?? 120_000} ms`));
      }, options.timeoutMs ?? 120_000);
      child.on('error', reject);
      child.on('exit', (c, signal) => {
        clearTimeout(timer);
        resolve(c ?? (signal ? 128 : -1));
      });
    });
    return { code, stdout: await readFile(out, 'utf8'), stderr: await readFile(err, 'utf8') };
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** `wine reg query KEY /v NAME` output → the value and its kind; undefined when it is not there. */
export function parseRegValue(stdout: string, name: string): RegValue | undefined {
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^\s+(\S.*?)\s{4}(REG_\w+)(?:\s{4}(.*))?$/.exec(line);
    if (m && m[1].toLowerCase() === name.toLowerCase()) return { kind: m[2], value: (m[3] ?? '').trimEnd() };
  }
  return undefined;
}

export interface LaneContext {
  nodeExe: string;
  fixtureExe: string;
  basePrefix: string;
  /** LOCPATH with zh_CN.UTF-8 compiled (localedef), for a Windows in Chinese. */
  locales: string;
}

/** The lane's prefix: wineboot once, Windows 10, the fixture programs where Windows keeps the real ones. */
export async function prepareBasePrefix(prefix: string, fixtureExe: string): Promise<void> {
  await mkdir(prefix, { recursive: true });
  await mkdir(path.join(path.dirname(prefix), 'home'), { recursive: true });
  const env = wineEnv(prefix);
  const dir = path.dirname(prefix);
  const wine = (...args: string[]) => runWithFiles('wine', args, { env, dir });
  // wineserver -p exits 2 when a server already runs for this prefix; that one is as good.
  await runWithFiles('wineserver', ['-p'], { env, dir });
  const boot = await wine('wineboot', '--init');
  if (boot.code !== 0) throw new Error(`wineboot --init failed (${boot.code}): ${boot.stderr}`);
  // Node 20 refuses Wine's default Windows 7 (exit 216); net.exe=native lets the fixture net.exe replace Wine's built-in one.
  for (const [key, name, value] of [
    ['HKCU\\Software\\Wine', 'Version', 'win10'],
    ['HKCU\\Software\\Wine\\DllOverrides', 'net.exe', 'native'],
  ]) {
    const r = await wine('reg', 'add', key, '/v', name, '/t', 'REG_SZ', '/d', value, '/f');
    if (r.code !== 0) throw new Error(`reg add ${key} /v ${name} failed: ${r.stderr}`);
  }
  // The profile's folders are links into $HOME; made real folders, each copy of the prefix has its own.
  const profile = path.join(prefix, 'drive_c', 'users', process.env.USER ?? 'root');
  for (const name of await readdir(profile)) {
    if ((await lstat(path.join(profile, name))).isSymbolicLink()) {
      await rm(path.join(profile, name));
      await mkdir(path.join(profile, name));
    }
  }
  const system32 = path.join(prefix, 'drive_c', 'windows', 'system32');
  // DCH drivers put nvidia-smi.exe and nvcuda.dll in System32; Wine's powershell.exe is a stub that does nothing.
  for (const rel of ['nvidia-smi.exe', 'net.exe', path.join('WindowsPowerShell', 'v1.0', 'powershell.exe')]) {
    await mkdir(path.dirname(path.join(system32, rel)), { recursive: true });
    await rm(path.join(system32, rel), { force: true });
    await copyFile(fixtureExe, path.join(system32, rel));
  }
  await copyFile(path.join(system32, 'version.dll'), path.join(system32, 'nvcuda.dll'));
  // -k saves the registry to the prefix's .reg files before the server goes.
  await runWithFiles('wineserver', ['-k'], { env, dir });
}

export class WineMachine {
  private constructor(
    readonly dir: string,
    readonly prefix: string,
    private readonly lane: LaneContext,
    /** Environment for every Windows process of this machine (FIXTURE_NOT_ADMIN, …). */
    public env: Record<string, string>,
  ) {}

  static async start(lane: LaneContext, env: Record<string, string> = {}): Promise<WineMachine> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-wine-'));
    const prefix = path.join(dir, 'prefix');
    // ~1 s for the 693 MiB prefix; wineboot would take 7 s.
    const cp = await runWithFiles('cp', ['-a', lane.basePrefix, prefix], { env: process.env, dir });
    if (cp.code !== 0) throw new Error(`cp -a ${lane.basePrefix} failed: ${cp.stderr}`);
    await mkdir(path.join(dir, 'home'));
    const m = new WineMachine(dir, prefix, lane, env);
    await runWithFiles('wineserver', ['-p'], { env: m.unixEnv(), dir });
    return m;
  }

  /** The command line that starts the built CLI here, for a terminal to run (Wine's console on a pty). */
  cliCommand(args: string[]): string[] {
    return ['wine', this.lane.nodeExe, zPath(builtCli), ...args];
  }

  unixEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return wineEnv(this.prefix, { ...this.env, ...extra });
  }

  /** A Windows program, started as a new process from the desktop would be (env built from the registry). */
  async exe(program: string, args: string[], options: { env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {}): Promise<WineRun> {
    return runWithFiles('wine', [program, ...args], { env: this.unixEnv(options.env), dir: this.dir, stdin: options.stdin, timeoutMs: options.timeoutMs });
  }

  /** The built CLI (dist/cli.js) on Windows node.exe. */
  async cli(args: string[], options: { env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {}): Promise<WineRun> {
    return this.exe(this.lane.nodeExe, [zPath(builtCli), ...args], options);
  }

  /**
   * The CLI on a Windows whose display language is `ui`, as a user starts it: Wine takes its locale
   * from the Unix LANG (and the lane's compiled zh_CN locale), and cmd removes LANG and LOCPATH from the
   * Windows environment first, so node.exe has only the Windows UI language (Intl) to go by, as on Windows.
   * The arguments must not need quoting.
   */
  async cliInUiLanguage(ui: 'zh-CN' | 'en-US', args: string[]): Promise<WineRun> {
    const env: Record<string, string> = ui === 'zh-CN' ? { LANG: 'zh_CN.UTF-8', LOCPATH: this.lane.locales } : { LANG: 'C.UTF-8' };
    return this.exe('cmd', ['/c', `set LANG=&& set LOCPATH=&& set LC_ALL=&& ${zPath(this.lane.nodeExe)} ${zPath(builtCli)} ${args.join(' ')}`], { env });
  }

  async reg(key: string, name: string): Promise<RegValue | undefined> {
    const r = await this.exe('reg', ['query', key, '/v', name]);
    return r.code === 0 ? parseRegValue(r.stdout, name) : undefined;
  }

  async setReg(key: string, name: string, kind: string, value: string): Promise<void> {
    const r = await this.exe('reg', ['add', key, '/v', name, '/t', kind, '/d', value, '/f']);
    if (r.code !== 0) throw new Error(`reg add ${key} /v ${name} failed: ${r.stderr}`);
  }

  /** The host path of a C:\ path, matching each part case-insensitively as Windows does. */
  host(windowsPath: string): string {
    const m = /^([a-z]):\\?(.*)$/i.exec(windowsPath);
    if (!m) throw new Error(`not a drive path: ${windowsPath}`);
    let at = path.join(this.prefix, `drive_${m[1].toLowerCase()}`);
    for (const part of m[2].split('\\').filter(Boolean)) {
      const found = existsSync(at) ? readdirSync(at).find((n) => n.toLowerCase() === part.toLowerCase()) : undefined;
      at = path.join(at, found ?? part);
    }
    return at;
  }

  exists(windowsPath: string): boolean {
    return existsSync(this.host(windowsPath));
  }

  async readFile(windowsPath: string): Promise<string> {
    return readFile(this.host(windowsPath), 'utf8');
  }

  async writeFile(windowsPath: string, data: string | Buffer): Promise<void> {
    const file = this.host(windowsPath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  /** A copy of the fixture program under a Windows name (nvcc.exe in a toolkit, an installer). */
  async fixtureProgram(windowsPath: string): Promise<void> {
    const file = this.host(windowsPath);
    await mkdir(path.dirname(file), { recursive: true });
    await copyFile(this.lane.fixtureExe, file);
  }

  /** Every call the fixture programs logged, oldest first. */
  async fixtureCalls(): Promise<{ program: string; args: string[]; script?: string }[]> {
    const text = await readFile(this.host('C:\\fixture-calls.log'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  }

  async close(): Promise<void> {
    await runWithFiles('wineserver', ['-k'], { env: this.unixEnv(), dir: this.dir }).catch(() => undefined);
    // A story cut off by its timeout may leave a Wine process writing while -k takes it down.
    await rm(this.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}
