// Verdicts on pip's wheel-provided CUDA (tensorflow[and-cuda]): which copy of each library TF will
// load — the wheels' or a system toolkit's — and whether the wheel folders must go on the loader path.
import type { Requirements } from '../catalog/queries.js';
import type { PipEnvironment, MachineFacts } from '../probe/types.js';
import { doctorText as T } from '../i18n/doctor.js';
import { finding, type Finding } from './finding.js';
import { remediesText as R } from '../i18n/remedies.js';
import { compareDotted, major, majorMinor } from '../version.js';
import path from 'node:path';

/**
 * Another framework in the same venv pins the cuDNN wheel to a version TF cannot use (torch's
 * nvidia-cudnn-cu12==8.9.2.26 beside a TF that needs cuDNN 9): one venv cannot hold both.
 */
function pinFinding(pip: PipEnvironment, req: Requirements, tf: string): Finding | undefined {
  const have = pip.cudnnFromWheels;
  const want = req.cudnn;
  if (!have || !want || (major(have) === major(want) && compareDotted(majorMinor(have), want) >= 0)) return undefined;
  const wheel = pip.packages.find((p) => p.component === 'cudnn');
  const pin = (pip.pins ?? []).find((x) => wheel && x.wheel === wheel.name && x.requirement.endsWith(`==${have}`));
  if (!wheel || !pin) return undefined;
  const base = pip.venv ? path.dirname(pip.venv) : path.dirname(path.dirname(pip.python));
  const command = `cudawiz install --tf ${tf} --route pip --venv ${path.join(base, `tf-${majorMinor(tf)}`)}`;
  return {
    ...finding('pip-pin', 'fail', R.pinConflict(pin.name, pin.version, pin.requirement, tf, want), [T.labelled(T.inVenv(pip.python, pip.venv), `${wheel.name} ${wheel.version}`)], R.pinFix(command)),
    cause: { kind: 'pip-pin', venv: pip.venv, python: pip.python, wheel: { name: wheel.name, version: wheel.version }, pinnedBy: { name: pin.name, version: pin.version, requirement: pin.requirement }, want },
  };
}

/** The command that applies the loader-path fix (with consent) for this environment. */
export function wheelFixCommand(pip: PipEnvironment, tf: string): string | undefined {
  return pip.fix.venv && !pip.fix.blocker ? `cudawiz install --tf ${tf} --route pip --venv ${pip.fix.venv} --yes` : undefined;
}

function describeLoad(l: PipEnvironment['loads'][number]): string {
  return l.from === 'none' ? T.loadsNone(l.file) : T.loadsFrom(l.file, l.dir, l.from === 'wheels', l.via === undefined ? undefined : T.via(l.via));
}

function loaderPathFinding(pip: PipEnvironment, tf: string): Finding | undefined {
  const { fix } = pip;
  if (fix.alreadyApplied) return finding('wheel-loader-path', 'pass', fix.loaderInPlace ? T.loaderPathBoth(fix.activateScript, fix.loaderFile) : T.loaderPathOk(fix.activateScript));
  // Judged as the user runs it (#39.5): the venv's python run directly, not only an activated shell.
  if (fix.blockApplied && !fix.activatedOnly) return finding('wheel-loader-path', 'pass', T.loaderPathOk(fix.activateScript));
  if (!fix.needed) return undefined;
  const command = wheelFixCommand(pip, tf);
  if (fix.activatedOnly) return finding('wheel-loader-path', 'fail', T.onlyActivated(tf), fix.why, command ? T.loaderPathFix(command, fix.activateScript) : T.addToProfile(fix.blocker ?? '', fix.lines.join('\n')));
  return finding('wheel-loader-path', 'fail', T.loaderPathMissing(tf, fix.missingDirs.length),
    [...fix.why, ...fix.missingDirs.slice(0, 4).map((d) => T.notSearched(d)), ...(fix.missingDirs.length > 4 ? [T.andMore(fix.missingDirs.length - 4)] : [])],
    command ? T.loaderPathFix(command, fix.activateScript) : T.addToProfile(fix.blocker ?? '', fix.lines.join('\n')));
}

export function pipFindings(facts: MachineFacts, req: Requirements | undefined): Finding[] {
  const pip = facts.pip;
  if (!pip || !req?.gpuSupported || req.os !== 'linux') return [];
  const tf = pip.tensorflow?.version ?? req.tensorflow;
  const wanted = new Set(req.libraries.filter((l) => l.from !== 'driver').map((l) => l.file));
  const loads = pip.loads.filter((l) => wanted.has(l.file));
  const where = T.inVenv(pip.python, pip.venv);
  const versions = [pip.cudaFromWheels ? `CUDA ${pip.cudaFromWheels}` : '', pip.cudnnFromWheels ? `cuDNN ${pip.cudnnFromWheels}` : ''].filter(Boolean);
  const evidence = [T.labelled(where, T.list(versions) || T.nWheels(pip.packages.length)), ...loads.map(describeLoad)];
  const out: Finding[] = [];
  const system = loads.filter((l) => l.from === 'system');
  const none = loads.filter((l) => l.from === 'none');
  const command = wheelFixCommand(pip, tf);
  if (system.length) {
    out.push(finding('pip-cuda', 'warn', T.loadsFromSystem(T.list(system.map((l) => l.file)), pip.venv ?? pip.python), evidence,
      command ? T.wheelsFirst(command) : T.wheelsFirstByHand(pip.libDirs[0])));
  } else if (none.length && !pip.fix.needed) {
    out.push(finding('pip-cuda', 'warn', T.noCopy(T.list(none.map((l) => l.file))), evidence, T.reinstallWheels(pip.venv ? `${pip.venv}/bin/` : '', tf)));
  } else {
    out.push(finding('pip-cuda', none.length ? 'warn' : 'pass', T.fromWheels(T.list(versions), pip.venv, none.length > 0), evidence));
  }
  const pinned = pinFinding(pip, req, tf);
  if (pinned) out.push(pinned);
  const loaderPath = loaderPathFinding(pip, tf);
  if (loaderPath) out.push(loaderPath);
  return out;
}
