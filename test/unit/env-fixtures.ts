// Fixtures for the env tests: a temp machine root with toolkits, a recording `ldconfig`, and a
// registry stand-in (`reg.exe` + `powershell.exe` scripts) that keeps the Windows Path in files.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { runCommand, type Host } from '../../src/host.js';
import type { OsName } from '../../src/platform.js';
import { tempDir } from '../helpers/tmp.js';

export async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

/** TF's library file names for a TF version from the built-in catalog (toolkit + cuDNN, not the driver). */
export function tfLibraryFiles(tf: string, os: OsName): string[] {
  return requirementsFor(loadCatalog(), tf, os).libraries.filter((l) => l.from !== 'driver').map((l) => l.file);
}

/** A toolkit directory holding the given library files (empty files under their real names). */
export async function makeLinuxToolkit(dir: string, files: string[]): Promise<void> {
  await mkdir(path.join(dir, 'lib64'), { recursive: true });
  await mkdir(path.join(dir, 'extras/CUPTI/lib64'), { recursive: true });
  for (const f of files) await writeFile(path.join(dir, f.startsWith('libcupti') ? 'extras/CUPTI/lib64' : 'lib64', f), '');
}

// Records every call; `-p` prints the cache as ldconfig would build it from ld.so.conf.d in name order.
const LDCONFIG = `#!/bin/bash
printf '%s\\n' "ldconfig $*" >> "$FIXTURE_LOG"
if [ "$1" = "-p" ]; then
  echo "cache from $FIXTURE_CONF_DIR"
  for conf in "$FIXTURE_CONF_DIR"/*.conf; do
    grep -v '^#' "$conf" | while IFS= read -r dir; do
      for lib in "$dir"/lib*.so.*; do
        [ -e "$lib" ] && printf '\\t%s (libc6,x86-64) => %s\\n' "$(basename "$lib")" "$lib"
      done
    done
  done
fi
exit 0
`;

export interface LinuxMachine {
  root: string;
  home: string;
  log: string;
  host: Host;
  calls(): Promise<string[]>;
}

export async function linuxMachine(options: { shell?: string; homeName?: string; env?: Record<string, string> } = {}): Promise<LinuxMachine> {
  const root = await tempDir('cudawiz-env-');
  const home = path.join(root, 'home', options.homeName ?? 'ada');
  await mkdir(home, { recursive: true });
  await mkdir(path.join(root, 'etc/ld.so.conf.d'), { recursive: true });
  await writeFile(path.join(root, 'etc/ld.so.conf.d/libc.conf'), '# libc default configuration\n/usr/local/lib\n');
  const bin = path.join(root, 'fixture-bin');
  await writeExecutable(path.join(bin, 'ldconfig'), LDCONFIG);
  const log = path.join(root, 'calls.log');
  const env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    SHELL: options.shell ?? '/bin/bash',
    FIXTURE_LOG: log,
    FIXTURE_CONF_DIR: path.join(root, 'etc/ld.so.conf.d'),
    ...options.env,
  };
  return {
    root,
    home,
    log,
    host: { os: 'linux', env, home, run: runCommand },
    calls: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean),
  };
}

// reg.exe and powershell.exe as the registry stand-in: the Path of each hive lives in
// $FIXTURE_REGISTRY/<HKLM|HKCU>.value and .kind; powershell decodes -EncodedCommand like the real one.
const REG = `#!/bin/bash
printf '%s\\n' "reg.exe $*" >> "$FIXTURE_LOG"
hive="\${2%%\\\\*}"
# Without /v: the key's values, exit 0 (the key is always there), the Path line only where it is set.
if [ "$3" != "/v" ]; then
  printf '\\r\\n%s\\r\\n' "$2"
  [ -f "$FIXTURE_REGISTRY/$hive.value" ] && printf '    Path    %s    %s\\r\\n' "$(cat "$FIXTURE_REGISTRY/$hive.kind")" "$(cat "$FIXTURE_REGISTRY/$hive.value")"
  printf '    TEMP    REG_EXPAND_SZ    %s\\r\\n\\r\\n' '%USERPROFILE%\\AppData\\Local\\Temp'
  exit 0
fi
# FIXTURE_REG_LANG=zh plays a Chinese Windows, whose reg.exe says "not found" in Chinese.
if [ ! -f "$FIXTURE_REGISTRY/$hive.value" ] && [ "$FIXTURE_REG_LANG" = zh ]; then
  echo "错误: 系统找不到指定的注册表项或值。" >&2; exit 1
fi
if [ ! -f "$FIXTURE_REGISTRY/$hive.value" ]; then
  echo "ERROR: The system was unable to find the specified registry key or value." >&2; exit 1
fi
printf '\\r\\n%s\\r\\n    Path    %s    %s\\r\\n\\r\\n' "$2" "$(cat "$FIXTURE_REGISTRY/$hive.kind")" "$(cat "$FIXTURE_REGISTRY/$hive.value")"
`;

