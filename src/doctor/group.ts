// The doctor as a diagnosis: findings with one cause and one fix read as one. Six libraries that load
// from one stale folder are one finding with one fix (the right folder first), not six; a cuDNN
// verdict that the same load order explains joins it; and no finding sends the user to download a
// cuDNN that is already on the machine. Pure: facts + findings in, findings out.
import type { RequiredLibrary, Requirements } from '../catalog/queries.js';
import { doctorText as T } from '../i18n/doctor.js';
import { remediesText as R } from '../i18n/remedies.js';
import { resolveLibrary } from '../probe/resolution.js';
import type { MachineFacts, SearchVia } from '../probe/types.js';
import { compareDotted, major, majorMinor } from '../version.js';
import { shownCommand } from '../env/shell-quote.js';
import { ownerOf, type LoadOrderCause, type PackageReplacement, type StaleOwner } from './cause.js';
import { wrongVersion } from './checks-libraries.js';
import { finding, type Finding, type FindingId } from './finding.js';
import { cudnnCopyIn, samePath, toolkitOwning } from './toolkit-lookup.js';

/** What the copy of `lib` in `dir` is, in a few words: "CUDA 11.2", "cuDNN 8.1.1". */
function copyLabel(facts: MachineFacts, lib: RequiredLibrary, dir: string): string | undefined {
  if (lib.from === 'cudnn') {
    const c = cudnnCopyIn(facts, dir);
    return c ? `cuDNN ${cudnnVersionIn(facts, dir) ?? `${c.major}.x`}` : undefined;
  }
  const t = toolkitOwning(facts, dir);
  if (t?.version) return `CUDA ${t.version}`;
  if (facts.conda?.cuda && samePath(facts.os, dir, facts.conda.libDir)) return `CUDA ${facts.conda.cuda.version}`;
  if (facts.pip?.cudaFromWheels && facts.pip.libDirs.some((d) => samePath(facts.os, d, dir))) return `CUDA ${facts.pip.cudaFromWheels}`;
  return undefined;
}

/** The cuDNN version in `dir`: its copy's (header or file name), else the wheel's dist-info where `dir` is a pip wheel's folder. */
function cudnnVersionIn(facts: MachineFacts, dir: string): string | undefined {
  const copy = cudnnCopyIn(facts, dir);
  if (copy?.version) return copy.version;
  const wheel = facts.pip?.cudnnFromWheels;
  return copy && wheel && major(wheel) === copy.major && facts.pip!.libDirs.some((d) => samePath(facts.os, d, dir)) ? wheel : undefined;
}

/** The right copy of a cuDNN TF can use: its major, a minor not older. */
function cudnnServes(version: string | undefined, want: string | null): boolean {
  return Boolean(version && want && major(version) === major(want) && compareDotted(majorMinor(version), want) >= 0);
}

/**
 * The load-order causes on this machine for this TF: files whose winning copy is the wrong one while
 * a right one is on the machine (shadowed), and files only found outside the search path (off the path),
 * grouped by the folder that wins and the folder that should.
 */
export function loadOrderCauses(facts: MachineFacts, req: Requirements): LoadOrderCause[] {
  // One cause per right folder: whatever wins now, the one fix is that folder first.
  const groups = new Map<string, LoadOrderCause & { stales: Set<string>; rights: Set<string> }>();
  for (const lib of req.libraries.filter((l) => l.from !== 'driver')) {
    const r = resolveLibrary(facts.search, lib.file);
    if (r.winner && !wrongVersion(facts, req, lib, r.winner.dir)) continue;
    // No winner: every copy the facts know of is outside the search path.
    const right = r.candidates.find((c) => !wrongVersion(facts, req, lib, c.dir));
    if (!right) continue;
    let g = groups.get(right.dir);
    if (!g) {
      g = { kind: 'load-order', files: [], shadowed: [], staleDirs: [], stale: [], rightDirs: [right.dir], right: [], owner: { manager: 'none' }, stales: new Set(), rights: new Set() };
      groups.set(right.dir, g);
    }
    g.files.push(lib.file);
    const w = copyLabel(facts, lib, right.dir);
    if (w) g.rights.add(w);
    if (!r.winner) continue;
    g.shadowed.push(lib.file);
    if (!g.staleDirs.some((d) => d.dir === r.winner!.dir)) g.staleDirs.push(r.winner);
    const s = copyLabel(facts, lib, r.winner.dir);
    if (s) g.stales.add(s);
  }
  // A folder that also holds a wrong copy of another of TF's files cannot simply go first: it would
  // shadow what resolves right today (11.0's cufft64_10.dll before 10.1's). No load-order cause there.
  const clean = (dir: string) => {
    const files = facts.search.dirs.find((d) => samePath(facts.os, d.dir, dir))?.files ?? [];
    const has = (f: string) => files.some((x) => (facts.os === 'windows' ? x.toLowerCase() === f.toLowerCase() : x === f));
    return !req.libraries.some((l) => l.from !== 'driver' && has(l.file) && wrongVersion(facts, req, l, dir));
  };
  // cudawiz's own conf files behind a stale folder the ld cache hands out: every stale folder must be one of theirs.
  const ownConfs = (g: LoadOrderCause) => {
    const stale = g.staleDirs.filter((d) => d.via === 'ld cache');
    const confs = (facts.search.cudawizConfs ?? []).filter((c) => c.dirs.some((d) => stale.some((s) => samePath(facts.os, s.dir, d))));
    const covered = stale.length > 0 && stale.length === g.staleDirs.length && stale.every((s) => confs.some((c) => c.dirs.some((d) => samePath(facts.os, s.dir, d))));
    return covered ? { ownConfs: confs.map((c) => c.file) } : {};
  };
  return [...groups.values()].filter((g) => clean(g.rightDirs[0])).map(({ stales, rights, ...g }) => ({
    ...g,
    stale: [...stales],
    right: [...rights],
    owner: g.staleDirs[0] ? ownerOf(facts.os, g.staleDirs[0].dir, g.staleDirs[0].via, facts.conda, facts.pip) : { manager: 'none' as const },
    ...ownConfs(g),
  }));
}

