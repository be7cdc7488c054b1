// `DIR/bin/pip install "tensorflow[and-cuda]==X"` as a child process whose output lines become typed
// progress events ("Collecting …", "Downloading … (N MB)", "Installing collected packages"); an
// AbortSignal stops it.
import { execa } from 'execa';
import { andCudaRequirement } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError, EXIT } from '../errors.js';
import type { Host } from '../host.js';
import { venvProgram } from '../platform.js';
import type { Venv } from './venv.js';

export type PipEvent =
  | { type: 'collecting'; line: string; name: string; requirement: string }
  /** A wheel (or its .metadata) fetched or taken from pip's cache; totalBytes sums the wheels so far. */
  | { type: 'download'; line: string; file: string; bytes?: number; cached: boolean; metadata: boolean; totalBytes: number }
  | { type: 'installing'; line: string; packages: string[] }
  | { type: 'installed'; line: string; packages: { name: string; version: string }[] }
  | { type: 'warning'; line: string }
  | { type: 'error'; line: string }
  | { type: 'output'; line: string };

export interface PipInstallResult {
  requirement: string;
  installed: { name: string; version: string }[];
  /** Bytes of wheels pip downloaded or took from its cache, as it printed them. */
  wheelBytes: number;
  warnings: string[];
}

export interface PipInstallOptions {
  /** The environment to install into: a Venv from createVenv, or its directory. */
  venv: Venv | string;
  catalog: Catalog;
  tf: string;
  signal?: AbortSignal;
  onEvent?: (event: PipEvent) => void;
}

const UNITS: Record<string, number> = { bytes: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 };

/** "(168.4 MB)" → 168400000; pip prints decimal units. */
export function parsePipSize(text: string): number | undefined {
  const m = /\((\d+(?:\.\d+)?)\s*(bytes|kB|KB|MB|GB)\)\s*$/.exec(text);
  return m ? Math.round(Number(m[1]) * UNITS[m[2]]) : undefined;
}

function distName(fileOrUrl: string): string {
  return fileOrUrl.split('/').pop() ?? fileOrUrl;
}

/** One line of pip's output → what it means. totalBytes is the running sum before this line. */
export function parsePipLine(line: string, totalBytes = 0): PipEvent {
  const t = line.trim();
  let m = /^Collecting (\S+)/.exec(t);
  if (m) return { type: 'collecting', line, requirement: m[1], name: m[1].split(/[[=<>!~;]/)[0] };
  m = /^(Downloading|Using cached) (\S+)(?: \(.*\))?$/.exec(t);
  if (m) {
    const file = distName(m[2]);
    const metadata = file.endsWith('.metadata');
    const bytes = parsePipSize(t);
    return { type: 'download', line, file, bytes, cached: m[1] === 'Using cached', metadata, totalBytes: totalBytes + (metadata ? 0 : bytes ?? 0) };
  }
  m = /^Installing collected packages: (.+)$/.exec(t);
  if (m) return { type: 'installing', line, packages: m[1].split(',').map((p) => p.trim()).filter(Boolean) };
  m = /^Successfully installed (.+)$/.exec(t);
  if (m) {
    const packages = m[1].split(/\s+/).map((nv) => {
      const at = nv.lastIndexOf('-');
      return { name: nv.slice(0, at), version: nv.slice(at + 1) };
    });
    return { type: 'installed', line, packages };
  }
  if (/^WARNING:/.test(t)) return { type: 'warning', line };
  if (/^ERROR:/.test(t)) return { type: 'error', line };
  return { type: 'output', line };
}

function abortError(): Error {
  const e = new Error('pip install was interrupted; run it again to continue (pip skips what it already installed).');
  e.name = 'AbortError';
  return e;
}

export async function pipInstallTensorflow(host: Host, options: PipInstallOptions): Promise<PipInstallResult> {
  const requirement = andCudaRequirement(options.catalog, options.tf);
  if (!requirement) {
    throw new CudawizError(`TensorFlow ${options.tf} has no tensorflow[and-cuda] (it starts at ${options.catalog.tensorflow.andCudaFirst}, Linux and WSL2 only).`, {
      code: 'no-and-cuda',
      exitCode: EXIT.usage,
      fix: `Install the CUDA toolkit and cuDNN instead: cudawiz install --tf ${options.tf}`,
    });
  }
  if (options.signal?.aborted) throw abortError();
  const pip = typeof options.venv === 'string' ? venvProgram(host.os, options.venv, 'pip') : options.venv.pip;
  const sub = execa(pip, ['install', '--progress-bar', 'off', requirement], {
    cancelSignal: options.signal,
    all: true,
    reject: false,
    stdin: 'ignore',
    env: { ...(host.env as Record<string, string>), PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONUNBUFFERED: '1' },
    extendEnv: false,
    windowsHide: true,
  });
  let total = 0;
  const installed: PipInstallResult['installed'] = [];
  const warnings: string[] = [];
  const tail: string[] = [];
  try {
    for await (const line of sub.iterable({ from: 'all' })) {
      const event = parsePipLine(line, total);
      if (event.type === 'download') total = event.totalBytes;
      if (event.type === 'installed') installed.push(...event.packages);
      if (event.type === 'warning') warnings.push(line.trim());
      if (line.trim()) tail.push(line.trim());
      if (tail.length > 8) tail.shift();
      options.onEvent?.(event);
    }
  } catch {
    // the iterator ends with the child; its result below says how
  }
  const r = await sub;
  if (r.isCanceled || options.signal?.aborted) throw abortError();
  if (r.failed) {
    const errorLine = tail.filter((l) => l.startsWith('ERROR:')).join(' ') || tail.slice(-3).join(' ') || (r.shortMessage ?? 'no output');
    const noMatch = /No matching distribution|Could not find a version/.test(errorLine);
    throw new CudawizError(`pip could not install ${requirement}: ${errorLine}`, {
      code: 'pip-install-failed',
      fix: noMatch
        ? `This Python may be outside the range TensorFlow ${options.tf} supports (see: cudawiz requirements --tf ${options.tf}); create the environment with a Python in that range.`
        : r.exitCode === undefined
          ? `Could not run ${pip}; create the environment again (python3 -m venv DIR).`
          : `Run \`${pip} install "${requirement}"\` yourself to see the whole output.`,
    });
  }
  // TF 2.13 and older silently ignore the extra: no CUDA wheels arrive (tensorflow/tensorflow#61993).
  const ignoredExtra = warnings.find((w) => /does not provide the extra 'and-cuda'/.test(w));
  if (ignoredExtra) {
    throw new CudawizError(`pip installed TensorFlow without its CUDA wheels: ${ignoredExtra}`, {
      code: 'and-cuda-ignored',
      fix: `Pin a release with the extra: pip install "${requirement}"`,
    });
  }
  return { requirement, installed, wheelBytes: total, warnings };
}
