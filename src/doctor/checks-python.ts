// Verdicts on Python, the installed TensorFlow, and native-Windows GPU support.
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { MachineFacts } from '../probe/types.js';
import { inRange, majorMinor } from '../version.js';
import { wslRouteSteps } from './wsl-route.js';
import { finding, type Finding } from './finding.js';

/** The WSL2 route as numbered evidence lines; none when the catalog has no Linux row for this TF. */
function wslSteps(catalog: Catalog, tf: string): string[] {
  try {
    return wslRouteSteps(catalog, tf).map((s, i) => `WSL2 step ${i + 1}: ${s}`);
  } catch {
    return [];
  }
}

export function pythonFinding(facts: MachineFacts, req: Requirements | undefined): Finding {
  const py = facts.python;
  if (py.state === 'not-found') return finding('python', req ? 'fail' : 'warn', 'No Python interpreter found', [py.evidence ?? ''], 'Install 64-bit Python (or pass --python PATH).');
  if (py.state === 'could-not-collect' || !py.version) return finding('python', 'warn', `Could not ask ${py.command} for its version`, [py.evidence ?? ''], 'Run it yourself, or pass another interpreter with --python PATH.');
  const evidence = [`${py.command}${py.executable && py.executable !== py.command ? ` → ${py.executable}` : ''}`];
  if (py.bits === 32) return finding('python', 'fail', `Python ${py.version} is 32-bit; TensorFlow needs 64-bit Python`, evidence, 'Install the 64-bit Python from python.org and use it for TensorFlow.');
  if (!req) return finding('python', 'pass', `Python ${py.version} (${py.bits ?? '?'}-bit)`, evidence);
  const { min, max } = req.python;
  if (!inRange(py.version, min, max)) {
    return finding('python', 'fail', `Python ${py.version} is outside TensorFlow ${req.tensorflow}'s range ${min}–${max}`, evidence,
      `Install Python ${max} (64-bit) and make a virtual environment with it, then: pip install ${req.pip}`);
  }
  return finding('python', 'pass', `Python ${py.version} (${py.bits ?? '?'}-bit) within ${min}–${max}`, evidence);
}

export function tensorflowFinding(facts: MachineFacts, tf: string | undefined): Finding | undefined {
  const installed = facts.python.tensorflow;
  if (!installed?.version) return undefined;
  const evidence = [`${installed.package ?? 'tensorflow'} ${installed.version} for ${facts.python.command}`];
  if (tf && majorMinor(tf) !== majorMinor(installed.version)) {
    return finding('tensorflow', 'warn', `pip has TensorFlow ${installed.version}, but you are checking for ${tf}`, evidence, `pip install "tensorflow==${tf}.*", or run cudawiz doctor without --tf to check the installed one.`);
  }
  if (!installed.importable) {
    return finding('tensorflow', 'warn', `TensorFlow ${installed.version} is installed but does not import`, [...evidence, installed.importError ?? ''], 'Read the import error above; the findings below usually name the missing piece.');
  }
  return finding('tensorflow', 'pass', `TensorFlow ${installed.version} imports`, evidence);
}

export function windowsNativeFinding(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding | undefined {
  if (req.os !== 'windows') return undefined;
  if (req.gpuSupported) return finding('windows-native', 'pass', `TensorFlow ${req.tensorflow} supports the GPU on native Windows`);
  return finding('windows-native', 'fail', `TensorFlow ${req.tensorflow} has no GPU support on native Windows (the last was ${catalog.tensorflow.windowsNativeGpuLast})`,
    [...req.alternatives.map((a) => `${a.title}: ${a.detail}`), ...wslSteps(catalog, req.tensorflow)],
    `Use WSL2: install Ubuntu under WSL2 and run cudawiz there (the steps above) — TensorFlow inside WSL2 uses this Windows driver. Or stay native with pip install "tensorflow<2.11".`);
}