const POWERSHELL = `#!/usr/bin/env python3
import base64, os, re, sys
args = sys.argv[1:]
script = base64.b64decode(args[args.index('-EncodedCommand') + 1]).decode('utf-16-le')
with open(os.environ['FIXTURE_LOG'], 'a') as log:
    log.write('powershell.exe ' + ' '.join(args[:-1]) + ' <encoded>\\n')
    log.write('script: ' + script + '\\n')
if os.environ.get('FIXTURE_POWERSHELL_FAIL'):
    sys.stderr.write('Requested registry access is not allowed.\\n'); sys.exit(1)
d = re.search(r"\\[Microsoft\\.Win32\\.Registry\\]::(LocalMachine|CurrentUser)\\.OpenSubKey\\('((?:[^']|'')*)', \\$true\\); \\$k\\.DeleteValue\\('Path', \\$false\\)", script)
if d:
    hive = 'HKLM' if d.group(1) == 'LocalMachine' else 'HKCU'
    for ext in ('.value', '.kind'):
        f = os.path.join(os.environ['FIXTURE_REGISTRY'], hive + ext)
        if os.path.exists(f): os.remove(f)
    sys.exit(0)
m = re.search(r"\\[Microsoft\\.Win32\\.Registry\\]::(LocalMachine|CurrentUser)\\.OpenSubKey\\('((?:[^']|'')*)', \\$true\\); \\$k\\.SetValue\\('Path', '((?:[^']|'')*)', \\[Microsoft\\.Win32\\.RegistryValueKind\\]::(ExpandString|String)\\)", script)
if not m: sys.stderr.write('fixture: unexpected script\\n'); sys.exit(2)
hive = 'HKLM' if m.group(1) == 'LocalMachine' else 'HKCU'
reg = os.environ['FIXTURE_REGISTRY']
open(os.path.join(reg, hive + '.value'), 'w').write(m.group(3).replace("''", "'"))
open(os.path.join(reg, hive + '.kind'), 'w').write('REG_EXPAND_SZ' if m.group(4) == 'ExpandString' else 'REG_SZ')
`;

export interface WindowsMachine {
  host: Host;
  registry: string;
  setPersisted(hive: 'HKLM' | 'HKCU', value: string, kind?: string): Promise<void>;
  persisted(hive: 'HKLM' | 'HKCU'): Promise<{ value: string; kind: string }>;
  /** Whether the hive has a Path value at all. */
  exists(hive: 'HKLM' | 'HKCU'): Promise<boolean>;
  calls(): Promise<string[]>;
}

/** `regLang: 'zh'`: reg.exe says "not found" in Chinese, as on a Chinese Windows. */
export async function windowsMachine(options: { processPath: string; env?: Record<string, string>; regLang?: 'zh' }): Promise<WindowsMachine> {
  const root = await tempDir('cudawiz-envwin-');
  const bin = path.join(root, 'fixture-bin');
  await writeExecutable(path.join(bin, 'reg.exe'), REG);
  await writeExecutable(path.join(bin, 'powershell.exe'), POWERSHELL);
  const registry = path.join(root, 'registry');
  await mkdir(registry);
  const log = path.join(root, 'calls.log');
  const fixtureEnv = { PATH: `${bin}:${process.env.PATH ?? ''}`, FIXTURE_LOG: log, FIXTURE_REGISTRY: registry, FIXTURE_REG_LANG: options.regLang ?? '' };
  // The host's env is the Windows process environment; the fixture's own variables ride along only to the scripts.
  const env = { ...options.env, Path: options.processPath };
  const host: Host = {
    os: 'windows',
    env,
    home: 'C:\\Users\\ada',
    run: (file, args, o) => runCommand(file, args, { ...o, env: { ...o?.env, ...fixtureEnv } }),
  };
  return {
    host,
    registry,
    setPersisted: async (hive, value, kind = 'REG_EXPAND_SZ') => {
      await writeFile(path.join(registry, `${hive}.value`), value);
      await writeFile(path.join(registry, `${hive}.kind`), kind);
    },
    exists: async (hive) => readFile(path.join(registry, `${hive}.value`)).then(() => true, () => false),
    persisted: async (hive) => ({
      value: await readFile(path.join(registry, `${hive}.value`), 'utf8'),
      kind: await readFile(path.join(registry, `${hive}.kind`), 'utf8'),
    }),
    calls: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean),
  };
}
