// The Python interpreter and the TensorFlow it has, via one short script run through the host's
// runner. The pip metadata answers fast; importing TensorFlow (slow, may fail) adds its build info.
import { stepsText } from '../i18n/steps.js';
import type { Host } from '../host.js';
import { pipText } from '../i18n/pip.js';
import { pythonCommands } from '../platform.js';
import { firstLine, locateProgram, runProgram } from './commands.js';
import type { MachineFs } from './machine-fs.js';
import type { PythonFacts } from './types.js';

/** Prints one JSON line; every step is guarded so the script itself never fails. */
export const PYTHON_SCRIPT = [
  'import json, os, struct, sys',
  'out = {"executable": sys.executable, "version": "%d.%d.%d" % sys.version_info[:3], "bits": struct.calcsize("P") * 8}',
  'tf = {}',
  'try:',
  '    from importlib import metadata',
  '    for name in ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tf-nightly"):',
  '        try:',
  '            tf = {"version": metadata.version(name), "package": name}',
  '            break',
  '        except Exception:',
  '            pass',
  'except Exception:',
  '    pass',
  'if tf:',
  '    try:',
  '        import tensorflow',
  '        tf["importable"] = True',
  '        tf["version"] = getattr(tensorflow, "__version__", tf.get("version"))',
  '        try:',
  '            tf["buildInfo"] = dict(tensorflow.sysconfig.get_build_info())',
  '        except Exception:',
  '            pass',
  '    except Exception as e:',
  '        tf["importable"] = False',
  '        tf["importError"] = ("%s: %s" % (type(e).__name__, e))[:300]',
  '    out["tensorflow"] = tf',
  '# tensorflow[and-cuda] brings CUDA and cuDNN as nvidia-* wheels: site-packages/nvidia/<part>/lib.',
  'libs = []',
  'try:',
  '    for p in sys.path:',
  '        base = os.path.join(p or ".", "nvidia")',
  '        if os.path.isdir(base):',
  '            for name in sorted(os.listdir(base)):',
  '                lib = os.path.join(base, name, "lib")',
  '                if os.path.isdir(lib) and lib not in libs:',
  '                    libs.append(lib)',
  'except Exception:',
  '    pass',
  'out["nvidiaLibDirs"] = libs',
  'print(json.dumps(out, default=str))',
].join('\n');

export async function probePython(host: Host, mfs: MachineFs, python?: string): Promise<PythonFacts> {
  const tried = python ? [python] : pythonCommands(host.os);
  const command = tried.map((c) => locateProgram(host, mfs, c)).find((c): c is string => c !== undefined);
  if (!command) return { state: 'not-found', evidence: pipText.noneFound(tried, !python) };
  // Importing a real TensorFlow takes seconds; give it time, but not forever.
  const r = await runProgram(host, mfs, command, ['-c', PYTHON_SCRIPT], 90_000);
  const line = r.stdout.split(/\r?\n/).reverse().find((l) => l.trim().startsWith('{'));
  if (r.exitCode !== 0 || !line) {
    return { state: 'could-not-collect', command, evidence: firstLine(`${r.stderr}\n${r.stdout}`) || r.failure || stepsText.exitCode(r.exitCode) };
  }
  try {
    const doc = JSON.parse(line) as Partial<PythonFacts> & { tensorflow?: PythonFacts['tensorflow'] };
    return {
      state: 'found',
      command,
      executable: typeof doc.executable === 'string' ? doc.executable : undefined,
      version: typeof doc.version === 'string' ? doc.version : undefined,
      bits: typeof doc.bits === 'number' ? doc.bits : undefined,
      tensorflow: doc.tensorflow ? { ...doc.tensorflow, importable: Boolean(doc.tensorflow.importable) } : undefined,
      // The interpreter reports host paths; a fixture machine maps them back to its own.
      nvidiaLibDirs: Array.isArray(doc.nvidiaLibDirs) ? doc.nvidiaLibDirs.filter((d): d is string => typeof d === 'string').map((d) => mfs.machinePath(d)) : undefined,
    };
  } catch {
    return { state: 'could-not-collect', command, evidence: firstLine(line) };
  }
}
