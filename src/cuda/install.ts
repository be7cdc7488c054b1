// Runs NVIDIA's CUDA installer silently: skips a toolkit that is already there, keeps the child's
// output in a log file, watches for a hang, stops the whole process tree on Ctrl+C, and checks the
// result by the files TensorFlow loads. Never prints; reports through onLog / onPhase.
import { fetchText } from '../i18n/fetch.js';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { moveInto, newFileStream, privateFolder } from '../trust/write.js';
import { safetyText } from '../i18n/safety.js';
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { startProgram } from '../trust/run.js';
import type { Catalog, CudaRelease } from '../catalog/schema.js';
import { CudawizError, EXIT } from '../errors.js';
import { runCommand, type CommandRunner, type Host } from '../host.js';
import {
  LINUX_CUDA_INSTALLER_LOG,
  LINUX_CUDA_INSTALLER_TMP_LOG,
  processTreeKill,
  toolkitDir as toolkitDirFor,
  windowsInstallerLogFiles,
  type Env,
  type OsName,
} from '../platform.js';
import { majorMinor } from '../version.js';
import { hasWindowsComponents, installerCommand, modernRunfile } from './args.js';
import { privateVerifiedCopy } from './verified-exec.js';
import { requireInstallPermission } from './elevation.js';
import { explainInstallerExit, type InstallerOutcome } from './exit-codes.js';
import { describeToolkitState, toolkitState, treeSize, type ToolkitState } from './toolkit-state.js';
import { cudaText as T } from '../i18n/cuda.js';
import { ownLines } from '../i18n/localized.js';

export type ToolkitPhase = 'checking' | 'skipped' | 'starting' | 'installing' | 'verifying' | 'stopping' | 'done';

export interface InstallToolkitOptions {
  os: OsName;
  catalog: Catalog;
  installerFile: string;
  release: CudaRelease;
  /** Where toolkits live (--cuda-root); the toolkit goes to its cuda-X.Y / vX.Y. */
  root: string;
  /** Linux --tmpdir: on a disk with room for the unpacked installer. */
  tmpDir: string;
  /** Where our copy of the installer's output goes (and Windows' -log dir). */
  logDir: string;
  signal?: AbortSignal;
  onLog?: (line: string) => void;
  onPhase?: (phase: ToolkitPhase) => void;
  /** The whole install; default 60 minutes. */
  timeoutMs?: number;
  /** No output and no growth in the toolkit, scratch or log dir for this long = hung; default 10 minutes. */
  hangMs?: number;
  /** Runs side commands (taskkill on Windows). */
  runner?: CommandRunner;
  /** Extra environment for the installer (tests point the fixture at temp paths). */
  env?: Env;
  /** The installer's own logs, to show their tail on failure; default per OS. */
  installerLogs?: string[];
  /** Linux 10.1+: the leftover log that crashes the runfile; default /tmp/cuda-installer.log. */
  leftoverLogFile?: string;
  overrideCompilerCheck?: boolean;
  /** When given, the rights to write the toolkit dir are checked before anything changes; `command` is how the user ran us. */
  permission?: { host: Host; command: string };
  /**
   * The sha256 the installer was verified to have. The file is then copied into a private folder,
   * hashed on the way, and only that copy runs: a file changed after its check never executes.
   */
  verifiedSha256?: string;
}

export interface InstallToolkitResult {
  toolkitDir: string;
  /** Our log of the installer's output; absent when skipped. */
  logFile?: string;
  skipped?: 'already-installed';
  /** A note for the user on an exit that still installed (telemetry missing, reboot asked). */
  warning?: string;
  /** Where a leftover installer log was moved so the runfile would not crash. */
  movedAside?: string;
}

const TAIL_LINES = 20;
const KILL_GRACE_MS = 3_000;

class LineTail {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly onLine?: (line: string) => void) {}
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n|\r/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.add(line);
  }
  end(): void {
    if (this.partial) this.add(this.partial);
    this.partial = '';
  }
  private add(line: string): void {
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
    this.onLine?.(line);
  }
  /** The last lines, one per line: a log's lines are shown as lines (each one's control characters still escaped at the output edge). */
  text(): string {
    return ownLines(this.lines.join('\n'));
  }
}

