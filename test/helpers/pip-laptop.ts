// A Linux laptop for the pip route: an RTX 2060 on driver 525 (fixture nvidia-smi), the driver's
// libcuda.so.1, and a python3 whose `-m venv DIR` makes a real venv (without pip: there is no index)
// whose bin/pip is the fixture pip. Nothing outside a temp home.
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hostPython } from '../fixtures/machine.js';
import { FAKE_PIP } from '../fixtures/venv/fixture-venv.js';
import { repoRoot } from './cli.js';
import { tempDir } from './tmp.js';

export interface PipLaptop {
  home: string;
  /** The environment a user's shell on it has. */
  env: { HOME: string; PATH: string; LD_LIBRARY_PATH: string };
  /** --cuda-root and --cache-dir inside the home. */
  globals: string[];
}

export async function pipLaptop(prefix = 'cw-pip-'): Promise<PipLaptop> {
  const home = await tempDir(prefix);
  const bin = path.join(home, 'bin');
  const driver = path.join(home, 'driver-lib');
  await Promise.all([mkdir(bin), mkdir(driver)]);
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(driver, 'libcuda.so.1'), 'fixture driver library');
  const real = await hostPython();
  await writeFile(path.join(bin, 'python3'), [
    '#!/bin/sh',
    'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then',
    `  "${real}" -m venv --without-pip "$3" || exit $?`,
    `  printf '#!/bin/sh\\nexec "$(dirname "$0")/python" "${FAKE_PIP}" "$@"\\n' > "$3/bin/pip" && chmod 755 "$3/bin/pip"`,
    '  exit 0',
    'fi',
    `exec "${real}" "$@"`,
  ].join('\n'));
  await chmod(path.join(bin, 'python3'), 0o755);
  return {
    home,
    env: { HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}`, LD_LIBRARY_PATH: driver },
    globals: ['--cuda-root', path.join(home, 'cuda-root'), '--cache-dir', path.join(home, 'cache')],
  };
}
