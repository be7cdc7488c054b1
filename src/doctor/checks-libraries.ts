// Verdicts on each library file TensorFlow loads: found on the search path, and found as the right
// version — the first copy wins, so an older one earlier on the path shadows the right one.
import type { RequiredLibrary, Requirements } from '../catalog/queries.js';
import { LINUX_LD_SO_CONF_DIR, librarySearchVar, WINDOWS_MSVC_RUNTIME_DLLS, WINDOWS_ZLIB_DLL, WINDOWS_ZLIB_FROM_CUDNN } from '../platform.js';
import { resolveLibrary, type Resolution } from '../probe/resolution.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted, major } from '../version.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';
import { cudnnCopyIn, toolkitOwning, toolkitServes } from './toolkit-lookup.js';

function addToSearchPath(facts: MachineFacts, dir: string): string {
  if (facts.os === 'windows') return `Add ${dir} to PATH, before any other CUDA bin directory (System Properties → Environment Variables), then open a new terminal.`;
  return `export ${librarySearchVar('linux')}=${dir}:$${librarySearchVar('linux')}   (or, for everyone: echo ${dir} | sudo tee ${LINUX_LD_SO_CONF_DIR}/cuda.conf && sudo ldconfig)`;
}

function placeList(r: Resolution): string[] {
  return r.candidates.map((c, i) => `${i === 0 && c === r.winner ? 'wins: ' : ''}${c.dir} (${c.via})`);
}

/** Is the copy that wins the right one? Returns why not, or undefined when it is. */
function wrongVersion(facts: MachineFacts, req: Requirements, lib: RequiredLibrary, dir: string): string | undefined {
  if (lib.from === 'toolkit') {
    const owner = toolkitOwning(facts, dir);
    if (owner?.majorMinor && req.cuda && !toolkitServes(owner, req.cuda)) return `it is CUDA ${owner.majorMinor}'s copy, not CUDA ${req.cuda}'s`;
  }
  if (lib.from === 'cudnn' && req.cudnn) {
    const copy = cudnnCopyIn(facts, dir);
    if (copy?.major !== undefined && copy.major !== major(req.cudnn)) return `it is cuDNN ${copy.version ?? copy.major}, not ${req.cudnn}`;
    if (copy?.version && compareDotted(copy.version.split('.').slice(0, 2).join('.'), req.cudnn) < 0) return `it is cuDNN ${copy.version}, older than ${req.cudnn}`;
  }
  return undefined;
}

function libraryFinding(facts: MachineFacts, req: Requirements, lib: RequiredLibrary): Finding {
  const id = `library:${lib.name}`;
  const r = resolveLibrary(facts.search, lib.file);
  const evidence = placeList(r);
  if (!r.winner) {
    const offPath = r.candidates[0];
    if (offPath) {
      return finding(id, 'fail', `${lib.file} is in ${offPath.dir} but not on the library search path`, [
        ...evidence,
        ...(facts.os === 'linux' ? [`LD_LIBRARY_PATH=${facts.search.dirs.filter((d) => d.via === 'LD_LIBRARY_PATH').map((d) => d.dir).join(':') || '(empty)'}`] : []),
      ], addToSearchPath(facts, offPath.dir));
    }
    const fix =
      lib.from === 'driver' ? facts.wsl?.driverFix ?? `It comes with the NVIDIA display driver: install one from ${DRIVER_DOWNLOAD_PAGE}.`
      : lib.from === 'cudnn' ? `Copy cuDNN ${req.cudnn} into CUDA ${req.cuda}: cudawiz install --tf ${req.tensorflow} --cudnn-archive FILE`
      : `Install CUDA ${req.cuda}: cudawiz install --tf ${req.tensorflow}`;
    return finding(id, 'fail', `${lib.file} is not found anywhere`, [`looked in: ${facts.search.dirs.map((d) => d.dir).join(', ') || '(empty search path)'}`], fix);
  }
  const wrong = wrongVersion(facts, req, lib, r.winner.dir);
  if (wrong) {
    const right = r.candidates.find((c) => !wrongVersion(facts, req, lib, c.dir));
    return finding(id, 'fail', `${lib.file} resolves to ${r.winner.dir}, but ${wrong}${right ? ' (shadowing the right copy)' : ''}`, evidence,
      right ? addToSearchPath(facts, right.dir) : `Install the right one: cudawiz install --tf ${req.tensorflow}`);
  }
  return finding(id, 'pass', `${lib.file} → ${r.winner.dir}`, evidence);
}

/** Several files missing for one reason (no CUDA 10.1 at all) read as one problem with one fix. */
export function libraryFindings(facts: MachineFacts, req: Requirements): Finding[] {
  const findings = req.libraries.map((lib) => ({ lib, f: libraryFinding(facts, req, lib) }));
  const out: Finding[] = [];
  const grouped = new Set<string>();
  for (const { lib, f } of findings) {
    const nowhere = (x: { lib: RequiredLibrary; f: Finding }) => x.lib.from === lib.from && x.f.status === 'fail' && x.f.title.endsWith('is not found anywhere');
    const group = findings.filter(nowhere);
    if (!nowhere({ lib, f }) || group.length < 2) {
      out.push(f);
      continue;
    }
    if (grouped.has(lib.from)) continue;
    grouped.add(lib.from);
    const files = group.map((x) => x.lib.file);
    out.push({ ...f, id: `libraries:${lib.from}`, title: `${files.length} ${lib.from === 'toolkit' ? `CUDA ${req.cuda}` : lib.from} libraries are not found anywhere: ${files.join(', ')}` });
  }
  return out;
}

/** Windows: the MSVC runtime always; zlibwapi.dll when the cuDNN in use is 8.3 or newer. */
export function windowsRuntimeFindings(facts: MachineFacts, cudnnInUse: string | undefined): Finding[] {
  if (facts.os !== 'windows') return [];
  const out: Finding[] = [];
  const missing = WINDOWS_MSVC_RUNTIME_DLLS.filter((f) => !resolveLibrary(facts.search, f).winner);
  out.push(missing.length
    ? finding('msvc-runtime', 'fail', `Microsoft C++ runtime missing: ${missing.join(', ')}`, [], 'Install the Microsoft Visual C++ Redistributable for Visual Studio 2015–2022 (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe')
    : finding('msvc-runtime', 'pass', `Microsoft C++ runtime: ${WINDOWS_MSVC_RUNTIME_DLLS.join(', ')}`));
  if (cudnnInUse && compareDotted(cudnnInUse, WINDOWS_ZLIB_FROM_CUDNN) >= 0) {
    const zlib = facts.windows?.zlibwapi;
    if (!zlib) out.push(finding('zlibwapi', 'fail', `cuDNN ${cudnnInUse} needs ${WINDOWS_ZLIB_DLL} on PATH; none found`, [], `Put the 64-bit ${WINDOWS_ZLIB_DLL} (zlib123dllx64.zip from http://www.winimage.com/zLibDll/) into the CUDA bin folder.`));
    else if (zlib.bits === 32) out.push(finding('zlibwapi', 'fail', `${zlib.path} is 32-bit; cuDNN needs the 64-bit ${WINDOWS_ZLIB_DLL}`, [], `Replace it with the x64 build (zlib123dllx64.zip from http://www.winimage.com/zLibDll/).`));
    else out.push(finding('zlibwapi', 'pass', `${WINDOWS_ZLIB_DLL}: ${zlib.path}${zlib.bits ? ` (${zlib.bits}-bit)` : ''}`));
  }
  return out;
}
