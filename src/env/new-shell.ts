// The environment a shell (or a program) started now gets, as opposed to this process's own: the one
// place verify and the env step ask "would a new terminal's loader find TF's libraries?".
// Windows: the saved Machine + User PATH (a registry write reaches new processes only).
// Linux: this process's environment, plus what the user's rc file sources from cudawiz's own env
// scripts — the only startup lines cudawiz reads back, because they are the only ones it wrote.
// ld.so.conf.d needs nothing here: the loader's cache is the same for every shell.
import { readFile } from 'node:fs/promises';
import type { Host } from '../host.js';
import { envGet, pathListSeparator, shellRcFile, splitPathList } from '../platform.js';
import { normalizeWindowsDir } from './windows-plan.js';
import { newProcessPath } from './windows-path.js';

export interface NewShell {
  host: Host;
  /** The new shell's environment differs from this process's (the caller probes it afresh). */
  changed: boolean;
  /** Linux: the cudawiz env scripts the rc file sources (and that exist). */
  sourced: string[];
}

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}

/** The script a cudawiz rc line sources (`[ -f '…' ] && . '…'  # cudawiz`, or fish's `test -f '…'; and source '…'  # cudawiz`). */
export function sourcedScript(line: string): string | undefined {
  const posix = /^\[ -f ('(?:[^']|'\\'')*') \] && \. \1 {2}# cudawiz$/.exec(line.trim());
  if (posix) return posix[1].slice(1, -1).replace(/'\\''/g, "'");
  const fish = /^test -f ('(?:[^'\\]|\\.)*'); and source \1 {2}# cudawiz$/.exec(line.trim());
  if (fish) return fish[1].slice(1, -1).replace(/\\(.)/g, '$1');
  return undefined;
}

/** The folders a cudawiz env script puts first on each variable (the lines linux-plan.ts writes). */
export function scriptPrepends(content: string): { name: string; dirs: string[] }[] {
  const out: { name: string; dirs: string[] }[] = [];
  for (const line of content.split('\n')) {
    const sh = /^export ([A-Z_]+)="((?:[^"\\]|\\.)*)\$\{\1:\+:\$\{\1\}\}"$/.exec(line);
    if (sh) {
      out.push({ name: sh[1], dirs: sh[2].replace(/\\(.)/g, '$1').split(':').filter(Boolean) });
      continue;
    }
    const fish = /^set -gx ([A-Z_]+) ((?:'(?:[^'\\]|\\.)*' )+)\$\1$/.exec(line);
    if (fish) out.push({ name: fish[1], dirs: [...fish[2].matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1].replace(/\\(.)/g, '$1')) });
  }
  return out;
}

async function linuxNewShell(host: Host): Promise<NewShell> {
  const rc = shellRcFile(host.env.SHELL, host.home, host.env);
  const text = rc ? await readText(rc.file) : null;
  const env = { ...host.env };
  const sourced: string[] = [];
  for (const line of (text ?? '').split('\n')) {
    const script = sourcedScript(line);
    const content = script ? await readText(script) : null;
    if (!script || content === null) continue;
    sourced.push(script);
    for (const { name, dirs } of scriptPrepends(content)) env[name] = [...dirs, ...splitPathList('linux', env[name])].join(pathListSeparator('linux'));
  }
  const changed = Object.keys(env).some((k) => env[k] !== host.env[k]);
  return { host: changed ? withEnv(host, env) : host, changed, sourced };
}

async function windowsNewShell(host: Host): Promise<NewShell> {
  const saved = await newProcessPath(host);
  if (saved.value === undefined) return { host, changed: false, sourced: [] };
  const dirs = (value: string | undefined) => splitPathList('windows', value).map((d) => normalizeWindowsDir(d, host.env));
  const mine = dirs(envGet('windows', host.env, 'PATH'));
  const changed = dirs(saved.value).some((d) => !mine.includes(d));
  if (!changed) return { host, changed, sourced: [] };
  const env = { ...Object.fromEntries(Object.entries(host.env).filter(([k]) => k.toLowerCase() !== 'path')), Path: saved.value };
  return { host: withEnv(host, env), changed, sourced: [] };
}

function withEnv(host: Host, env: Host['env']): Host {
  return { ...host, env, run: (file, args, options) => host.run(file, args, { ...options, env: options?.env ?? env }) };
}

/** The host as a shell started now sees it: its environment, and the programs it runs with that environment. */
export function newShellHost(host: Host): Promise<NewShell> {
  return host.os === 'windows' ? windowsNewShell(host) : linuxNewShell(host);
}
