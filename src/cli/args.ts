// argv → the command, its flags and the global flags, as src/cli/spec.ts defines them. Global flags go
// anywhere (`cudawiz --json doctor`, `cudawiz doctor --json`). Unknown flags, missing values and extra
// arguments are usage errors (exit 2) that say what to do.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';
import { cliText } from '../i18n/cli.js';
import { checkedPath, runningOs } from '../path-flags.js';
import { osUiLocale, type Env } from '../platform.js';
import type { GlobalOptions, ParsedCommand } from '../io/flags.js';
import { COMMAND_NAMES, COMMAND_SPECS, GLOBAL_FLAGS, isCommandName, locateCommand, type CommandName, type CommandSpec, type FlagSpec } from './spec.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgv extends ParsedCommand {
  /** Undefined: the wizard. */
  command?: CommandName;
  help: boolean;
  version: boolean;
}

/**
 * --lang, then CUDAWIZ_LANG, then the locale as POSIX reads it (LC_ALL, LC_MESSAGES, LANG; an empty one
 * counts as unset), then the OS's UI language (Windows, where those variables are usually absent).
 */
export function detectLang(flag: string | undefined, env: Env, uiLocale: () => string | undefined = osUiLocale): 'en' | 'zh' {
  const value = flag ?? (env.CUDAWIZ_LANG || env.LC_ALL || env.LC_MESSAGES || env.LANG || uiLocale() || '');
  return /^zh/i.test(value) ? 'zh' : 'en';
}

function optionsOf(flags: Record<string, FlagSpec>): OptionSpec {
  return Object.fromEntries(Object.entries(flags).map(([name, f]) => [name, f.short ? { type: f.type, short: f.short } : { type: f.type }]));
}

function globalsOf(v: Record<string, unknown>, env: Env, isTTY: boolean): GlobalOptions {
  const str = (name: string) => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
  return {
    cudaRoot: str('cuda-root'),
    mirror: str('mirror') ?? env.CUDAWIZ_MIRROR,
    cacheDir: str('cache-dir') ?? env.CUDAWIZ_CACHE_DIR,
    catalog: str('catalog') ?? env.CUDAWIZ_CATALOG,
    lang: detectLang(str('lang'), env),
    log: str('log'),
    color: !v['no-color'] && env.NO_COLOR === undefined && isTTY,
    verbose: Boolean(v.verbose),
    json: Boolean(v.json),
  };
}

/**
 * What can be read from argv before it is known to be valid: the command, whether --help, --json
 * or --no-color were given, the language. A usage error is then said in that language and form.
 */
export function readArgvLoosely(argv: readonly string[], env: Env): { command?: string; help: boolean; json: boolean; noColor: boolean; lang: 'en' | 'zh' } {
  const located = locateCommand(argv);
  const rest = located ? argv.filter((_, i) => i !== located.index) : [...argv];
  const command = located?.name === 'help' ? rest.find((a) => !a.startsWith('-')) : located?.name;
  const { values } = parseArgs({ args: rest, options: optionsOf(GLOBAL_FLAGS), strict: false, allowPositionals: true });
  const lang = typeof values.lang === 'string' ? values.lang : undefined;
  return { command, help: located?.name === 'help' || Boolean(values.help), json: Boolean(values.json), noColor: Boolean(values['no-color']), lang: detectLang(lang, env) };
}

const where = (command: CommandName | undefined) => (command ? `cudawiz ${command}` : cliText.theWizard);

/** Which other commands take a flag this one does not: the user may have meant one of them. */
function ownersOf(flag: string): CommandName[] {
  return COMMAND_NAMES.filter((c) => Object.hasOwn(COMMAND_SPECS[c].flags, flag));
}

function usageErrorOf(error: NodeJS.ErrnoException, command: CommandName | undefined, spec: CommandSpec | undefined): UsageError {
  const flag = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1] ?? '';
  const help = cliText.seeCommandHelp(command ? `cudawiz ${command}` : 'cudawiz');
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const owners = ownersOf(flag.replace(/^-+/, ''));
    return new UsageError(cliText.unknownFlag(flag, where(command)), owners.length ? `${cliText.unknownFlagElsewhere(flag, owners.join(', '))} ${help}` : help);
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = flag.replace(/^-+/, '');
    const f = (spec?.flags as Record<string, FlagSpec> | undefined)?.[name] ?? (GLOBAL_FLAGS as Record<string, FlagSpec>)[name];
    if (f?.type === 'boolean') return new UsageError(cliText.flagTakesNoValue(`--${name}`), help);
    const example = spec?.examples.find((e) => e.includes(`--${name} `));
    return new UsageError(cliText.flagNeedsValue(`--${name}`), example ? cliText.forExample(example) : f?.value ? cliText.forExample(`--${name} ${f.value}`) : help);
  }
  return new UsageError(error.message, help);
}

