// The command line, defined once: every command's flags (name, type, value placeholder, help) and
// examples, and the global flags every command takes. The parser (args.ts), the usage lines and
// `--help` (help.ts) and the README check (test/unit/readme.test.ts) are all derived from this.
// Pure data (help texts are keys into src/i18n/cli.ts), so the bin can read it without loading more.
import type { CliStrings } from '../i18n/cli.js';
import { ROUTE_CHOICES } from '../routes/ids.js';

type HelpKey = { [K in keyof CliStrings]: CliStrings[K] extends string ? K : never }[keyof CliStrings];

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in usage and help: `--tf V`, `--os windows|linux`. */
  value?: string;
  /** Shown without brackets in the usage line. */
  required?: boolean;
  help: HelpKey;
}

export interface PositionalSpec {
  /** As shown: `FILE|-`, `cuda|cudnn`. */
  name: string;
  help: HelpKey;
  optional?: boolean;
}

export interface CommandSpec {
  summary: HelpKey;
  positional?: PositionalSpec;
  flags: Record<string, FlagSpec>;
  examples: string[];
  /** Where the examples name Linux paths or advice: the ones `--help` shows on Windows instead. */
  windowsExamples?: string[];
}

export const GLOBAL_FLAGS = {
  'cuda-root': { type: 'string', value: 'DIR', help: 'globalCudaRoot' },
  mirror: { type: 'string', value: 'URL', help: 'globalMirror' },
  'cache-dir': { type: 'string', value: 'DIR', help: 'globalCacheDir' },
  catalog: { type: 'string', value: 'FILE', help: 'globalCatalog' },
  lang: { type: 'string', value: 'en|zh', help: 'globalLang' },
  log: { type: 'string', value: 'FILE', help: 'globalLog' },
  json: { type: 'boolean', help: 'globalJson' },
  'no-color': { type: 'boolean', help: 'globalNoColor' },
  verbose: { type: 'boolean', help: 'globalVerbose' },
  version: { type: 'boolean', short: 'v', help: 'globalVersion' },
  help: { type: 'boolean', short: 'h', help: 'globalHelp' },
} as const satisfies Record<string, FlagSpec>;

/** What install and repair share: both run a plan through the same runner. */
const PLAN_FLAGS = {
  'cudnn-archive': { type: 'string', value: 'FILE', help: 'planCudnnArchive' },
  from: { type: 'string', value: 'DIR', help: 'planFrom' },
  downloads: { type: 'string', value: 'DIR', help: 'planDownloads' },
  'configure-env': { type: 'string', value: 'yes|no', help: 'planConfigureEnv' },
  connections: { type: 'string', value: 'N', help: 'planConnections' },
  'allow-unverified': { type: 'boolean', help: 'planAllowUnverified' },
  'override-compiler-check': { type: 'boolean', help: 'planOverrideCompilerCheck' },
  yes: { type: 'boolean', short: 'y', help: 'planYes' },
  'dry-run': { type: 'boolean', help: 'planDryRun' },
} as const satisfies Record<string, FlagSpec>;

