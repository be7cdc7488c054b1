// argv → a command name, its options and the global options. Unknown flags are usage errors (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';
import { parseOsName, type Env, type OsName } from '../platform.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export const GLOBAL_OPTIONS = {
  'cuda-root': { type: 'string' },
  mirror: { type: 'string' },
  'cache-dir': { type: 'string' },
  catalog: { type: 'string' },
  lang: { type: 'string' },
  log: { type: 'string' },
  'no-color': { type: 'boolean' },
  verbose: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies OptionSpec;

export interface GlobalOptions {
  cudaRoot?: string;
  mirror?: string;
  cacheDir?: string;
  catalog?: string;
  lang: 'en' | 'zh';
  log?: string;
  color: boolean;
  verbose: boolean;
  json: boolean;
}

export interface ParsedCommand {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  globals: GlobalOptions;
}

export function detectLang(flag: string | undefined, env: Env): 'en' | 'zh' {
  const value = flag ?? env.CUDAWIZ_LANG ?? env.LC_ALL ?? env.LC_MESSAGES ?? env.LANG ?? '';
  return /^zh/i.test(value) ? 'zh' : 'en';
}

export function parseCommandArgs(argv: string[], options: OptionSpec, env: Env, isTTY: boolean): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, '.'), 'Run `cudawiz --help` for the list of commands and flags.');
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const lang = v.lang as string | undefined;
  if (lang !== undefined && lang !== 'en' && lang !== 'zh') throw new UsageError(`--lang must be en or zh, not "${lang}".`);
  const globals: GlobalOptions = {
    cudaRoot: v['cuda-root'] as string | undefined,
    mirror: (v.mirror as string | undefined) ?? env.CUDAWIZ_MIRROR,
    cacheDir: (v['cache-dir'] as string | undefined) ?? env.CUDAWIZ_CACHE_DIR,
    catalog: (v.catalog as string | undefined) ?? env.CUDAWIZ_CATALOG,
    lang: detectLang(lang, env),
    log: v.log as string | undefined,
    color: !v['no-color'] && env.NO_COLOR === undefined && isTTY,
    verbose: Boolean(v.verbose),
    json: Boolean(v.json),
  };
  return { values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals, globals };
}

export function osOption(value: unknown, fallback: OsName): OsName {
  if (value === undefined) return fallback;
  const os = parseOsName(String(value));
  if (!os) throw new UsageError(`--os must be windows or linux, not "${String(value)}".`);
  return os;
}

export function requireString(values: ParsedCommand['values'], name: string, example: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`--${name} is required.`, `For example: ${example}`);
  return v;
}
