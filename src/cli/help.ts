import { COMMANDS } from './commands.js';

export const GLOBAL_FLAGS: [string, string][] = [
  ['--cuda-root DIR', 'where toolkits live (default /usr/local on Linux, %ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA on Windows)'],
  ['--mirror URL', "replace NVIDIA's download hosts, keeping their paths (env CUDAWIZ_MIRROR)"],
  ['--cache-dir DIR', 'where downloads are kept (env CUDAWIZ_CACHE_DIR)'],
  ['--catalog FILE', 'a JSON overlay on the built-in catalog (env CUDAWIZ_CATALOG)'],
  ['--lang en|zh', 'language (env CUDAWIZ_LANG, else the locale)'],
  ['--log FILE', 'write a log of the run there'],
  ['--json', 'print one JSON document (JSON lines for a running plan) and nothing else'],
  ['--no-color', 'no colours (also NO_COLOR)'],
  ['--verbose', "install/repair: also print the installer's and pip's output lines"],
  ['--version, -v', 'print the version'],
  ['--help, -h', 'this help; `cudawiz COMMAND --help` for one command'],
];

function table(rows: [string, string][], indent = '  '): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}  ${b}`).join('\n');
}

export function mainHelp(): string {
  const cmds = Object.entries(COMMANDS).map(([name, c]) => [name, c.summary] as [string, string]);
  return [
    'cudawiz — make this machine ready for TensorFlow on an NVIDIA GPU, and repair it later.',
    '',
    'Usage:',
    '  cudawiz                 the step-by-step wizard (needs a terminal)',
    '  cudawiz COMMAND [flags]',
    '',
    'Commands:',
    table(cmds),
    '',
    'Global flags:',
    table(GLOBAL_FLAGS),
    '',
    'Exit codes: 0 done/healthy · 1 problems found or a step failed · 2 usage error',
    '            3 waiting on you (e.g. the cuDNN archive is needed) · 130 interrupted',
  ].join('\n');
}

export function commandHelp(name: string): string {
  const c = COMMANDS[name];
  return [`Usage: ${c.usage}`, '', c.summary, '', 'Flags:', table(c.flags), '', 'Global flags: see cudawiz --help'].join('\n');
}