export const COMMAND_SPECS = {
  requirements: {
    summary: 'requirementsSummary',
    flags: {
      tf: { type: 'string', value: 'V', required: true, help: 'requirementsTf' },
      os: { type: 'string', value: 'windows|linux', help: 'requirementsOs' },
      gpu: { type: 'string', value: 'NAME|CC', help: 'requirementsGpu' },
    },
    examples: ['cudawiz requirements --tf 2.3', 'cudawiz requirements --tf 2.3 --os windows', 'cudawiz requirements --tf 2.10 --gpu "RTX 4090" --json'],
  },
  doctor: {
    summary: 'doctorSummary',
    flags: {
      tf: { type: 'string', value: 'V', help: 'doctorTf' },
      python: { type: 'string', value: 'PATH', help: 'doctorPython' },
    },
    examples: ['cudawiz doctor', 'cudawiz doctor --tf 2.10 --json'],
  },
  explain: {
    summary: 'explainSummary',
    positional: { name: 'FILE|-', help: 'explainFile', optional: true },
    flags: {
      os: { type: 'string', value: 'windows|linux|wsl', help: 'explainOs' },
      tf: { type: 'string', value: 'V', help: 'explainTf' },
    },
    examples: ['cudawiz explain tf.log', 'python train.py 2>&1 | cudawiz explain -', `cudawiz explain --tf 2.14 "Could not load dynamic library 'libcudnn.so.8'"`],
  },
  download: {
    summary: 'downloadSummary',
    positional: { name: 'cuda|cudnn', help: 'downloadWhat', optional: true },
    flags: {
      version: { type: 'string', value: 'V', help: 'downloadVersion' },
      tf: { type: 'string', value: 'V', help: 'downloadTf' },
      route: { type: 'string', value: ROUTE_CHOICES, help: 'downloadRoute' },
      cuda: { type: 'string', value: 'X.Y', help: 'downloadCuda' },
      os: { type: 'string', value: 'windows|linux', help: 'downloadOs' },
      dest: { type: 'string', value: 'DIR', help: 'downloadDest' },
      connections: { type: 'string', value: 'N', help: 'downloadConnections' },
      'allow-unverified': { type: 'boolean', help: 'downloadAllowUnverified' },
    },
    examples: ['cudawiz download cuda --version 10.1 --os linux', 'cudawiz download cudnn --version 7.6.5 --cuda 10.1 --dest .', 'cudawiz download --tf 2.10 --route redist --os windows --dest ./tf-2.10-bundle'],
  },
  install: {
    summary: 'installSummary',
    flags: {
      tf: { type: 'string', value: 'V', help: 'installTf' },
      route: { type: 'string', value: ROUTE_CHOICES, help: 'installRoute' },
      venv: { type: 'string', value: 'DIR', help: 'installVenv' },
      ...PLAN_FLAGS,
    },
    examples: ['cudawiz install --tf 2.3 --dry-run', 'cudawiz install --tf 2.3 --cudnn-archive ~/Downloads/cudnn-10.1-linux-x64-v7.6.5.32.tgz --yes', 'cudawiz install --tf 2.16.1 --route pip --venv ~/tf --yes', 'cudawiz install --tf 2.10 --route redist --yes'],
    windowsExamples: ['cudawiz install --tf 2.3 --dry-run', 'cudawiz install --tf 2.3 --cudnn-archive C:\\Users\\me\\Downloads\\cudnn-10.1-windows10-x64-v7.6.5.32.zip --yes', 'cudawiz install --tf 2.10 --route redist --yes'],
  },
  repair: {
    summary: 'repairSummary',
    flags: {
      tf: { type: 'string', value: 'V', help: 'repairTf' },
      python: { type: 'string', value: 'PATH', help: 'repairPython' },
      ...PLAN_FLAGS,
      'cudnn-archive': { ...PLAN_FLAGS['cudnn-archive'], help: 'repairCudnnArchive' },
      'configure-env': { ...PLAN_FLAGS['configure-env'], help: 'repairConfigureEnv' },
      'package-manager': { type: 'string', value: 'yes|no', help: 'repairPackageManager' },
      yes: { ...PLAN_FLAGS.yes, help: 'repairYes' },
      'dry-run': { ...PLAN_FLAGS['dry-run'], help: 'repairDryRun' },
    },
    examples: ['cudawiz repair --dry-run', 'cudawiz repair --yes', 'cudawiz repair --yes --package-manager yes'],
  },
  rollback: {
    summary: 'rollbackSummary',
    flags: {
      'cuda-dir': { type: 'string', value: 'DIR', help: 'rollbackCudaDir' },
      'dry-run': { type: 'boolean', help: 'rollbackDryRun' },
      'keep-toolkits': { type: 'boolean', help: 'rollbackKeepToolkits' },
      yes: { ...PLAN_FLAGS.yes, help: 'rollbackYes' },
    },
    examples: ['cudawiz rollback --dry-run', 'cudawiz rollback', 'cudawiz rollback --keep-toolkits', 'cudawiz rollback --cuda-dir /usr/local/cuda-10.1'],
    windowsExamples: ['cudawiz rollback --dry-run', 'cudawiz rollback', 'cudawiz rollback --keep-toolkits', 'cudawiz rollback --cuda-dir "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1"'],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMAND_SPECS;

export const COMMAND_NAMES = /* @__PURE__ */ Object.keys(COMMAND_SPECS) as CommandName[];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_SPECS, name);
}

/** Where the command name sits in argv: the first word that is not a flag nor a global flag's value. */
export function locateCommand(argv: readonly string[]): { index: number; name: string } | undefined {
  const globals = GLOBAL_FLAGS as Record<string, FlagSpec>;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (!a.startsWith('-') || a === '-') return { index: i, name: a };
    if (a.startsWith('--') && !a.includes('=') && globals[a.slice(2)]?.type === 'string') i++;
  }
  return undefined;
}
