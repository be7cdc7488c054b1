// Paths from flags and environment variables, settled before anything runs: absolute (a relative
// --cuda-root must not reach ld.so.conf.d as written), free of control characters (a newline there is
// a second directive), and for the toolkit root, free of the separator of the search paths built from it.
import path from 'node:path';
import { UsageError } from './errors.js';
import { fetchText } from './i18n/fetch.js';
import type { OsName } from './platform.js';

export interface PathFlagRule {
  /** Make it absolute against the current directory (DIR and FILE values; not a PATH that may be a bare command name). */
  resolve: boolean;
  /** It becomes an entry of PATH / LD_LIBRARY_PATH: refuse that list's separator. */
  listEntry?: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkedPath(flag: string, value: string, rule: PathFlagRule, os: OsName): string {
  if (value === '') throw new UsageError(fetchText.emptyPath(flag));
  if (CONTROL.test(value)) throw new UsageError(fetchText.controlCharacter(flag), fetchText.controlCharacterFix(flag));
  if (rule.listEntry && os === 'windows' && value.includes(';')) throw new UsageError(fetchText.semicolonInPath(flag, value), fetchText.semicolonInPathFix(flag));
  if (rule.listEntry && os === 'linux' && value.includes(':')) throw new UsageError(fetchText.colonInPath(flag, value), fetchText.colonInPathFix(flag));
  return rule.resolve ? (os === 'windows' ? path.win32 : path.posix).resolve(value) : value;
}

/** The OS this process runs on, for the path rules (the Windows build under Wine says win32). */
export const runningOs = (): OsName => (process.platform === 'win32' ? 'windows' : 'linux');