async function tailOfFile(file: string, lines = TAIL_LINES): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return ownLines(text.split(/\r?\n/).filter((l) => l.trim()).slice(-lines).join('\n'));
}

/** The newest of the installer's own logs written since `since`, with its tail. */
async function installerLogTail(files: string[], since: number): Promise<{ file: string; tail: string } | undefined> {
  const fresh: Array<{ file: string; mtime: number }> = [];
  for (const file of files) {
    const s = await stat(file).catch(() => undefined);
    if (s?.isFile() && s.mtimeMs >= since - 1000) fresh.push({ file, mtime: s.mtimeMs });
  }
  const newest = fresh.sort((a, b) => b.mtime - a.mtime)[0];
  return newest ? { file: newest.file, tail: await tailOfFile(newest.file) } : undefined;
}

function defaultInstallerLogs(os: OsName, tmpDir: string, logDir: string): string[] {
  // Root's runfile logs to /var/log, a user's to /tmp ("Logfile is /tmp/cuda-installer.log", lipzh5/ResearchProgress#19).
  return os === 'windows'
    ? windowsInstallerLogFiles(logDir)
    : [LINUX_CUDA_INSTALLER_LOG, LINUX_CUDA_INSTALLER_TMP_LOG, path.join(tmpDir, 'cuda-installer.log')];
}

/** Is any process of that group still running? Zombies left for a reaper do not count. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return true;
  }
  return entries.some((pid) => {
    try {
      // Fields after "(comm)": state, ppid, pgrp.
      const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      return Number(pgrp) === pgid && state !== 'Z';
    } catch {
      return false;
    }
  });
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

/** Linux: the runfile is started as a process-group leader, so the group holds its whole tree. */
async function killTree(os: OsName, child: ResultPromise, runner: CommandRunner): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const taskkill = processTreeKill(os, pid);
  if (taskkill) {
    await runner(taskkill.file, taskkill.args, { timeoutMs: 15_000 });
    return;
  }
  const signalGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone already
    }
  };
  signalGroup('SIGTERM');
  await until(() => child.exitCode === null && groupAlive(pid), KILL_GRACE_MS);
  signalGroup('SIGKILL');
  await until(() => groupAlive(pid), KILL_GRACE_MS);
}