/** The finding of this load-order cause (its copy carries the package command, so not the same object). */
const isCause = (f: Finding, cause: LoadOrderCause | undefined) => Boolean(cause && f.cause?.kind === 'load-order' && f.cause.rightDirs[0] === cause.rightDirs[0]);

/** The line that fixes the current shell: the right folders first on LD_LIBRARY_PATH (PATH on Windows). */
export function currentShellLine(os: MachineFacts['os'], dirs: string[]): string {
  if (os === 'windows') return `$env:Path = "${dirs.join(';')};$env:Path"`;
  return `export LD_LIBRARY_PATH="${dirs.join(':')}\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`;
}

/** The package command that replaces a stale copy its manager owns, for what TF needs: shown, and as a step runs it. */
export function packageReplacement(cause: Pick<LoadOrderCause, 'files' | 'owner'>, req: Requirements): PackageReplacement | undefined {
  const o = cause.owner;
  const cudnnStale = cause.files.some((f) => /cudnn/i.test(f));
  const cudaMajor = req.cuda ? major(req.cuda) : undefined;
  if (o.manager === 'conda') {
    const specs = [
      ...(cudnnStale && req.cudnn ? [`cudnn>=${req.cudnn},<${major(req.cudnn) + 1}`] : []),
      ...(cause.files.some((f) => !/cudnn/i.test(f)) && req.cuda ? [cudaMajor! >= 12 ? `cuda-cudart=${req.cuda}` : `cudatoolkit=${req.cuda}`] : []),
    ];
    if (!specs.length) return undefined;
    return {
      manager: 'conda',
      command: shownCommand(['conda', 'install', '-p', o.prefix, ...specs]),
      run: { file: 'conda', args: ['install', '--yes', '-p', o.prefix, ...specs] },
      packages: specs.map((s) => s.split(/[=<>]/)[0]),
      target: o.prefix,
    };
  }
  if (o.manager === 'pip') {
    if (!(cudnnStale && req.cudnn && cudaMajor)) return undefined;
    const spec = `nvidia-cudnn-cu${cudaMajor}>=${req.cudnn},<${major(req.cudnn) + 1}`;
    const pip = o.venv ? [`${o.venv}/bin/pip`] : [o.python, '-m', 'pip'];
    return { manager: 'pip', command: shownCommand([...pip, 'install', spec]), run: { file: o.python, args: ['-m', 'pip', 'install', spec] }, packages: [`nvidia-cudnn-cu${cudaMajor}`], target: o.python };
  }
  if (o.manager === 'apt') {
    // NVIDIA's apt repository names each build libcudnnN=<version>-1+cuda<X.Y>.
    const v = req.cudnnArchive?.version;
    if (!(cudnnStale && v && req.cuda)) return undefined;
    const pkg = `libcudnn${major(v)}`;
    const spec = `${pkg}=${v}-1+cuda${req.cuda}`;
    return { manager: 'apt', command: `sudo apt-get install ${spec}`, run: { file: 'apt-get', args: ['install', '-y', spec] }, packages: [pkg] };
  }
  return undefined;
}

