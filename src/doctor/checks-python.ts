// Verdicts on Python, the installed TensorFlow, and native-Windows GPU support.
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { MachineFacts } from '../probe/types.js';
import { inRange, majorMinor } from '../version.js';
import { wslRouteSteps } from './wsl-route.js';
import { finding, type Finding } from './finding.js';
import { doctorText as T } from '../i18n/doctor.js';

/** The WSL2 route as numbered evidence lines; none when the catalog has no Linux row for this TF. */
function wslSteps(catalog: Catalog, tf: string): string[] {
  try {
    return wslRouteSteps(catalog, tf).map((s, i) => T.wslStep(i + 1, s));
  } catch {
    return [];
  }
}

export function pythonFinding(facts: MachineFacts, req: Requirements | undefined): Finding {
  const py = facts.python;
  if (py.state === 'not-found') {
    // The range TF needs, wherever Python is missing: "Install 64-bit Python 3.5–3.8 for TF 2.3".
    if (!req) return finding('python', 'warn', T.noPython, [py.evidence ?? ''], T.installPython);
    const range = req.python.min === req.python.max ? req.python.min : `${req.python.min}–${req.python.max}`;
    return finding('python', 'fail', T.noPythonFor(majorMinor(req.row), range), [py.evidence ?? ''], T.installPythonFor(majorMinor(req.row), range));
  }
  if (py.state === 'could-not-collect' || !py.version) return finding('python', 'warn', T.pythonNoVersion(py.command), [py.evidence ?? ''], T.pythonNoVersionFix);
  const evidence = [`${py.command}${py.executable && py.executable !== py.command ? ` → ${py.executable}` : ''}`];
  if (py.bits === 32) return finding('python', 'fail', T.python32(py.version), evidence, T.python32Fix);
  if (!req) return finding('python', 'pass', T.pythonPlain(py.version, py.bits), evidence);
  const { min, max } = req.python;
  if (!inRange(py.version, min, max)) {
    return finding('python', 'fail', T.pythonOutside(py.version, req.tensorflow, min, max), evidence, T.pythonOutsideFix(max, req.pip));
  }
  return finding('python', 'pass', T.pythonOk(py.version, py.bits, min, max), evidence);
}

export function tensorflowFinding(facts: MachineFacts, tf: string | undefined): Finding | undefined {
  const installed = facts.python.tensorflow;
  if (!installed?.version) return undefined;
  const evidence = [T.tfFor(installed.package ?? 'tensorflow', installed.version, facts.python.command)];
  if (tf && majorMinor(tf) !== majorMinor(installed.version)) {
    return finding('tensorflow', 'warn', T.tfOther(installed.version, tf), evidence, T.tfOtherFix(tf));
  }
  if (!installed.importable) {
    return finding('tensorflow', 'warn', T.tfNoImport(installed.version), [...evidence, installed.importError ?? ''], T.tfNoImportFix);
  }
  return finding('tensorflow', 'pass', T.tfImports(installed.version), evidence);
}

export function windowsNativeFinding(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding | undefined {
  if (req.os !== 'windows') return undefined;
  if (req.gpuSupported) return finding('windows-native', 'pass', T.nativeOk(req.tensorflow));
  return finding('windows-native', 'fail', T.nativeNo(req.tensorflow, catalog.tensorflow.windowsNativeGpuLast),
    [...req.alternatives.map((a) => T.alternative(a.title, a.detail)), ...wslSteps(catalog, req.tensorflow)], T.nativeNoFix);
}
