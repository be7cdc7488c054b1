// Verdicts on the CUDA toolkits and the cuDNN inside the one TensorFlow uses.
import type { Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { safetyText } from '../i18n/safety.js';
import { resolveLibrary } from '../probe/resolution.js';
import type { CudnnCopy, MachineFacts, Toolkit, ToolkitComponent } from '../probe/types.js';
import { compareDotted, major } from '../version.js';
import { finding, type Finding } from './finding.js';
import { describeToolkit, toolkitInUse } from './toolkit-lookup.js';

const LABEL: Record<ToolkitComponent, string> = {
  nvcc: 'nvcc', cudart: 'cudart', cublas: 'cuBLAS', cublasLt: 'cuBLASLt', cufft: 'cuFFT', curand: 'cuRAND',
  cusolver: 'cuSOLVER', cusparse: 'cuSPARSE', cupti: 'CUPTI', cudnn: 'cuDNN',
};
const label = (cs: ToolkitComponent[]) => cs.map((c) => LABEL[c]).join(', ');
const present = (t: Toolkit) => (Object.keys(t.components) as ToolkitComponent[]).filter((c) => t.components[c]?.length);

export function unreadableFindings(facts: MachineFacts): Finding[] {
  return facts.toolkits
    .filter((t) => !t.readable)
    .map((t) => finding(`toolkit-unreadable:${t.path}`, 'warn', `Could not read the toolkit directory ${t.path} (${t.error})`,
      [`found via ${t.foundVia.join(', ')}`], `Check it: ${facts.os === 'windows' ? `dir "${t.path}"` : `ls -ld ${t.path}`}; run cudawiz as a user who can read it, or repair the broken link.`));
}

export function copyInterruptedFindings(facts: MachineFacts): Finding[] {
  return facts.toolkits
    .filter((t) => t.cudawizCopy && t.cudawizCopy.state !== 'complete' && t.cudawizCopy.state !== 'rolled-back')
    .map((t) => t.cudawizCopy!.state === 'scratch'
      ? finding(`copy-leftovers:${t.path}`, 'warn', safetyText.scratchFinding(t.path), t.cudawizCopy!.scratch ?? [], safetyText.scratchFix(t.path))
      : t.cudawizCopy!.state === 'copying'
      ? finding(`copy-interrupted:${t.path}`, 'fail', `A cudawiz cuDNN copy into ${t.path} stopped half-way`, [`${t.cudawizCopy!.manifest}: state "copying"`], 'cudawiz repair')
      : finding(`copy-interrupted:${t.path}`, 'warn', `cudawiz's manifest in ${t.path} is in state "${t.cudawizCopy!.state}"`, [t.cudawizCopy!.manifest], 'cudawiz repair'));
}

/** Without a TensorFlow target: what is installed, and what each toolkit lacks. */
export function toolkitInventory(facts: MachineFacts): Finding[] {
  const readable = facts.toolkits.filter((t) => t.readable);
  const nvcc = facts.nvccOnPath ? [`nvcc on PATH: ${facts.nvccOnPath.path} (release ${facts.nvccOnPath.release ?? 'unknown'})`] : [];
  if (readable.length === 0) {
    return [finding('toolkit', 'warn', 'No CUDA toolkit found', [`looked under ${facts.cudaRoot}, in CUDA_PATH*, CUDA_HOME and for nvcc on PATH`, ...nvcc], null)];
  }
  return readable.map((t) => {
    const missing = t.missing;
    const evidence = [`found via ${t.foundVia.join(', ')}`, `has: ${label(present(t)) || 'nothing TensorFlow loads'}`, ...nvcc];
    if (missing.length === 0) return finding(`toolkit:${t.path}`, 'pass', describeToolkit(t), evidence);
    return finding(`toolkit:${t.path}`, 'warn', `${describeToolkit(t)} is partial: no ${label(missing)}`, evidence,
      'Fine for compiling with nvcc; TensorFlow needs a full toolkit of the version it was built for (cudawiz doctor --tf V says which).');
  });
}

export function toolkitFindings(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding[] {
  if (!req.cuda) return [];
  const right = facts.toolkits.filter((t) => t.readable && t.majorMinor === req.cuda);
  const others = facts.toolkits.filter((t) => t.readable && t.majorMinor !== req.cuda);
  const out: Finding[] = [];
  const wheels = wheelFindings(facts, req);
  if (wheels) return wheels;
  if (right.length === 0) {
    const evidence = others.length ? others.map((t) => `installed: ${describeToolkit(t)}`) : [`no toolkit under ${facts.cudaRoot}, in CUDA_PATH*, CUDA_HOME or on PATH`];
    const install = `cudawiz install --tf ${req.tensorflow}`;
    out.push(finding('toolkit', 'fail', `CUDA ${req.cuda} is not installed${others.length ? ` (found ${others.map((t) => t.version).join(', ')})` : ''}`, evidence,
      others.length ? `Install CUDA ${req.cuda} beside ${others.length === 1 ? 'it' : 'them'}; nothing to uninstall — toolkits live side by side: ${install}` : `Install CUDA ${req.cuda}: ${install}`));
    return out;
  }
  out.push(finding('toolkit', 'pass', `CUDA ${req.cuda} installed: ${right.map((t) => t.path).join(', ')}`, right.map(describeToolkit)));
  const used = toolkitInUse(facts, req) ?? right[0];
  const lacking = used.missing.filter((c) => c !== 'cudnn' && c !== 'nvcc');
  if (lacking.length) {
    out.push(finding('toolkit-complete', 'fail', `CUDA ${used.version} at ${used.path} is partial: no ${label(lacking)}`, [`has: ${label(present(used))}`],
      `Reinstall CUDA ${req.cuda} with its libraries: cudawiz install --tf ${req.tensorflow}`));
  }
  const copy = facts.cudnn.find((c) => c.where === 'toolkit' && c.path === used.path);
  const fix = `cudawiz install --tf ${req.tensorflow} --cudnn-archive FILE, with FILE = ${req.cudnnArchive ? `${req.cudnnArchive.file} (log in at ${req.cudnnArchive.page})` : `cuDNN ${req.cudnn} for CUDA ${req.cuda} (${catalog.cudnn.archivePage})`}`;
  out.push(cudnnFinding(facts, req, copy, `CUDA ${used.version} at ${used.path}`, fix));
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
  const copy = found && !found.version && wheelCudnn && major(wheelCudnn) === found.major ? { ...found, version: wheelCudnn, header: 'nvidia-cudnn wheel metadata' } : found;
  const reinstall = `pip install "tensorflow[and-cuda]==${req.row}"`;
  return [
    finding('toolkit', 'pass', `CUDA ${req.cuda} comes from pip's nvidia-* wheels (tensorflow[and-cuda]); no toolkit needed`, [winner ? `${cudart!.file} → ${winner.dir}` : `${cudart!.file}: in ${facts.pip?.venv ?? 'the Python environment'}'s nvidia wheels`]),
    cudnnFinding(facts, req, copy, "pip's nvidia-cudnn wheel", reinstall),
  ];
}

function cudnnFinding(facts: MachineFacts, req: Requirements, copy: CudnnCopy | undefined, where: string, fix: string): Finding {
  const want = req.cudnn ?? '';
  const others = facts.cudnn.filter((c) => c !== copy).map((c) => `elsewhere: cuDNN ${c.version ?? `${c.major ?? '?'}.x`} in ${c.path}`);
  if (!copy) return finding('cudnn', 'fail', `No cuDNN in ${where} (TensorFlow ${req.tensorflow} needs cuDNN ${want})`, others, fix);
  const have = copy.version ?? `${copy.major}.x`;
  const evidence = [`cuDNN ${have} in ${copy.path}${copy.header ? ` (${copy.header})` : ''}`, ...others];
  if (copy.major !== major(want)) return finding('cudnn', 'fail', `cuDNN ${have} in ${where} is the wrong major: TensorFlow ${req.tensorflow} needs cuDNN ${want}`, evidence, fix);
  if (!copy.version) return finding('cudnn', 'warn', `cuDNN ${copy.major}.x in ${where}: no version header to check the minor against ${want}`, evidence, fix);
  if (compareDotted(copy.version.split('.').slice(0, 2).join('.'), want) < 0) {
    return finding('cudnn', 'fail', `cuDNN ${copy.version} in ${where} is older than the ${want} TensorFlow ${req.tensorflow} needs`, evidence, fix);
  }
  return finding('cudnn', 'pass', `cuDNN ${copy.version} in ${where} (needs ${want})`, evidence);
}
