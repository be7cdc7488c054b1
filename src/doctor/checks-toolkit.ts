// Verdicts on the CUDA toolkits and the cuDNN inside the one TensorFlow uses.
import { cudnnGetFix } from '../catalog/cudnn-choice.js';
import { cudaFamily, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { doctorText as T } from '../i18n/doctor.js';
import { gpuText } from '../i18n/gpu.js';
import { safetyText } from '../i18n/safety.js';
import { resolveLibrary } from '../probe/resolution.js';
import type { CudnnCopy, MachineFacts, Toolkit, ToolkitComponent } from '../probe/types.js';
import { compareDotted, major } from '../version.js';
import { finding, type Finding } from './finding.js';
import { describeToolkit, toolkitInUse, toolkitServes } from './toolkit-lookup.js';

const LABEL: Record<ToolkitComponent, string> = {
  nvcc: 'nvcc', cudart: 'cudart', cublas: 'cuBLAS', cublasLt: 'cuBLASLt', cufft: 'cuFFT', curand: 'cuRAND',
  cusolver: 'cuSOLVER', cusparse: 'cuSPARSE', cupti: 'CUPTI', cudnn: 'cuDNN',
};
const label = (cs: ToolkitComponent[]) => T.list(cs.map((c) => LABEL[c]));
const present = (t: Toolkit) => (Object.keys(t.components) as ToolkitComponent[]).filter((c) => t.components[c]?.length);

export function unreadableFindings(facts: MachineFacts): Finding[] {
  return facts.toolkits
    .filter((t) => !t.readable)
    .map((t) => finding(`toolkit-unreadable:${t.path}`, 'warn', T.unreadableToolkit(t.path, t.error),
      [T.foundVia(T.list(t.foundVia.map(gpuText.toolkitVia)))], T.unreadableFix(facts.os === 'windows' ? `dir "${t.path}"` : `ls -ld ${t.path}`)));
}

export function copyInterruptedFindings(facts: MachineFacts): Finding[] {
  return facts.toolkits
    .filter((t) => t.cudawizCopy && t.cudawizCopy.state !== 'complete' && t.cudawizCopy.state !== 'rolled-back')
    .map((t) => t.cudawizCopy!.state === 'scratch'
      ? finding(`copy-leftovers:${t.path}`, 'warn', safetyText.scratchFinding(t.path), t.cudawizCopy!.scratch ?? [], safetyText.scratchFix(t.path))
      : t.cudawizCopy!.state === 'copying'
      ? finding(`copy-interrupted:${t.path}`, 'fail', T.copyHalfway(t.path), [T.manifestState(t.cudawizCopy!.manifest, 'copying')], 'cudawiz repair')
      : finding(`copy-interrupted:${t.path}`, 'warn', T.copyState(t.path, t.cudawizCopy!.state), [t.cudawizCopy!.manifest], 'cudawiz repair'));
}

/**
 * A toolkit the redist route made for TF's CUDA whose files are gone or another size than cudawiz wrote
 * (its manifest says what it wrote): repair re-checks every file and fetches only the broken components.
 */
export function redistFilesFindings(facts: MachineFacts, req: Requirements): Finding[] {
  const cuda = req.cuda;
  if (!cuda) return [];
  return facts.toolkits
    .filter((t) => t.readable && t.redist?.changed?.length && toolkitServes(t, cuda))
    .map((t) => {
      const changed = t.redist!.changed!;
      return finding(`redist-files:${t.path}`, 'fail', T.redistFilesChanged(t.path, changed.length), [...changed.slice(0, 4), ...(changed.length > 4 ? [T.andMore(changed.length - 4)] : [])], T.redistFilesFix(`cudawiz repair --tf ${req.tensorflow}`));
    });
}

/** Without a TensorFlow target: what is installed, and what each toolkit lacks. */
export function toolkitInventory(facts: MachineFacts): Finding[] {
  const readable = facts.toolkits.filter((t) => t.readable);
  const nvcc = facts.nvccOnPath ? [T.nvccOnPath(facts.nvccOnPath.path, facts.nvccOnPath.release)] : [];
  if (readable.length === 0) {
    return [finding('toolkit', 'warn', T.noToolkit, [T.lookedUnder(facts.cudaRoot), ...nvcc], null)];
  }
  // Complete is every CUDA library TF loads; nvcc is for compiling, and cuDNN never ships in a toolkit: its own finding.
  return readable.flatMap((t) => {
    const missing = t.missing.filter((c) => c !== 'cudnn' && c !== 'nvcc');
    const evidence = [T.foundVia(T.list(t.foundVia.map(gpuText.toolkitVia))), T.has(label(present(t))), ...(t.missing.includes('nvcc') ? [T.noNvcc] : []), ...nvcc];
    const cudnn = t.missing.includes('cudnn') && !facts.cudnn.length ? [finding(`cudnn:${t.path}`, 'warn', T.cudnnMissingBeside(describeToolkit(t)), [], T.cudnnMissingBesideFix)] : [];
    if (missing.length === 0) return [finding(`toolkit:${t.path}`, 'pass', describeToolkit(t), evidence), ...cudnn];
    return [finding(`toolkit:${t.path}`, 'warn', T.partial(describeToolkit(t), label(missing)), evidence, T.partialFix), ...cudnn];
  });
}

export function toolkitFindings(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding[] {
  if (!req.cuda) return [];
  const cuda = req.cuda;
  const right = facts.toolkits.filter((t) => t.readable && toolkitServes(t, cuda));
  const others = facts.toolkits.filter((t) => t.readable && !toolkitServes(t, cuda));
  const out: Finding[] = [];
  const wheels = wheelFindings(facts, req) ?? condaToolkitFindings(facts, req);
  if (wheels) return wheels;
  if (right.length === 0) {
    const evidence = others.length ? others.map((t) => T.installed(describeToolkit(t))) : [T.noToolkitUnder(facts.cudaRoot)];
    const install = `cudawiz install --tf ${req.tensorflow}`;
    out.push(finding('toolkit', 'fail', T.cudaNotInstalled(req.cuda, others.length ? T.list(others.map((t) => t.version ?? '')) : undefined), evidence,
      others.length ? T.installBeside(req.cuda, others.length > 1, install) : T.installCuda(req.cuda, install)));
    return out;
  }
  const exact = right.some((t) => t.majorMinor === cuda);
  const paths = T.list(right.map((t) => t.path));
  const title = exact ? T.cudaInstalled(req.cuda, paths)
    : right[0].redist ? T.cudaFromRedist(req.cuda, right[0].majorMinor ?? '?', paths)
    : T.cudaByMinorCompat(req.cuda, right[0].majorMinor ?? '?', paths, cudaFamily(catalog, req.cuda)?.minorCompatDriverMin?.[facts.os]);
  out.push(finding('toolkit', 'pass', title, right.map((t) => (t.redist && t.majorMinor !== cuda ? T.redistSameNames(describeToolkit(t), cuda) : describeToolkit(t)))));
  const used = toolkitInUse(facts, req) ?? right[0];
  const lacking = used.missing.filter((c) => c !== 'cudnn' && c !== 'nvcc');
  if (lacking.length) {
    out.push(finding('toolkit-complete', 'fail', T.toolkitPartial(used.version, used.path, label(lacking)), [T.has(label(present(used)))], T.reinstallCuda(req.cuda, req.tensorflow)));
  }
  const own = facts.cudnn.find((c) => c.where === 'toolkit' && c.path === used.path);
  // A distro's CUDA (apt's, in /usr) has no cuDNN of its own: TF loads the cuDNN the loader finds,
  // wherever it is (a folder of its own beside it, as cudawiz puts it) — that copy is the one judged.
  const beside = !own && used.layout === 'distro packages' ? cudnnTheLoaderFinds(facts, req) : undefined;
  const fix = used.layout === 'distro packages' ? T.cudnnBesideDistroFix(req.tensorflow, req.cudnn ?? '') : cudnnGetFix(req.cudnnArchive, req.tensorflow, { cudnn: req.cudnn, cuda: req.cuda, page: catalog.cudnn.archivePage });
  out.push(cudnnFinding(facts, req, own ?? beside, beside ? beside.path : T.toolkitAt(used.version, used.path), fix));
  return out;
}

/** tensorflow[and-cuda] (Linux, TF 2.14+): CUDA and cuDNN come from pip's nvidia-* wheels, no toolkit needed. */
function wheelFindings(facts: MachineFacts, req: Requirements): Finding[] | undefined {
  const cudart = req.libraries.find((l) => l.name === 'cudart');
  const winner = cudart ? resolveLibrary(facts.search, cudart.file).winner : undefined;
  // Covered when the wheels' copy wins, or when the wheels ship it and only load order is wrong (pip-cuda says which).
  const wheelsShipIt = facts.pip?.loads.some((l) => l.file === cudart?.file) ?? false;
  if (!req.andCuda || (winner?.via !== 'pip wheel' && !wheelsShipIt)) return undefined;
  const cudnnFile = req.libraries.find((l) => l.name === 'cudnn')?.file;
  const cudnnDir = cudnnFile ? resolveLibrary(facts.search, cudnnFile).winner?.dir : undefined;
  const found = cudnnDir ? facts.cudnn.find((c) => c.path === cudnnDir) : undefined;
  // A wheel's dist-info names the exact cuDNN even where its folder has no version header.
  const wheelCudnn = facts.pip?.cudnnFromWheels;
  const copy = found && !found.version && wheelCudnn && major(wheelCudnn) === found.major ? { ...found, version: wheelCudnn, header: T.wheelMetadata } : found;
  const reinstall = `pip install "tensorflow[and-cuda]==${req.row}"`;
  return [
    finding('toolkit', 'pass', T.wheelsCuda(req.cuda!), [winner ? `${cudart!.file} → ${winner.dir}` : T.inWheels(cudart!.file, facts.pip?.venv)]),
    cudnnFinding(facts, req, copy, T.wheelCudnnWhere, reinstall),
  ];
}

/** A conda env's cudatoolkit that TF loads cudart from, of the right CUDA: no system toolkit needed. */
function condaToolkitFindings(facts: MachineFacts, req: Requirements): Finding[] | undefined {
  const env = facts.conda;
  const cudart = req.libraries.find((l) => l.name === 'cudart');
  const winner = cudart ? resolveLibrary(facts.search, cudart.file).winner : undefined;
  if (!env?.cuda || !winner || winner.via !== 'conda env' || env.cuda.majorMinor !== req.cuda) return undefined;
  const copy = facts.cudnn.find((c) => c.path === env.libDir);
  const install = req.cudnn ? `conda install cudnn=${req.cudnn}` : 'conda install cudnn';
  return [
    finding('toolkit', 'pass', T.condaToolkit(req.cuda, env.name ?? env.prefix, env.cuda.package, env.cuda.version), [`${cudart!.file} → ${winner.dir}`]),
    cudnnFinding(facts, req, copy, T.condaWhere(env.name ?? env.prefix), install),
  ];
}

/** The cuDNN copy in the folder the loader takes TF's cuDNN library from, if it holds one. */
function cudnnTheLoaderFinds(facts: MachineFacts, req: Requirements): CudnnCopy | undefined {
  const file = req.libraries.find((l) => l.name === 'cudnn')?.file;
  const dir = file ? resolveLibrary(facts.search, file).winner?.dir : undefined;
  return dir ? facts.cudnn.find((c) => c.where === 'search path' && c.path === dir) : undefined;
}

function cudnnFinding(facts: MachineFacts, req: Requirements, copy: CudnnCopy | undefined, where: string, fix: string): Finding {
  const want = req.cudnn ?? '';
  const others = facts.cudnn.filter((c) => c !== copy).map((c) => T.cudnnElsewhere(c.version ?? `${c.major ?? '?'}.x`, c.path));
  if (!copy) return finding('cudnn', 'fail', T.noCudnnIn(where, req.tensorflow, want), others, fix);
  const have = copy.version ?? `${copy.major}.x`;
  const evidence = [T.cudnnIn(have, copy.path, copy.header), ...others];
  if (copy.major !== major(want)) return finding('cudnn', 'fail', T.cudnnWrongMajor(have, where, req.tensorflow, want), evidence, fix);
  if (!copy.version) return finding('cudnn', 'warn', T.cudnnNoHeader(copy.major, where, want), evidence, fix);
  if (compareDotted(copy.version.split('.').slice(0, 2).join('.'), want) < 0) {
    return finding('cudnn', 'fail', T.cudnnOlder(copy.version, where, want, req.tensorflow), evidence, fix);
  }
  return finding('cudnn', 'pass', T.cudnnOk(copy.version, where, want), evidence);
}
