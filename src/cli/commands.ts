// The command table: names, one-line summaries, usage, flags, and a lazy loader for each.
import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from './context.js';

export interface CommandModule {
  run(ctx: CommandContext): Promise<number>;
}

export interface CommandEntry {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  flags: [string, string][];
  load(): Promise<CommandModule>;
}

/** What install and repair share: both run a plan through the same runner. */
const PLAN_OPTIONS = {
  'cudnn-archive': { type: 'string' },
  downloads: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'dry-run': { type: 'boolean' },
  'allow-unverified': { type: 'boolean' },
  connections: { type: 'string' },
  'configure-env': { type: 'string' },
  'override-compiler-check': { type: 'boolean' },
} as const;
const PLAN_USAGE = '[--cudnn-archive FILE] [--downloads DIR] [--configure-env yes|no] [--connections N] [--allow-unverified] [--override-compiler-check] [--yes] [--dry-run] [--json]';
const PLAN_FLAGS: [string, string][] = [
  ['--downloads DIR', 'where to look for the cuDNN archive (default: your Downloads folder)'],
  ['--connections N', 'parallel connections for large downloads (default 4)'],
  ['--allow-unverified', 'accept a download for which no checksum is known'],
  ['--override-compiler-check', 'let the Linux runfile accept a gcc it does not list (its --override)'],
];

export const COMMANDS: Record<string, CommandEntry> = {
  requirements: {
    summary: 'What a TensorFlow version needs on an OS: Python, CUDA, cuDNN, driver, library names, installers.',
    usage: 'cudawiz requirements --tf V [--os windows|linux] [--gpu NAME|CC] [--json]',
    options: { tf: { type: 'string' }, os: { type: 'string' }, gpu: { type: 'string' } },
    flags: [
      ['--tf V', 'TensorFlow version (2.3, 2.3.1, 1.15.0 …)'],
      ['--os windows|linux', 'the OS to answer for (default: this one)'],
      ['--gpu NAME|CC', 'a GPU name ("RTX 4090") or compute capability (8.9): does that TF run on it?'],
    ],
    load: () => import('../commands/requirements.js'),
  },
  doctor: {
    summary: 'Scan this machine and give each fact a verdict and a fix.',
    usage: 'cudawiz doctor [--tf V] [--python PATH] [--cuda-root DIR] [--json]',
    options: { tf: { type: 'string' }, python: { type: 'string' } },
    flags: [
      ['--tf V', 'the TensorFlow version to check for (default: the pip-installed one)'],
      ['--python PATH', 'the Python interpreter to inspect (default: python3/python on PATH)'],
    ],
    load: () => import('../commands/doctor.js'),
  },
  explain: {
    summary: 'Read a TensorFlow log and say which CUDA/cuDNN its missing libraries mean, and what to do.',
    usage: 'cudawiz explain [FILE|-] [--os windows|linux] [--json]',
    options: { os: { type: 'string' } },
    flags: [
      ['FILE|-', 'the log file, or - (or nothing) for standard input'],
      ['--os windows|linux', 'the OS the log came from, for the fix lines (default: guessed from the log)'],
    ],
    load: () => import('../commands/explain.js'),
  },
  download: {
    summary: 'Fetch a verified CUDA installer or cuDNN archive (for offline machines).',
    usage: 'cudawiz download cuda|cudnn --version V [--os windows|linux] [--dest DIR] [--connections N] [--allow-unverified] [--json]',
    options: {
      version: { type: 'string' },
      os: { type: 'string' },
      dest: { type: 'string' },
      connections: { type: 'string' },
      'allow-unverified': { type: 'boolean' },
      cuda: { type: 'string' },
    },
    flags: [
      ['cuda|cudnn', 'what to fetch'],
      ['--version V', 'CUDA 10.1 or 10.1.243; cuDNN 7.6.5 (with --cuda X.Y when several builds exist)'],
      ['--cuda X.Y', 'for cudnn: the CUDA version the build is for'],
      ['--os windows|linux', 'the installer for that OS (default: this one)'],
      ['--dest DIR', 'copy the verified file there (default: leave it in the cache)'],
      ['--connections N', 'parallel connections for large files (default 4)'],
      ['--allow-unverified', 'accept a file for which no checksum is known'],
    ],
    load: () => import('../commands/download.js'),
  },
  install: {
    summary: 'The whole setup, headless: the same plan and runner as the wizard.',
    usage: `cudawiz install --tf V [--route toolkit|redist|pip] [--venv DIR] ${PLAN_USAGE}`,
    options: { tf: { type: 'string' }, route: { type: 'string' }, venv: { type: 'string' }, ...PLAN_OPTIONS },
    flags: [
      ['--tf V', 'the TensorFlow version to set up for'],
      ['--route toolkit|redist|pip', 'toolkit (default): CUDA + cuDNN in the system; redist: only the CUDA components TF loads, per user, no administrator (TF 2.5+); pip: tensorflow[and-cuda] in a venv (Linux/WSL2, TF 2.14+)'],
      ['--venv DIR', 'the pip route\'s virtual environment, made if absent (default: ./.venv)'],
      ['--cudnn-archive FILE', 'the cuDNN archive you downloaded after logging in to NVIDIA'],
      ['--yes, -y', 'go ahead without asking (also: --configure-env yes)'],
      ['--dry-run', 'print the plan and change nothing'],
      ['--configure-env yes|no', 'make the libraries findable (ld.so.conf.d / PATH; the venv\'s activate script on the pip route); default: no when headless without --yes'],
      ...PLAN_FLAGS,
    ],
    load: () => import('../commands/install.js'),
  },
  repair: {
    summary: 'Doctor, then fix: finish or roll back an interrupted copy, re-copy cuDNN, add a missing toolkit.',
    usage: `cudawiz repair [--tf V] [--python PATH] ${PLAN_USAGE}`,
    options: { tf: { type: 'string' }, python: { type: 'string' }, ...PLAN_OPTIONS },
    flags: [
      ['--tf V', 'the TensorFlow version to repair for (default: the pip-installed one)'],
      ['--python PATH', 'the Python whose TensorFlow to read'],
      ['--cudnn-archive FILE', 'a cuDNN archive to copy in again'],
      ['--yes, -y', 'go ahead without asking'],
      ['--dry-run', 'print the fixes and change nothing'],
      ['--configure-env yes|no', 'fix the loader path / PATH order too'],
      ...PLAN_FLAGS,
    ],
    load: () => import('../commands/repair.js'),
  },
  rollback: {
    summary: "Undo cudawiz's cuDNN copy in a toolkit from its manifest, restoring what it overwrote.",
    usage: 'cudawiz rollback [--cuda-dir DIR] [--json]',
    options: { 'cuda-dir': { type: 'string' }, yes: { type: 'boolean', short: 'y' } },
    flags: [['--cuda-dir DIR', 'the toolkit directory (default: every toolkit under --cuda-root with a cudawiz manifest)']],
    load: () => import('../commands/rollback.js'),
  },
};
