// Verdicts on pip's wheel-provided CUDA (tensorflow[and-cuda]): which copy of each library TF will
// load — the wheels' or a system toolkit's — and whether the wheel folders must go on the loader path.
import type { Requirements } from '../catalog/queries.js';
import type { PipEnvironment, MachineFacts } from '../probe/types.js';
import { finding, type Finding } from './finding.js';

/** The command that applies the loader-path fix (with consent) for this environment. */
export function wheelFixCommand(pip: PipEnvironment, tf: string): string | undefined {
  return pip.fix.venv && !pip.fix.blocker ? `cudawiz install --tf ${tf} --route pip --venv ${pip.fix.venv} --yes` : undefined;
}

function describeLoad(l: PipEnvironment['loads'][number]): string {
  return l.from === 'none' ? `${l.file}: the loader finds no copy` : `${l.file} → ${l.dir} (${l.from === 'wheels' ? 'wheel' : 'system'}, via ${l.via})`;
}

function loaderPathFinding(pip: PipEnvironment, tf: string): Finding | undefined {
  const { fix } = pip;
  if (fix.alreadyApplied) return finding('wheel-loader-path', 'pass', `The wheel library folders are on the loader path (cudawiz's block in ${fix.activateScript})`);
  if (!fix.needed) return undefined;
  const command = wheelFixCommand(pip, tf);
  return finding('wheel-loader-path', 'fail', `TensorFlow ${tf} will not find its pip-installed CUDA libraries: ${fix.missingDirs.length} wheel folder(s) are not on LD_LIBRARY_PATH`,
    [...fix.why, ...fix.missingDirs.slice(0, 4).map((d) => `not searched: ${d}`), ...(fix.missingDirs.length > 4 ? [`… and ${fix.missingDirs.length - 4} more`] : [])],
    command
      ? `${command}   (adds them to ${fix.activateScript}; to undo, delete cudawiz's marked block there)`
      : `${fix.blocker ?? ''} Add these lines to your shell profile:\n${fix.lines.join('\n')}`.trim());
}

export function pipFindings(facts: MachineFacts, req: Requirements | undefined): Finding[] {
  const pip = facts.pip;
  if (!pip || !req?.gpuSupported || req.os !== 'linux') return [];
  const tf = pip.tensorflow?.version ?? req.tensorflow;
  const wanted = new Set(req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file));
  const loads = pip.loads.filter((l) => wanted.has(l.file));
  const where = `${pip.python}${pip.venv ? ` (virtual environment ${pip.venv})` : ''}`;
  const versions = [pip.cudaFromWheels ? `CUDA ${pip.cudaFromWheels}` : '', pip.cudnnFromWheels ? `cuDNN ${pip.cudnnFromWheels}` : ''].filter(Boolean).join(', ');
  const evidence = [`${where}: ${versions || `${pip.packages.length} nvidia-* wheels`}`, ...loads.map(describeLoad)];
  const out: Finding[] = [];
  const system = loads.filter((l) => l.from === 'system');
  const none = loads.filter((l) => l.from === 'none');
  const command = wheelFixCommand(pip, tf);
  if (system.length) {
    out.push(finding('pip-cuda', 'warn', `TensorFlow loads ${system.map((l) => l.file).join(', ')} from the system, not from the pip wheels in ${pip.venv ?? pip.python}`, evidence,
      command ? `Put the wheel folders first: ${command}` : `Put ${pip.libDirs[0] ?? 'the wheel folders'} (and the other nvidia/*/lib folders) first on LD_LIBRARY_PATH.`));
  } else if (none.length && !pip.fix.needed) {
    out.push(finding('pip-cuda', 'warn', `The loader finds no copy of ${none.map((l) => l.file).join(', ')}`, evidence,
      `Reinstall the wheels: ${pip.venv ? `${pip.venv}/bin/` : ''}pip install --force-reinstall "tensorflow[and-cuda]==${tf}"`));
  } else {
    out.push(finding('pip-cuda', none.length ? 'warn' : 'pass', `${versions || 'CUDA'} from pip's nvidia-* wheels${pip.venv ? ` in ${pip.venv}` : ''}${none.length ? ' — off the loader path (see wheel-loader-path)' : `; TensorFlow loads them from the wheels`}`, evidence));
  }
  const loaderPath = loaderPathFinding(pip, tf);
  if (loaderPath) out.push(loaderPath);
  return out;
}
