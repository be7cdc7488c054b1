// A command's flags as the dispatcher hands them over (src/cli/args.ts parses argv into these), and the
// readers a command uses for their values. Below the commands and the dispatcher alike.
import { UsageError } from '../errors.js';
import { cliText } from '../i18n/cli.js';
import { parseOsName, type OsName } from '../platform.js';

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

export function osOption(value: unknown, fallback: OsName): OsName {
  if (value === undefined) return fallback;
  const os = parseOsName(String(value));
  if (!os) throw new UsageError(cliText.osChoice(String(value)));
  return os;
}

/** A required flag's value; the example comes from the caller (its command's spec holds more). */
export function requireString(values: ParsedCommand['values'], name: string, example: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(cliText.flagRequired(`--${name}`), cliText.forExample(example));
  return v;
}