export function parseArgv(argv: readonly string[], env: Env, isTTY: boolean): ParsedArgv {
  const located = locateCommand(argv);
  let command: CommandName | undefined;
  let rest = [...argv];
  if (located) {
    if (located.name === 'help') {
      // `cudawiz help [COMMAND]`: the help, of that command if it is one.
      const loose = readArgvLoosely(argv, env);
      const named = loose.command && isCommandName(loose.command) ? loose.command : undefined;
      return { command: named, help: true, version: false, values: {}, positionals: [], globals: globalsOf({ lang: loose.lang }, env, isTTY) };
    }
    if (!isCommandName(located.name)) throw new UsageError(cliText.unknownCommand(located.name), cliText.unknownCommandFix(COMMAND_NAMES.join(', ')));
    command = located.name;
    rest = argv.filter((_, i) => i !== located.index);
  }
  const spec: CommandSpec | undefined = command ? COMMAND_SPECS[command] : undefined;
  // A command's own flag wins over a global of the same name (download's --version).
  const options = { ...optionsOf(GLOBAL_FLAGS), ...(spec ? optionsOf(spec.flags) : {}) };
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorOf(error as NodeJS.ErrnoException, command, spec);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const help = Boolean(v.help);
  const version = !spec?.flags || !Object.hasOwn(spec.flags, 'version') ? Boolean(v.version) : false;
  const lang = v.lang as string | undefined;
  if (lang !== undefined && lang !== 'en' && lang !== 'zh') throw new UsageError(cliText.langChoice(lang));
  const globals = globalsOf(v, env, isTTY);
  const result: ParsedArgv = { command, help, version, values: parsed.values as ParsedCommand['values'], positionals: parsed.positionals, globals };
  if (help || version) return result;
  settlePaths(result, spec);
  const allowed = spec?.positional ? 1 : 0;
  if (parsed.positionals.length > allowed) {
    const extra = parsed.positionals[allowed];
    throw new UsageError(
      allowed === 0 ? cliText.noArguments(where(command), extra) : cliText.tooManyArguments(where(command), allowed, extra),
      cliText.seeCommandHelp(command ? `cudawiz ${command}` : 'cudawiz'),
    );
  }
  if (spec?.positional && !spec.positional.optional && parsed.positionals.length === 0) {
    throw new UsageError(cliText.argumentRequired(where(command), spec.positional.name), cliText.forExample(spec.examples[0]));
  }
  for (const [name, f] of Object.entries(spec?.flags ?? {}) as [string, FlagSpec][]) {
    if (!f.required || (typeof v[name] === 'string' && v[name] !== '')) continue;
    const example = spec?.examples.find((e) => e.includes(`--${name} `)) ?? spec?.examples[0] ?? '';
    throw new UsageError(cliText.flagRequired(`--${name}`), cliText.forExample(example));
  }
  return result;
}

/** Every DIR/FILE/PATH flag (and the env variables standing for them) checked and made absolute up front. */
function settlePaths(result: ParsedArgv, spec: CommandSpec | undefined): void {
  const os = runningOs();
  const g = result.globals;
  // CUDAWIZ_CACHE_DIR= / CUDAWIZ_CATALOG= set to nothing mean unset.
  if (g.cacheDir === '') g.cacheDir = undefined;
  if (g.catalog === '') g.catalog = undefined;
  const rule = (f: FlagSpec | undefined) => (f?.value === 'DIR' || f?.value === 'FILE' ? { resolve: true } : f?.value === 'PATH' ? { resolve: false } : undefined);
  if (g.cudaRoot !== undefined) g.cudaRoot = checkedPath('--cuda-root', g.cudaRoot, { resolve: true, listEntry: true }, os);
  if (g.cacheDir !== undefined) g.cacheDir = checkedPath('--cache-dir', g.cacheDir, { resolve: true }, os);
  if (g.catalog !== undefined) g.catalog = checkedPath('--catalog', g.catalog, { resolve: true }, os);
  if (g.log !== undefined) g.log = checkedPath('--log', g.log, { resolve: true }, os);
  for (const [name, f] of Object.entries(spec?.flags ?? {}) as [string, FlagSpec][]) {
    const r = rule(f);
    const value = result.values[name];
    if (r && typeof value === 'string') result.values[name] = checkedPath(`--${name}`, value, r, os);
  }
}
