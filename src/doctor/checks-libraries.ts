// Verdicts on each library file TensorFlow loads: found on the search path, and found as the right
// version — the first copy wins, so an older one earlier on the path shadows the right one.
import type { RequiredLibrary, Requirements } from '../catalog/queries.js';
import { LINUX_LD_SO_CONF_DIR, librarySearchVar, WINDOWS_MSVC_RUNTIME_DLLS, WINDOWS_ZLIB_DLL, WINDOWS_ZLIB_FROM_CUDNN } from '../platform.js';
import { resolveLibrary, type Resolution } from '../probe/resolution.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted, major } from '../version.js';
import { doctorText as T } from '../i18n/doctor.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding, type FindingId } from './finding.js';
import { runtimeVersionIn } from './runtime-serving.js';
import { cudnnCopyIn, samePath, servesBuild, toolkitInUse, toolkitOwning, toolkitServes } from './toolkit-lookup.js';

/** Findings of a file found nowhere at all (grouped when several share the reason); not by title, which is localized. */
const NOWHERE = new WeakSet<Finding>();

function addToSearchPath(facts: MachineFacts, dir: string): string {
  if (facts.os === 'windows') return T.addToPathWindows(dir);
  return T.addToPathLinux(librarySearchVar('linux'), dir, LINUX_LD_SO_CONF_DIR);
}

function placeList(r: Resolution): string[] {
  return r.candidates.map((c, i) => `${i === 0 && c === r.winner ? T.wins : ''}${T.placeVia(c.dir, T.via(c.via))}`);
}

/** Is the copy that wins the right one? Returns why not, or undefined when it is. */
export function wrongVersion(facts: MachineFacts, req: Requirements, lib: RequiredLibrary, dir: string): string | undefined {
  if (lib.from === 'toolkit') {
    const owner = toolkitOwning(facts, dir);
    if (owner?.majorMinor && req.cuda && !toolkitServes(owner, req.cuda)) return T.notCudaCopy(owner.majorMinor, req.cuda);
    // The conda env's folder is no toolkit, but its cudatoolkit package says which CUDA it holds.
    const conda = facts.conda?.cuda;
    if (!owner && conda && samePath(facts.os, dir, facts.conda!.libDir) && conda.majorMinor !== req.cuda) return T.condaCudaCopy(conda.majorMinor, req.cuda);
    // No toolkit or conda record: the runtime's own file name (libcudart.so.11.2.152) says it, judged by the rule that credits runtimes.
    const named = owner || conda ? undefined : runtimeVersionIn(facts, dir);
    if (named?.majorMinor && req.cuda && !servesBuild(named.majorMinor, req.cuda)) return T.notCudaCopy(named.majorMinor, req.cuda);
  }
  if (lib.from === 'cudnn' && req.cudnn) {
    const found = cudnnCopyIn(facts, dir);
    // conda-meta names the env's cuDNN even where the loader path spells its folder another way (lib/).
    const conda = facts.conda?.cudnn && found && !found.version && samePath(facts.os, dir, facts.conda.libDir) ? facts.conda.cudnn.version : undefined;
    const copy = conda && found ? { ...found, version: conda } : found;
    if (copy?.major !== undefined && copy.major !== major(req.cudnn)) return T.notCudnnVersion(String(copy.version ?? copy.major), req.cudnn);
    if (copy?.version && compareDotted(copy.version.split('.').slice(0, 2).join('.'), req.cudnn) < 0) return T.olderCudnn(copy.version, req.cudnn);
  }
  return undefined;
}

