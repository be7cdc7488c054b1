// The persisted Windows PATH: read raw through `reg query` (REG_EXPAND_SZ stays unexpanded) and
// written back with the same registry kind through PowerShell.
import { envText } from '../i18n/env.js';
import type { Host } from '../host.js';
import { envGet, powershellCommand, regQueryEnvKeyCommand, regQueryPathCommand, setPersistedPathScript, type Env, type WindowsEnvScope } from '../platform.js';
import type { EnvChange, PersistedPath } from './types.js';

/** `    Path    REG_EXPAND_SZ    %SystemRoot%\system32;…` → the raw value and its kind. */
export function parseRegQueryPath(stdout: string): PersistedPath | undefined {
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^\s+Path\s+(REG_EXPAND_SZ|REG_SZ)(?:\s{4}(.*))?$/i.exec(line);
    if (m) return { kind: m[1].toUpperCase() as PersistedPath['kind'], value: (m[2] ?? '').trimEnd() };
  }
  return undefined;
}

/**
 * The saved Path of one scope. A scope without a Path value (common for User) is an empty one;
 * `error` says why it could not be read at all.
 */
export async function readPersistedPath(host: Host, scope: WindowsEnvScope): Promise<{ path?: PersistedPath; error?: string }> {
  const cmd = regQueryPathCommand(scope);
  const r = await host.run(cmd.file, cmd.args, { env: host.env });
  if (r.exitCode === 0) {
    const parsed = parseRegQueryPath(r.stdout);
    return parsed ? { path: parsed } : { error: envText.noPathValue(`${cmd.file} ${cmd.args.join(' ')}`) };
  }
  // reg.exe exits 1 when Path is not set, with a message in the display language ("ERROR: The system
  // was unable to find…", "错误: 系统找不到…"): so ask for the whole key, which lists its values in
  // any language and exits 0 whenever the key is there. There and without a Path: an empty one.
  if (r.exitCode === 1) {
    const keyCmd = regQueryEnvKeyCommand(scope);
    const k = await host.run(keyCmd.file, keyCmd.args, { env: host.env });
    if (k.exitCode === 0) return { path: parseRegQueryPath(k.stdout) ?? { value: '', kind: 'REG_EXPAND_SZ', absent: true } };
  }
  return { error: envText.cmdFailed(`${cmd.file} ${cmd.args.join(' ')}`, r.failure ?? (r.stderr.trim() || `exit ${r.exitCode}`)) };
}

/** The journal's view of a saved Path: its value, or null where the scope has none (rollback then deletes it). */
export function persistedValue(p: PersistedPath | undefined): string | null | undefined {
  return p && (p.absent ? null : p.value);
}

export function persistedPathChange(scope: WindowsEnvScope, old: PersistedPath, value: string, why: string): EnvChange {
  const script = setPersistedPathScript(scope, value, old.kind);
  return { kind: 'windows-path', target: scope, before: persistedValue(old) ?? null, after: value, valueKind: old.kind, command: { ...powershellCommand(script), script }, why };
}

/** %VAR% replaced from `env` as Windows expands a REG_EXPAND_SZ value; unknown names stay as written. */
export function expandWindowsVars(value: string, env: Env): string {
  return value.replace(/%([^%;]+)%/g, (m, name: string) => envGet('windows', env, name) ?? m);
}

/**
 * The PATH Windows gives a process started now (a new terminal, TensorFlow run from it): the saved
 * Machine Path, then the User one, each expanded if it is REG_EXPAND_SZ. A registry write changes
 * this, never the PATH of processes already running — this one included.
 */
export async function newProcessPath(host: Host): Promise<{ value?: string; error?: string }> {
  const parts: string[] = [];
  for (const scope of ['Machine', 'User'] as const) {
    const r = await readPersistedPath(host, scope);
    if (!r.path) return { error: r.error };
    const value = r.path.kind === 'REG_EXPAND_SZ' ? expandWindowsVars(r.path.value, host.env) : r.path.value;
    if (value) parts.push(value.replace(/;+$/, ''));
  }
  return { value: parts.join(';') };
}