/** The package command, as the fix shows it. */
export function packageCommand(cause: Pick<LoadOrderCause, 'files' | 'owner'>, req: Requirements): string | undefined {
  return packageReplacement(cause, req)?.command;
}

function loadOrderFinding(facts: MachineFacts, req: Requirements, cause: LoadOrderCause, repair: string): Finding {
  const evidence = cause.files.map((file) => {
    const r = resolveLibrary(facts.search, file);
    return R.fileWins(file, T.places(r.candidates.map((c, i) => `${i === 0 && c === r.winner ? T.wins : ''}${T.placeVia(c.dir, T.via(c.via))}`)));
  });
  const dirs = T.list(cause.rightDirs);
  const off = cause.files.length - cause.shadowed.length;
  const title = cause.staleDirs.length
    ? `${R.loadsFromStale(cause.shadowed.length, T.list(cause.staleDirs.map((d) => d.dir)), T.list(cause.stale), dirs, T.list(cause.right))}${off ? R.andOffPath(off) : ''}`
    : R.offPath(cause.files.length, dirs, T.list(cause.right));
  if (off && facts.os === 'linux') {
    const ld = facts.search.dirs.filter((d) => d.via === 'LD_LIBRARY_PATH').map((d) => d.dir).join(':');
    evidence.push(`LD_LIBRARY_PATH=${ld || T.emptyValue}`);
  }
  // An older cudawiz run's own conf file: take it away (for every program), not an order around it.
  if (cause.ownConfs?.length) return { ...finding(`load-order:${cause.rightDirs[0]}`, 'fail', title, [...evidence, ...cause.ownConfs.map((f) => R.ownConfEvidence(f))], R.ownConfFix(repair, cause.ownConfs)), cause };
  const fix = R.loadOrderFix(repair, dirs, currentShellLine(facts.os, cause.rightDirs));
  const replace = packageReplacement(cause, req);
  // Windows: conda's Python searches the env's Library\bin before PATH, so no PATH order (repair's, or
  // $env:Path) beats its copy — only conda's own command is a fix there.
  const condaFirst = facts.os === 'windows' && cause.staleDirs.some((d) => d.via === 'conda env');
  return { ...finding(`load-order:${cause.rightDirs[0]}`, 'fail', title, evidence, replace ? (condaFirst ? R.replaceWith(replace.command) : R.orReplace(fix, replace.command)) : fix), cause: replace ? { ...cause, replace } : cause };
}

/**
 * Regroups the checks' findings: the library findings one load-order cause explains become that
 * cause's one finding (placed where the first of them was); a failing cuDNN verdict the same cause
 * explains joins it as evidence; a cuDNN fix that would download a version already here points at it.
 */
export function groupFindings(findings: Finding[], facts: MachineFacts, req: Requirements | undefined): Finding[] {
  if (!req?.gpuSupported) return findings;
  const repair = `cudawiz repair --tf ${req.tensorflow}`;
  const causes = loadOrderCauses(facts, req);
  const byFile = new Map(causes.flatMap((c) => c.files.map((f) => [f, c] as const)));
  const emitted = new Set<LoadOrderCause>();
  const out: Finding[] = [];
  // A cuDNN verdict explained by the same load order: the right cuDNN sits in one of the right folders.
  const cudnnCause = causes.find((c) => c.rightDirs.some((d) => cudnnServes(cudnnVersionIn(facts, d), req.cudnn)));
  for (const f of findings) {
    const lib = req.libraries.find((l) => f.id === `library:${l.name}`);
    const cause = lib ? byFile.get(lib.file) : undefined;
    if (cause) {
      if (!emitted.has(cause)) {
        emitted.add(cause);
        out.push(loadOrderFinding(facts, req, cause, repair));
      }
      continue;
    }
    if (lib && f.status === 'fail') {
      // The wrong copy wins and no right one is here: where a package manager owns it, its command replaces it.
      const w = resolveLibrary(facts.search, lib.file).winner;
      const owner = w ? ownerOf(facts.os, w.dir, w.via, facts.conda, facts.pip) : undefined;
      const replace = owner && w ? packageReplacement({ files: [lib.file], owner }, req) : undefined;
      out.push(replace && owner && w ? { ...f, fix: R.orReplace(f.fix ?? '', replace.command), cause: { kind: 'stale-copy', file: lib.file, dir: w.dir, owner, replace } } : f);
      continue;
    }
    if (f.id === 'cudnn' && f.status === 'fail') {
      if (cudnnCause) {
        // Said once, in the load-order finding; the evidence keeps what the cuDNN check saw.
        const lo = out.find((x) => isCause(x, cudnnCause));
        if (lo) {
          lo.evidence.push(R.alsoExplains(f.title));
          continue;
        }
      }
      const here = facts.cudnn.find((c) => cudnnServes(c.version, req.cudnn));
      if (here) {
        // Where the copy goes: the toolkit of TF's CUDA (the one the cuDNN verdict is about), when there is one.
        const into = facts.toolkits.find((t) => t.majorMinor === req.cuda && !samePath(facts.os, t.path, here.path))?.path;
        out.push({ ...f, evidence: [...f.evidence], fix: R.cudnnAlreadyHere(here.version!, here.path, into), cause: { kind: 'cudnn-elsewhere', version: here.version!, at: here.path } });
        continue;
      }
    }
    out.push(f);
  }
  // The right cuDNN in another toolkit's folder, which cannot go first (it holds that toolkit's wrong
  // copies of TF's other libraries): cuDNN's own "not on the search path" line is the same fact, and
  // its fix ("add that bin to PATH, before any other CUDA bin") would break the rest. One finding, one fix: the copy.
  const elsewhere = out.find((x) => x.cause?.kind === 'cudnn-elsewhere');
  const cudnnLibrary = (f: Finding) => f.id === 'libraries:cudnn' || req.libraries.some((l) => l.from === 'cudnn' && f.id === `library:${l.name}`);
  // A cuDNN finding that came before the libraries: fold it in now that the cause's finding exists.
  return oneFindingPerFix(out.flatMap((f) => {
    if (elsewhere && f.status === 'fail' && cudnnLibrary(f)) {
      elsewhere.evidence.push(R.alsoExplains(f.title));
      return [];
    }
    if (f.id !== 'cudnn' || f.status !== 'fail' || !cudnnCause) return [f];
    const lo = out.find((x) => isCause(x, cudnnCause));
    if (!lo) return [f];
    lo.evidence.push(R.alsoExplains(f.title));
    return [];
  }), req);
}

