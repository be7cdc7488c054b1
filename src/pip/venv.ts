// A virtual environment for the pip route: use the one at DIR when it is a venv, else create it with
// `python3 -m venv DIR`. Never writes into a directory that is something else.
import { stepsText } from '../i18n/steps.js';
import fs from 'node:fs';
import path from 'node:path';
import { CudawizError, EXIT } from '../errors.js';
import { pipText } from '../i18n/pip.js';
import type { Host } from '../host.js';
import { VENV_MARKER_FILE, pythonCommands, venvActivateScript, venvProgram } from '../platform.js';

export interface Venv {
  dir: string;
  python: string;
  pip: string;
  activate: string;
  /** false when DIR already was a virtual environment and was used as it is. */
  created: boolean;
}

export interface CreateVenvOptions {
  dir: string;
  /** The Python to create it with; default python3. */
  python?: string;
}

function venvAt(host: Host, dir: string, created: boolean): Venv {
  return {
    dir,
    python: venvProgram(host.os, dir, 'python'),
    pip: venvProgram(host.os, dir, 'pip'),
    activate: venvActivateScript(host.os, dir),
    created,
  };
}

export function isVenv(host: Host, dir: string): boolean {
  return fs.existsSync(path.join(dir, VENV_MARKER_FILE)) && fs.existsSync(venvProgram(host.os, dir, 'python'));
}

export async function createVenv(host: Host, options: CreateVenvOptions): Promise<Venv> {
  const dir = path.resolve(options.dir);
  if (isVenv(host, dir)) return venvAt(host, dir, false);
  let entries: string[] = [];
  const existed = fs.existsSync(dir);
  if (existed && !fs.statSync(dir).isDirectory()) {
    throw new CudawizError(pipText.venvIsFile(dir), { code: 'venv-not-a-venv', exitCode: EXIT.usage, fix: pipText.venvIsFileFix });
  }
  try {
    entries = fs.readdirSync(dir);
  } catch {
    // absent: venv creates it
  }
  if (entries.length > 0) {
    throw new CudawizError(pipText.notAVenv(dir, VENV_MARKER_FILE), {
      code: 'venv-not-a-venv',
      exitCode: EXIT.usage,
      fix: pipText.notAVenvFix,
    });
  }
  const python = options.python ?? pythonCommands(host.os)[0];
  const r = await host.run(python, ['-m', 'venv', dir], { timeoutMs: 180_000 });
  if (r.exitCode === 0 && isVenv(host, dir)) return venvAt(host, dir, true);
  // A half-made venv (ensurepip missing) is ours to remove: leave the directory as it was.
  if (existed) for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  else fs.rmSync(dir, { recursive: true, force: true });
  const said = `${r.stdout}\n${r.stderr}`.trim();
  // Debian/Ubuntu split venv out of Python: "ensurepip is not available … apt install python3.11-venv".
  const apt = /apt install (python3[\d.]*-venv)/.exec(said)?.[1];
  // Python's own words, quoted as it printed them.
  const tail = said.split('\n').slice(-3).join(' ');
  const why = r.exitCode === null ? (r.failure === undefined ? pipText.couldNotBeRun : pipText.quoted(r.failure)) : tail ? pipText.quoted(tail) : stepsText.exitCode(r.exitCode);
  throw new CudawizError(pipText.venvFailed(dir, python, why), {
    code: 'venv-failed',
    fix: apt
      ? pipText.installVenvModule(apt)
      : r.exitCode === null
        ? pipText.installPython3
        : pipText.runVenvYourself(python, dir),
  });
}
