// Planning environment changes: read the facts (async, never throws), then decide (pure).
import { envText } from '../i18n/env.js';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import envPaths from 'env-paths';
import { UsageError } from '../errors.js';
import type { Host } from '../host.js';
import { envGet, LINUX_LD_SO_CONF_DIR, pathFor, shellRcFile, toolkitSubdirs, type OsName } from '../platform.js';
import { envScriptFile, planLinuxEnv } from './linux-plan.js';
import type { EnvChange, EnvPlan, EnvPlanInput, EnvPlaces, LinuxEnvState, ToolkitLibraries, WindowsEnvState } from './types.js';
import { planWindowsEnv } from './windows-plan.js';
import { readPersistedPath } from './windows-path.js';

/** Every place cudawiz writes to; `root` puts the system ones (ld.so.conf.d, config dir) under a test dir. */
export function envPlaces(options: { host: Host; root?: string; configDir?: string }): EnvPlaces {
  const { host, root } = options;
  const p = pathFor(host.os);
  // Linux: the host's own XDG config dir (what env-paths reads from this process's env in production),
  // so a run for another home (a test, sudo -u) writes beside that home, never this process's.
  const linuxConfig = host.os === 'linux' ? path.posix.join(host.env.XDG_CONFIG_HOME || path.posix.join(host.home, '.config'), 'cudawiz') : undefined;
  const configDir = options.configDir ?? (root ? p.join(root, 'config', 'cudawiz') : linuxConfig ?? envPaths('cudawiz', { suffix: '' }).config);
  return {
    ldSoConfDir: root ? p.join(root, LINUX_LD_SO_CONF_DIR) : LINUX_LD_SO_CONF_DIR,
    configDir,
    // The journal is cudawiz's own file on this host, whatever OS the plan is for.
    journalFile: path.join(configDir, 'env-journal.json'),
    home: host.home,
  };
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** Which of TF's files each toolkit's library folders hold (Linux lib64 + CUPTI, Windows bin). */
export async function listToolkitLibraries(os: OsName, toolkits: { version: string; dir: string }[], requiredFiles: string[]): Promise<ToolkitLibraries[]> {
  const sub = toolkitSubdirs(os);
  const p = pathFor(os);
  return Promise.all(
    toolkits.map(async (t) => {
      const dirs = os === 'windows' ? [p.join(t.dir, sub.bin)] : [p.join(t.dir, sub.lib), p.join(t.dir, sub.cupti)];
      const present = (await Promise.all(dirs.map(listDir))).flat().map((f) => (os === 'windows' ? f.toLowerCase() : f));
      return { ...t, files: requiredFiles.filter((f) => present.includes(os === 'windows' ? f.toLowerCase() : f)) };
    }),
  );
}

export async function readLinuxEnvState(host: Host, places: EnvPlaces, cuda: string): Promise<LinuxEnvState> {
  const names = (await listDir(places.ldSoConfDir)).filter((n) => n.endsWith('.conf')).sort();
  const ldSoConf = await Promise.all(names.map(async (name) => ({ name, content: (await readText(path.posix.join(places.ldSoConfDir, name))) ?? '' })));
  const shell = host.env.SHELL;
  const rc = shellRcFile(shell, places.home, host.env);
  const paths = [envScriptFile(places.configDir, cuda, 'posix'), envScriptFile(places.configDir, cuda, 'fish'), ...(rc ? [rc.file] : [])];
  const files: Record<string, string | null> = {};
  for (const f of paths) files[f] = await readText(f);
  return { ldSoConf, files, ldLibraryPath: host.env.LD_LIBRARY_PATH, shell };
}

export async function readWindowsEnvState(host: Host): Promise<WindowsEnvState> {
  const state: WindowsEnvState = { processPath: envGet('windows', host.env, 'PATH') ?? '', persisted: {}, unreadable: [], cudaPath: envGet('windows', host.env, 'CUDA_PATH') };
  for (const scope of ['Machine', 'User'] as const) {
    const r = await readPersistedPath(host, scope);
    if (r.path) state.persisted[scope] = r.path;
    else state.unreadable.push(r.error ?? `the ${scope} PATH`);
  }
  return state;
}

/** Decides every write that makes TF's libraries findable; changes nothing. */
export function planEnvChanges(input: EnvPlanInput): EnvPlan {
  const plan: EnvPlan = { os: input.os, changes: [], notes: [], manual: [], refusals: [] };
  if (input.os === 'windows') planWindowsEnv(input, plan);
  else planLinuxEnv(input, plan);
  return plan;
}

function indented(text: string | null): string[] {
  return (text ?? '').split('\n').filter((l) => l !== '').map((l) => `    ${l}`);
}

/** What a change will do, in words, before it happens (the first line is the summary). */
export function describeEnvChange(change: EnvChange): string[] {
  switch (change.kind) {
    case 'ld-so-conf':
    case 'env-script':
      return [change.before === null ? envText.create(change.target, change.why) : envText.rewrite(change.target, change.why), ...indented(change.after)];
    case 'ldconfig':
      return [envText.run([change.command?.file, ...(change.command?.args ?? [])].join(' '), change.why)];
    case 'package':
      return [envText.runManager([change.command?.file, ...(change.command?.args ?? [])].join(' '), change.why)];
    case 'rc-line':
      return [envText.addLine(change.target, change.why), `    ${change.line}`];
    case 'venv-activate':
      return [envText.addLine(path.posix.join(change.target, 'bin', 'activate'), change.why)];
    case 'venv-loader':
      return [envText.create(change.target, change.why)];
    case 'toolkit-installer':
      return [envText.run(change.installer?.file ?? change.target, change.why)];
    case 'windows-path':
      return [
        envText.setPath(change.target, change.why),
        ...(change.after ?? '').split(';').map((d) => `    ${d}`),
        envText.throughPowershell(change.command?.script ?? ''),
      ];
  }
}

export type EnvConsent = 'yes' | 'no' | 'ask';

/** --configure-env yes|no wins; else --yes means yes; else ask in a terminal and say no headless. */
export function envConsent(options: { flag?: string; yes?: boolean; tty: boolean }): EnvConsent {
  const flag = options.flag?.trim().toLowerCase();
  if (flag === 'yes' || flag === 'no') return flag;
  if (flag !== undefined) {
    throw new UsageError(envText.badConsent(options.flag), envText.badConsentFix);
  }
  if (options.yes) return 'yes';
  return options.tty ? 'ask' : 'no';
}

/**
 * --package-manager yes|no: whether repair may run a package manager's command (conda, pip, apt) on
 * what that manager owns. Never implied by --yes; without the flag, asked where a question can be
 * asked, else the command is left to the user.
 */
export function packageConsent(options: { flag?: string; tty: boolean }): EnvConsent {
  const flag = options.flag?.trim().toLowerCase();
  if (flag === 'yes' || flag === 'no') return flag;
  if (flag !== undefined) throw new UsageError(envText.badPackageConsent(options.flag), envText.badPackageConsentFix);
  return options.tty ? 'ask' : 'no';
}
