// Which package index pip will fetch the pip route's wheels from, read the way pip reads it: its
// configuration files in pip's own load order (PIP_CONFIG_FILE, global, user, site: each later file
// overrides the earlier; `[install]` over `[global]` within a file), then PIP_INDEX_URL over them all.
// That is how users behind a slow link point pip at a nearby index; the plan says which one is used.
// Source: pip's documentation, "Configuration" (pip.pypa.io/en/stable/topics/configuration/).
import path from 'node:path';
import type { Env, OsName } from '../platform.js';

export const PYPI_SIMPLE = 'https://pypi.org/simple';

export interface PipIndex {
  url: string;
  /** env: PIP_INDEX_URL; file: a pip.conf / pip.ini; default: pip's own (PyPI). */
  from: 'env' | 'file' | 'default';
  file?: string;
  /** extra-index-url values (PIP_EXTRA_INDEX_URL or the files), which pip also asks. */
  extra: string[];
}

/** `[section]` → key → value of an INI file as pip (configparser) reads it; continuation lines are joined with spaces. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let last: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (head) {
      section = out.get(head[1].trim()) ?? new Map();
      out.set(head[1].trim(), section);
      last = undefined;
      continue;
    }
    if (/^\s/.test(raw) && section && last) {
      section.set(last, `${section.get(last)} ${raw.trim()}`.trim());
      continue;
    }
    const kv = /^\s*([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw);
    if (kv && section) {
      last = kv[1].toLowerCase().replaceAll('_', '-');
      section.set(last, kv[2].trim());
    }
  }
  return out;
}

/** pip's configuration files for this user, in the order pip loads them (later wins). */
export function pipConfigFiles(os: OsName, env: Env, home: string, venvDir?: string): string[] {
  const files: string[] = [];
  if (env.PIP_CONFIG_FILE) files.push(env.PIP_CONFIG_FILE);
  if (os === 'windows') {
    const p = path.win32;
    files.push(p.join(env.ProgramData ?? env.PROGRAMDATA ?? 'C:\\ProgramData', 'pip', 'pip.ini'));
    files.push(p.join(env.HOME ?? home, 'pip', 'pip.ini'));
    if (env.APPDATA) files.push(p.join(env.APPDATA, 'pip', 'pip.ini'));
    if (venvDir) files.push(p.join(venvDir, 'pip.ini'));
    return files;
  }
  const p = path.posix;
  for (const dir of (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean)) files.push(p.join(dir, 'pip', 'pip.conf'));
  files.push('/etc/pip.conf');
  files.push(p.join(home, '.pip', 'pip.conf'));
  files.push(p.join(env.XDG_CONFIG_HOME || p.join(home, '.config'), 'pip', 'pip.conf'));
  if (venvDir) files.push(p.join(venvDir, 'pip.conf'));
  return files;
}

/**
 * The index `pip install` will use. `read` returns a file's text or undefined (missing, unreadable).
 */
export function pipIndexInUse(options: { os: OsName; env: Env; home: string; venvDir?: string; read: (file: string) => string | undefined }): PipIndex {
  const { env } = options;
  let found: PipIndex = { url: PYPI_SIMPLE, from: 'default', extra: [] };
  const devnull = env.PIP_CONFIG_FILE === '/dev/null' || env.PIP_CONFIG_FILE?.toLowerCase() === 'nul';
  if (!devnull) {
    for (const file of pipConfigFiles(options.os, env, options.home, options.venvDir)) {
      const text = options.read(file);
      if (text === undefined) continue;
      const ini = parseIni(text);
      const value = (key: string) => ini.get('install')?.get(key) ?? ini.get('global')?.get(key);
      const url = value('index-url');
      const extra = value('extra-index-url');
      if (url) found = { ...found, url, from: 'file', file };
      if (extra) found = { ...found, extra: extra.split(/\s+/).filter(Boolean) };
    }
  }
  if (env.PIP_INDEX_URL) found = { ...found, url: env.PIP_INDEX_URL, from: 'env', file: undefined };
  if (env.PIP_EXTRA_INDEX_URL) found = { ...found, extra: env.PIP_EXTRA_INDEX_URL.split(/\s+/).filter(Boolean) };
  return found;
}
