// `DIR/bin/pip install "tensorflow[and-cuda]==X"` as a child process whose output lines become typed
// progress events ("Collecting …", "Downloading … (N MB)", "Installing collected packages"); an
// AbortSignal stops it.
import { startProgram } from '../trust/run.js';
import { andCudaRequirement } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { CudawizError, EXIT } from '../errors.js';
import { pipText } from '../i18n/pip.js';
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
  const e = new Error(pipText.interrupted);
  e.name = 'AbortError';
  return e;
}

export async function pipInstallTensorflow(host: Host, options: PipInstallOptions): Promise<PipInstallResult> {
  const requirement = andCudaRequirement(options.catalog, options.tf);
  if (!requirement) {
    throw new CudawizError(pipText.noAndCuda(options.tf, options.catalog.tensorflow.andCudaFirst), {
      code: 'no-and-cuda',
      exitCode: EXIT.usage,
      fix: pipText.noAndCudaFix(options.tf),
    });
  }
  if (options.signal?.aborted) throw abortError();
  const pip = typeof options.venv === 'string' ? venvProgram(host.os, options.venv, 'pip') : options.venv.pip;
  const { child: sub } = await startProgram(pip, ['install', '--progress-bar', 'off', requirement], {
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
    // pip's own words, quoted as it printed them.
    const said = tail.filter((l) => l.startsWith('ERROR:')).join(' ') || tail.slice(-3).join(' ') || r.shortMessage;
    const errorLine = said === undefined ? pipText.noOutput : pipText.quoted(said);
    const noMatch = /No matching distribution|Could not find a version/.test(said ?? '');
    throw new CudawizError(pipText.pipFailed(requirement, errorLine), {
      code: 'pip-install-failed',
      fix: noMatch
        ? pipText.pythonOutOfRange(options.tf)
        : r.exitCode === undefined
          ? pipText.pipNotRunnable(pip)
          : pipText.runPipYourself(pip, requirement),
    });
  }
  // TF 2.13 and older silently ignore the extra: no CUDA wheels arrive (tensorflow/tensorflow#61993).
  const ignoredExtra = warnings.find((w) => /does not provide the extra 'and-cuda'/.test(w));
  if (ignoredExtra) {
    throw new CudawizError(pipText.extraIgnored(pipText.quoted(ignoredExtra)), {
      code: 'and-cuda-ignored',
      fix: pipText.pinRelease(requirement),
    });
  }
  return { requirement, installed, wheelBytes: total, warnings };
}