/**
 * Each distinct fix once: failing library findings of one kind (CUDA's, cuDNN's) with no cause of their
 * own and the same fix (TF's own toolkit, none of it here) read as one finding naming the files it covers.
 */
function oneFindingPerFix(findings: Finding[], req: Requirements): Finding[] {
  const fromOf = (f: Finding) => req.libraries.find((l) => f.id === `library:${l.name}`)?.from;
  const key = (f: Finding) => (f.status === 'fail' && !f.cause && f.fix && fromOf(f) ? `${fromOf(f)}\n${f.fix}` : undefined);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const k = key(f);
    if (k) groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const taken = new Set(findings.map((f) => f.id));
  const out: Finding[] = [];
  for (const f of findings) {
    const group = groups.get(key(f) ?? '');
    if (!group || group.length < 2) {
      out.push(f);
      continue;
    }
    if (group[0] !== f) continue;
    const from = fromOf(f)!;
    const id: FindingId = taken.has(`libraries:${from}`) ? `libraries:${from}:same-fix` : `libraries:${from}`;
    const files = group.map((g) => req.libraries.find((l) => g.id === `library:${l.name}`)!.file);
    // CUDA's files with TF's toolkit missing: the toolkit finding's fix is theirs; said there, once.
    const toolkit = from === 'toolkit' ? findings.find((x) => x.id === 'toolkit' && x.status === 'fail') : undefined;
    if (toolkit) {
      toolkit.evidence.push(T.manyWrongCopies(group.length, T.list(files)));
      continue;
    }
    out.push({ ...finding(id, 'fail', T.manyWrongCopies(group.length, T.list(files)), group.flatMap((g) => [g.title, ...g.evidence]), f.fix) });
  }
  return sameActionSameWords(out, fromOf);
}

/**
 * CUDA's files not found anywhere while TF's toolkit is missing: their fix runs the toolkit finding's
 * command, so it is given in the toolkit finding's words, and the report says it once (the doctor's
 * renderer points a repeated fix back to where it was said).
 */
function sameActionSameWords(findings: Finding[], fromOf: (f: Finding) => string | undefined): Finding[] {
  const toolkit = findings.find((x) => x.id === 'toolkit' && x.status === 'fail' && x.fix);
  const command = (fix: string | null | undefined) => fix?.match(/cudawiz install --tf \S+$/)?.[0];
  const wanted = command(toolkit?.fix);
  if (!toolkit || !wanted) return findings;
  return findings.map((f) => {
    const ofToolkit = f.id === 'libraries:toolkit' || (f.id.startsWith('library:') && fromOf(f) === 'toolkit');
    return ofToolkit && f.status === 'fail' && !f.cause && f.fix !== toolkit.fix && command(f.fix) === wanted ? { ...f, fix: toolkit.fix } : f;
  });
}