/** 10.1+ runfiles crash on a leftover /tmp/cuda-installer.log: move it aside (kept, renamed) before starting. */
async function moveLeftoverLog(file: string): Promise<string | undefined> {
  const s = await stat(file).catch(() => undefined);
  if (!s) return undefined;
  const aside = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.old`;
  try {
    await moveInto(file, aside);
    return aside;
  } catch (error) {
    throw new CudawizError(T.leftoverLog(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message), {
      code: 'leftover-installer-log',
      fix: T.leftoverLogFix(file),
    });
  }
}

export async function installToolkit(options: InstallToolkitOptions): Promise<InstallToolkitResult> {
  const { os, catalog, release } = options;
  const version = release.version;
  const mm = majorMinor(version);
  const dir = toolkitDirFor(os, options.root, mm);
  const phase = (p: ToolkitPhase) => options.onPhase?.(p);
  const runner = options.runner ?? runCommand;

  phase('checking');
  const before = await toolkitState(os, catalog, dir, version);
  if (before.state === 'complete') {
    phase('skipped');
    return { toolkitDir: dir, skipped: 'already-installed' };
  }
  if (os === 'windows' && !hasWindowsComponents(catalog, version)) {
    throw new CudawizError(T.noWindowsComponents(mm), {
      code: 'no-windows-components',
      fix: T.noWindowsComponentsFix,
    });
  }
  if (!(await stat(options.installerFile).then((st) => st.isFile(), () => false))) {
    throw new CudawizError(T.installerMissing(options.installerFile), {
      code: 'installer-missing',
      fix: T.installerMissingFix(version),
    });
  }
  if (options.permission) await requireInstallPermission(options.permission.host, dir, options.permission.command);
  if (options.signal?.aborted) throw interrupted(before);

  await mkdir(options.logDir, { recursive: true });
  if (os === 'linux') await mkdir(options.tmpDir, { recursive: true });
  // Checked at the last moment, as a private copy: nothing else can swap it between check and run.
  const copy = options.verifiedSha256 ? await privateVerifiedCopy(options.installerFile, options.verifiedSha256, [options.tmpDir]) : undefined;
  try {
    const movedAside = os === 'linux' && modernRunfile(catalog, version) ? await moveLeftoverLog(options.leftoverLogFile ?? LINUX_CUDA_INSTALLER_TMP_LOG) : undefined;
    if (movedAside) options.onLog?.(T.movedAside(movedAside));
    return await runInstaller(options, { dir, version, movedAside, installerFile: copy?.file ?? options.installerFile, runner });
  } finally {
    await copy?.remove();
  }
}

async function runInstaller(
  options: InstallToolkitOptions,
  run: { dir: string; version: string; movedAside?: string; installerFile: string; runner: CommandRunner },
): Promise<InstallToolkitResult> {
  const { os, catalog } = options;
  const { dir, version, movedAside, runner } = run;
  const phase = (p: ToolkitPhase) => options.onPhase?.(p);
  const logFile = path.join(options.logDir, `cuda-${version}-installer.log`);
  // A fixed name under a cache others may write: the last run's log (or a link planted in its place)
  // is removed as a name, and the new one created exclusively, never written through a link.
  const log = await (privateFolder(options.logDir) ? rm(logFile, { force: true }) : Promise.reject(Object.assign(new Error('shared'), { code: safetyText.sharedFolder })))
    .then(() => newFileStream(logFile, 0o600))
    .catch((error: NodeJS.ErrnoException) => {
    throw new CudawizError(T.logUnwritable(logFile, error.code ?? error.message), {
      code: 'log-unwritable',
      fix: T.logUnwritableFix,
    });
  });
  // A later write error (disk full) must not crash the install; the tail is still kept in memory.
  log.on('error', () => undefined);
  const command = installerCommand({ ...options, installerFile: run.installerFile, version, toolkitDir: dir });
  log.write(`$ ${command.file} ${command.args.join(' ')}\n`);
  const started = Date.now();

  phase('starting');
  const { child } = await startProgram(command.file, command.args, {
    env: options.env as Record<string, string> | undefined,
    stdin: 'ignore',
    buffer: false,
    reject: false,
    detached: os === 'linux',
    windowsHide: true,
    // pytorch/builder writes -log:"<dir>" with the quotes; Windows must receive it as written.
    windowsVerbatimArguments: os === 'windows',
    // Verbatim also stops Node quoting argv[0]; quote it so a path with spaces stays one word.
    argv0: os === 'windows' ? `"${command.file}"` : undefined,
    cleanup: true,
  });
  phase('installing');

  let lastActivity = Date.now();
  const tail = new LineTail(options.onLog);
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      lastActivity = Date.now();
      log.write(chunk);
      tail.push(chunk.toString('utf8'));
    });
  }

  // Whichever comes first: the installer exits, the user interrupts, the clock runs out, or it hangs.
  let stopReason: 'interrupted' | 'timeout' | 'hang' | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (why: 'interrupted' | 'timeout' | 'hang') => {
    if (stopReason) return;
    stopReason = why;
    phase('stopping');
    // A descendant that left the tree could hold the pipes open; stop reading so the wait ends.
    stopping = killTree(os, child, runner).then(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    });
  };
  const onAbort = () => stop('interrupted');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop('interrupted');
  const hangMs = options.hangMs ?? 10 * 60_000;
  const totalTimer = setTimeout(() => stop('timeout'), options.timeoutMs ?? 60 * 60_000);
  // Busy but silent: the runfile unpacks into --tmpdir first, the Windows installer logs verbosely to -log.
  const watched = os === 'linux' ? [dir, options.tmpDir] : [dir, options.logDir];
  let lastSize = -1;
  let watching = false;
  const watchdog = setInterval(
    () => {
      if (watching) return;
      watching = true;
      void Promise.all(watched.map(treeSize))
        .then((sizes) => sizes.reduce((a, b) => a + b, 0))
        .then((size) => {
          if (size !== lastSize) {
            if (lastSize !== -1) lastActivity = Date.now();
            lastSize = size;
          }
          if (Date.now() - lastActivity >= hangMs) stop('hang');
        })
        .finally(() => (watching = false));
    },
    Math.min(Math.max(Math.floor(hangMs / 4), 20), 15_000),
  );

  const exit = await child;
  clearTimeout(totalTimer);
  clearInterval(watchdog);
  options.signal?.removeEventListener('abort', onAbort);
  await stopping;
  tail.end();
  await new Promise<void>((resolve) => log.end(resolve));

  const after = await toolkitState(os, catalog, dir, version);
  if (stopReason === 'interrupted') throw interrupted(after, logFile);
  if (stopReason) throw stopped(stopReason, after, logFile, tail.text(), stopReason === 'timeout' ? (options.timeoutMs ?? 0) : hangMs);

  const code = typeof exit.exitCode === 'number' ? exit.exitCode : undefined;
  if (code === undefined && !exit.signal) {
    throw new CudawizError(T.notStarted(String(exit.code ?? exit.shortMessage)), {
      code: 'installer-not-started',
      fix: T.notStartedFix(options.installerFile, os === 'linux'),
      details: { logFile },
    });
  }
  const own = await installerLogTail(options.installerLogs ?? defaultInstallerLogs(os, options.tmpDir, options.logDir), started);
  const outcome = explainInstallerExit(os, { code, signal: exit.signal ?? undefined }, `${tail.text()}\n${own?.tail ?? ''}`);
  if (outcome.kind === 'failed') throw failed(outcome, after, logFile, tail.text(), own);

  phase('verifying');
  if (after.state !== 'complete') {
    throw new CudawizError(T.incomplete(String(code ?? exit.signal), describeToolkitState(after)), {
      code: 'toolkit-incomplete',
      fix: own ? T.seeInstallerLog(own.file, own.tail) : T.seeLog(logFile),
      details: { toolkit: after, logFile, installerLog: own?.file, exit: code },
    });
  }
  phase('done');
  return { toolkitDir: dir, logFile, warning: outcome.kind === 'ok-with-warning' ? outcome.meaning : undefined, movedAside };
}

function interrupted(state: ToolkitState, logFile?: string): CudawizError {
  return new CudawizError(T.interrupted(describeToolkitState(state)), {
    code: 'installer-interrupted',
    exitCode: EXIT.interrupted,
    fix: state.state === 'absent' ? T.interruptedFixAbsent : T.interruptedFixPartial,
    details: { toolkit: state, logFile },
  });
}

function stopped(why: 'timeout' | 'hang', state: ToolkitState, logFile: string, tail: string, ms: number): CudawizError {
  const span = ms >= 60_000 ? fetchText.waitMinutes(Math.round((ms / 60_000) * 10) / 10) : fetchText.waitSeconds(Math.round(ms / 100) / 10);
  const described = describeToolkitState(state);
  return new CudawizError(why === 'timeout' ? T.timedOut(span, described) : T.hung(span, described), {
    code: why === 'timeout' ? 'installer-timeout' : 'installer-hung',
    fix: T.stoppedFix(logFile, tail),
    details: { toolkit: state, logFile },
  });
}

function failed(outcome: InstallerOutcome, state: ToolkitState, logFile: string, tail: string, own: { file: string; tail: string } | undefined): CudawizError {
  const shown = own ? T.installerLogEnds(own.file, own.tail) : tail ? T.outputEnds(tail) : T.outputIn(logFile);
  return new CudawizError(`${outcome.meaning}\n${shown}`, {
    code: `installer-${outcome.id}`,
    fix: `${outcome.fix ?? T.seeLog(logFile)}${state.state === 'absent' ? '' : `\n${describeToolkitState(state)}`}`,
    details: { outcome, toolkit: state, logFile, installerLog: own?.file },
  });
}
