// Finding and running the machine's own programs (nvidia-smi, nvcc, python, ldconfig) through the
// host's command runner, with the machine's PATH looked up in the machine's filesystem.
import type { CommandResult, Host } from '../host.js';
import { envGet, pathFor, splitPathList } from '../platform.js';
import type { MachineFs } from './machine-fs.js';

/** The machine path of `name` on PATH (Windows adds .exe), or undefined. */
export function findOnPath(host: Host, mfs: MachineFs, name: string): string | undefined {
  const p = pathFor(host.os);
  const names = host.os === 'windows' && !/\.(exe|bat|cmd)$/i.test(name) ? [`${name}.exe`] : [name];
  for (const dir of splitPathList(host.os, envGet(host.os, host.env, 'PATH'))) {
    for (const n of names) {
      const candidate = p.join(dir, n);
      if (host.os === 'windows' ? mfs.isFile(candidate) : mfs.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A bare name is looked up on PATH; an absolute path is checked as it is. */
export function locateProgram(host: Host, mfs: MachineFs, nameOrPath: string): string | undefined {
  const p = pathFor(host.os);
  if (p.isAbsolute(nameOrPath)) return mfs.isFile(nameOrPath) ? nameOrPath : undefined;
  return findOnPath(host, mfs, nameOrPath);
}

export function runProgram(host: Host, mfs: MachineFs, machinePath: string, args: readonly string[], timeoutMs = 20_000): Promise<CommandResult> {
  return host.run(mfs.hostPath(machinePath), args, { timeoutMs });
}

/** The first non-empty line, for evidence. */
export function firstLine(text: string): string {
  return text.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0) ?? '';
}
