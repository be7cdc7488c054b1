// `cudawiz --help`, `cudawiz COMMAND --help` and each command's usage line, all read off the spec
// (src/cli/spec.ts) in the run's language (src/i18n/cli.ts).
import { cliText } from '../i18n/cli.js';
import type { OsName } from '../platform.js';
import { COMMAND_NAMES, COMMAND_SPECS, GLOBAL_FLAGS, type CommandName, type CommandSpec, type FlagSpec } from './spec.js';

type Row = [string, string];

/** `--tf V`, `--yes, -y`, `--dry-run`. */
export function flagLabel(name: string, f: FlagSpec): string {
  return `--${name}${f.value ? ` ${f.value}` : ''}${f.short ? `, -${f.short}` : ''}`;
}

/** The flags a help page lists for a command: its own, then the global ones (in `cudawiz --help`). */
export function flagRows(flags: Record<string, FlagSpec>): Row[] {
  return Object.entries(flags).map(([name, f]) => [flagLabel(name, f), cliText[f.help]]);
}

export function usageLine(name: CommandName): string {
  const spec: CommandSpec = COMMAND_SPECS[name];
  const parts = [`cudawiz ${name}`];
  if (spec.positional) parts.push(spec.positional.optional ? `[${spec.positional.name}]` : spec.positional.name);
  const flags = Object.entries(spec.flags) as [string, FlagSpec][];
  // Required flags first, as the examples write them.
  for (const [flag, f] of [...flags.filter(([, f]) => f.required), ...flags.filter(([, f]) => !f.required)]) {
    const label = `--${flag}${f.value ? ` ${f.value}` : ''}`;
    parts.push(f.required ? label : `[${label}]`);
  }
  parts.push('[--json]');
  return parts.join(' ');
}

function table(rows: Row[], indent = '  '): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}  ${b}`).join('\n');
}

export function mainHelp(): string {
  const t = cliText;
  return [
    t.tagline,
    '',
    t.usageTitle,
    table([
      ['cudawiz', t.usageWizard],
      ['cudawiz COMMAND [flags]', ''],
    ]).replace(/ +$/gm, ''),
    '',
    t.commandsTitle,
    table(COMMAND_NAMES.map((name) => [name, t[COMMAND_SPECS[name].summary]])),
    '',
    t.globalFlagsTitle,
    table(flagRows(GLOBAL_FLAGS)),
    '',
    t.exitCodes,
  ].join('\n');
}

/** `os`: where --help runs; Windows gets its own examples where a command has them. */
export function commandHelp(name: CommandName, os: OsName = 'linux'): string {
  const spec: CommandSpec = COMMAND_SPECS[name];
  const examples = os === 'windows' && spec.windowsExamples ? spec.windowsExamples : spec.examples;
  const rows: Row[] = [...(spec.positional ? [[spec.positional.name, cliText[spec.positional.help]] as Row] : []), ...flagRows(spec.flags)];
  return [
    `${cliText.usageTitle} ${usageLine(name)}`,
    '',
    cliText[spec.summary],
    '',
    cliText.flagsTitle,
    table(rows),
    '',
    cliText.examplesTitle,
    ...examples.map((e) => `  ${e}`),
    '',
    cliText.globalFlagsSeeMain,
  ].join('\n');
}
