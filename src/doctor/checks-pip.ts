// Verdicts on pip's wheel-provided CUDA (tensorflow[and-cuda]): which copy of each library TF will
// load — the wheels' or a system toolkit's — and whether the wheel folders must go on the loader path.
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { PipEnvironment, MachineFacts } from '../probe/types.js';
import type { WheelPin } from '../wheels/facts.js';
import { doctorText as T } from '../i18n/doctor.js';
import { finding, type Finding } from './finding.js';
import { remediesText as R } from '../i18n/remedies.js';
import { compareDotted, major, majorMinor } from '../version.js';
import path from 'node:path';

/** One pin of another package's on a wheel TF loads, with the version TF needs of it: the wheel it keeps in place cannot serve TF. */
interface PinConflict {
  pin: WheelPin;
  wheel: { name: string; version: string };
  /** "cuDNN 9.3", "CUDA 12.2": what TF needs, as the sentence says it. */
  need: string;
  want: string;
  /** What the pin holds, as the sentence says it: "cuDNN 8.9", "CUDA 12.1". */
  pinned: string;
}

const pinnedVersion = (requirement: string) => requirement.slice(requirement.indexOf('==') + 2);

/**
 * Other packages' pins (their installed dist-info's Requires-Dist, the only place they show: nothing in
 * TF's own metadata does) on the wheels TF loads — cuDNN's, and CUDA's runtime — where both the pinned
 * version and the installed one are of no use to this TF: cuDNN of another major or an older minor,
 * a CUDA runtime older than the one TF was built with. Pins on other wheels (nccl, nvtx) concern TF not.
 */
function pinConflicts(pip: PipEnvironment, req: Requirements): PinConflict[] {
  const judge: Record<string, { want: string | null; what: string; fits: (v: string, want: string) => boolean }> = {
    cudnn: { want: req.cudnn, what: 'cuDNN', fits: (v, want) => major(v) === major(want) && compareDotted(majorMinor(v), want) >= 0 },
    cuda_runtime: { want: req.cuda, what: 'CUDA', fits: (v, want) => major(v) === major(want) && compareDotted(majorMinor(v), want) >= 0 },
  };
  const out: PinConflict[] = [];
  for (const [component, j] of Object.entries(judge)) {
    const wheel = pip.packages.find((p) => p.component === component);
    if (!wheel || !j.want || j.fits(wheel.version, j.want)) continue;
    const pin = (pip.pins ?? []).find((x) => x.wheel === wheel.name && !j.fits(pinnedVersion(x.requirement), j.want!));
    if (pin) out.push({ pin, wheel: { name: wheel.name, version: wheel.version }, need: `${j.what} ${j.want}`, want: j.want, pinned: `${j.what} ${majorMinor(pinnedVersion(pin.requirement))}` });
  }
  return out;
}

/** The newest TF in the catalog built for what the pins hold (its CUDA and cuDNN no newer than theirs, same majors). */
function tfThatAgrees(catalog: Catalog, conflicts: PinConflict[]): string | undefined {
  const held = (what: string) => conflicts.find((c) => c.pinned.startsWith(`${what} `))?.pinned.slice(what.length + 1);
  const cuda = held('CUDA');
  const cudnn = held('cuDNN');
  const fits = (built: string, have: string | undefined) => !have || (major(built) === major(have) && compareDotted(built, have) <= 0);
  return catalog.tensorflow.linux.filter((r) => fits(r.cuda, cuda) && fits(r.cudnn, cudnn)).sort((a, b) => compareDotted(b.version, a.version))[0]?.version;
}

/**
 * Another framework in the same venv pins a wheel TF loads to a version TF cannot use (torch's
 * nvidia-cudnn-cu12==8.9.2.26 beside a TF that needs cuDNN 9; its nvidia-cuda-runtime-cu12==12.1.105
 * beside a TF built with CUDA 12.2): one venv cannot hold both. The ways out: a venv of TF's own, or the
 * TF the catalog has for what the pins hold.
 */
function pinFinding(pip: PipEnvironment, req: Requirements, tf: string, catalog: Catalog): Finding | undefined {
  const conflicts = pinConflicts(pip, req);
  const [first, ...more] = conflicts;
  if (!first) return undefined;
  const { pin, wheel } = first;
  const base = pip.venv ? path.dirname(pip.venv) : path.dirname(path.dirname(pip.python));
  const command = `cudawiz install --tf ${tf} --route pip --venv ${path.join(base, `tf-${majorMinor(tf)}`)}`;
  const pinned = T.list(conflicts.map((c) => c.pinned));
  const agrees = tfThatAgrees(catalog, conflicts);
  const orKeep = agrees ? R.pinAgree(pin.name, pinned, agrees, `${pip.python} -m pip install "tensorflow==${agrees}"`) : R.pinNoneAgree(pin.name, pinned);
  return {
    ...finding('pip-pin', 'fail', R.pinConflict(pin.name, pin.version, pin.requirement, tf, first.need), [T.labelled(T.inVenv(pip.python, pip.venv), `${wheel.name} ${wheel.version}`), ...more.map((c) => R.pinAlso(c.pin.requirement, c.need))], `${R.pinFix(command)}; ${orKeep}`),
    cause: { kind: 'pip-pin', venv: pip.venv, python: pip.python, wheel, pinnedBy: { name: pin.name, version: pin.version, requirement: pin.requirement }, want: first.want },
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

export function pipFindings(facts: MachineFacts, req: Requirements | undefined, catalog: Catalog): Finding[] {
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
  const pinned = pinFinding(pip, req, tf, catalog);
  if (pinned) out.push(pinned);
  const loaderPath = loaderPathFinding(pip, tf);
  if (loaderPath) out.push(loaderPath);
  return out;
}