function libraryFinding(facts: MachineFacts, req: Requirements, lib: RequiredLibrary): Finding {
  const id: FindingId = `library:${lib.name}`;
  const r = resolveLibrary(facts.search, lib.file);
  const evidence = placeList(r);
  if (!r.winner) {
    const offPath = r.candidates[0];
    if (offPath) {
      return finding(id, 'fail', T.offPath(lib.file, offPath.dir), [
        ...evidence,
        ...(facts.os === 'linux' ? [`LD_LIBRARY_PATH=${facts.search.dirs.filter((d) => d.via === 'LD_LIBRARY_PATH').map((d) => d.dir).join(':') || T.emptyValue}`] : []),
      ], addToSearchPath(facts, offPath.dir));
    }
    const fix =
      lib.from === 'driver' ? facts.wsl?.driverFix ?? T.comesWithDriver(DRIVER_DOWNLOAD_PAGE)
      // Beside a distro's CUDA the copy goes in a folder of its own (the cuDNN verdict's fix): never "into" apt's /usr.
      : lib.from === 'cudnn' ? (toolkitInUse(facts, req)?.layout === 'distro packages' ? T.cudnnBesideDistroFix(req.tensorflow, req.cudnn ?? '') : T.copyCudnnInto(req.cudnn, req.cuda, req.tensorflow))
      : T.installCudaFor(req.cuda, req.tensorflow);
    // The seed's story: cuDNN 8 sits in CUDA 11.0, TF 2.3 wants cudnn64_7.dll. Say that it was seen, and why it does not count.
    const others = lib.from === 'cudnn' && req.cudnn
      ? facts.cudnn.filter((c) => c.major !== undefined && c.major !== major(req.cudnn!)).map((c) => T.otherCudnn(c.version ?? String(c.major), c.path, lib.file, req.tensorflow))
      : [];
    const nowhere = finding(id, 'fail', T.notFoundAnywhere(lib.file), [T.lookedIn(T.list(facts.search.dirs.map((d) => d.dir))), ...others], fix);
    NOWHERE.add(nowhere);
    return nowhere;
  }
  const wrong = wrongVersion(facts, req, lib, r.winner.dir);
  if (wrong) {
    const right = r.candidates.find((c) => !wrongVersion(facts, req, lib, c.dir));
    return finding(id, 'fail', T.resolvesWrong(lib.file, r.winner.dir, wrong, !!right), evidence,
      right ? addToSearchPath(facts, right.dir) : T.installRight(req.tensorflow));
  }
  // A cuDNN whose version nothing on the machine says, ahead of one that is right: never a pass.
  const unknown = lib.from === 'cudnn' ? unreadCudnnAhead(facts, req, lib, r) : undefined;
  if (unknown) return finding(id, 'warn', T.unknownCudnnWins(lib.file, r.winner.dir, unknown.version, unknown.dir), evidence, addToSearchPath(facts, unknown.dir));
  return finding(id, 'pass', T.resolves(lib.file, r.winner.dir), evidence);
}

/** The right cuDNN further down the search, when the copy that wins has no version cudawiz can read. */
function unreadCudnnAhead(facts: MachineFacts, req: Requirements, lib: RequiredLibrary, r: Resolution): { version: string; dir: string } | undefined {
  const won = cudnnCopyIn(facts, r.winner!.dir);
  if (!won || won.version || !req.cudnn) return undefined;
  for (const c of r.candidates) {
    if (c === r.winner) continue;
    const copy = cudnnCopyIn(facts, c.dir);
    if (copy?.version && !wrongVersion(facts, req, lib, c.dir)) return { version: copy.version, dir: c.dir };
  }
  return undefined;
}

/** Several files missing for one reason (no CUDA 10.1 at all) read as one problem with one fix. */
export function libraryFindings(facts: MachineFacts, req: Requirements): Finding[] {
  const findings = req.libraries.map((lib) => ({ lib, f: libraryFinding(facts, req, lib) }));
  const out: Finding[] = [];
  const grouped = new Set<string>();
  for (const { lib, f } of findings) {
    const nowhere = (x: { lib: RequiredLibrary; f: Finding }) => x.lib.from === lib.from && x.f.status === 'fail' && NOWHERE.has(x.f);
    const group = findings.filter(nowhere);
    if (!nowhere({ lib, f }) || group.length < 2) {
      out.push(f);
      continue;
    }
    if (grouped.has(lib.from)) continue;
    grouped.add(lib.from);
    const files = group.map((x) => x.lib.file);
    out.push({ ...f, id: `libraries:${lib.from}`, title: T.manyNotFound(files.length, lib.from === 'toolkit' ? `CUDA ${req.cuda}` : lib.from, T.list(files)) });
  }
  return out;
}

/** Windows: the MSVC runtime always; zlibwapi.dll when the cuDNN in use is 8.3 or newer. */
export function windowsRuntimeFindings(facts: MachineFacts, cudnnInUse: string | undefined): Finding[] {
  if (facts.os !== 'windows') return [];
  const out: Finding[] = [];
  const missing = WINDOWS_MSVC_RUNTIME_DLLS.filter((f) => !resolveLibrary(facts.search, f).winner);
  out.push(missing.length
    ? finding('msvc-runtime', 'fail', T.msvcMissing(T.list(missing)), [], T.msvcFix)
    : finding('msvc-runtime', 'pass', T.msvcOk(T.list(WINDOWS_MSVC_RUNTIME_DLLS))));
  if (cudnnInUse && compareDotted(cudnnInUse, WINDOWS_ZLIB_FROM_CUDNN) >= 0) {
    const zlib = facts.windows?.zlibwapi;
    if (!zlib) out.push(finding('zlibwapi', 'fail', T.zlibMissing(cudnnInUse, WINDOWS_ZLIB_DLL), [], T.zlibMissingFix(WINDOWS_ZLIB_DLL)));
    else if (zlib.bits === 32) out.push(finding('zlibwapi', 'fail', T.zlib32(zlib.path, WINDOWS_ZLIB_DLL), [], T.zlib32Fix));
    else out.push(finding('zlibwapi', 'pass', T.zlibOk(WINDOWS_ZLIB_DLL, zlib.path, zlib.bits)));
  }
  return out;
}
