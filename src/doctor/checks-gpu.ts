// Verdicts on the GPU and the driver: present, new enough an architecture, new enough a driver.
import { gpuSupport, newestNativeTf } from '../catalog/gpu-support.js';
import { cudaFamily, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { LINUX_DRIVER_VERSION_FILE } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted, majorMinor } from '../version.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';

function describeGpu(g: MachineFacts['gpu']['gpus'][number]): string {
  const cc = g.computeCapability ? `, compute capability ${g.computeCapability}${g.computeCapabilitySource === 'name-table' ? ' (from its name)' : ''}` : '';
  return `GPU ${g.index}: ${g.name}${g.memory ? ` (${g.memory})` : ''}${cc}`;
}

export function gpuFinding(facts: MachineFacts): Finding {
  const { gpu, os } = facts;
  const kernel = gpu.driver.source === 'kernel module' ? `kernel module reports driver ${gpu.driver.version}` : undefined;
  switch (gpu.state) {
    case 'ok':
      return finding('gpu', 'pass', gpu.gpus.length === 1 ? `NVIDIA GPU: ${gpu.gpus[0].name}` : `${gpu.gpus.length} NVIDIA GPUs`, gpu.gpus.map(describeGpu));
    case 'no-nvidia-smi': {
      const evidence = [os === 'windows' ? 'nvidia-smi.exe: not on PATH, not in System32, not in NVIDIA Corporation\\NVSMI' : 'nvidia-smi: not found'];
      if (os === 'linux') evidence.push(kernel ?? `${LINUX_DRIVER_VERSION_FILE}: absent (no NVIDIA kernel driver loaded)`);
      return finding(
        'gpu',
        'fail',
        kernel ? 'An NVIDIA kernel driver is loaded but nvidia-smi is missing' : 'No NVIDIA driver, so no usable GPU, on this machine',
        evidence,
        kernel
          ? 'Install the driver utilities that match the kernel module (e.g. the nvidia-utils package of the same version).'
          : `If this machine has an NVIDIA GPU, install its driver from ${DRIVER_DOWNLOAD_PAGE}; without one TensorFlow runs on the CPU only.`,
      );
    }
    case 'no-driver':
      return finding('gpu', 'fail', 'nvidia-smi cannot talk to the NVIDIA driver', [`${gpu.nvidiaSmi}: ${gpu.evidence}`, ...(kernel ? [kernel] : [])],
        `Reinstall or reload the NVIDIA driver (${DRIVER_DOWNLOAD_PAGE}), reboot, and check that nvidia-smi lists the GPU.`);
    case 'no-devices':
      return finding('gpu', 'fail', 'The NVIDIA driver sees no GPU', [`${gpu.nvidiaSmi}: ${gpu.evidence}`],
        'Check that the GPU is seated and enabled (BIOS, hybrid-graphics setting, VM passthrough), then run nvidia-smi again.');
    default:
      return finding('gpu', 'warn', 'Could not collect the GPU list: nvidia-smi answered something unreadable', [`${gpu.nvidiaSmi}: "${gpu.evidence}"`],
        'Run nvidia-smi yourself; if it fails too, reinstall the NVIDIA driver.');
  }
}

type Gpu = MachineFacts['gpu']['gpus'][number];

/** What to do when this GPU cannot run the target: the newest TF with machine code for it, or that it is too old. */
function unsupportedFix(catalog: Catalog, g: Gpu & { computeCapability: string }, req: Requirements): string {
  const native = newestNativeTf(catalog, g.computeCapability, req.os);
  if (native) {
    return `Use TensorFlow ${native.tf}, the newest line with machine code for compute capability ${g.computeCapability} (${g.name}): cudawiz requirements --tf ${native.tf} --gpu ${g.computeCapability}`;
  }
  const min = cudaFamily(catalog, req.cuda!)?.computeCapabilityMin;
  const tooOld = min && compareDotted(g.computeCapability, min) < 0 ? `This GPU (${g.name}) is too old for CUDA ${req.cuda}` : `${g.name} cannot run TensorFlow ${majorMinor(req.tensorflow)}`;
  return `${tooOld}, and no TensorFlow release in the catalog has machine code for compute capability ${g.computeCapability}; TensorFlow can only use the CPU here.`;
}

/** Whether each GPU runs the target TF natively, only after a PTX JIT at first start, or not at all (gpuSupport). */
export function computeCapabilityFinding(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding | undefined {
  if (facts.gpu.gpus.length === 0 || !req.cuda) return undefined;
  const tf = majorMinor(req.tensorflow);
  const known = facts.gpu.gpus.filter((g): g is Gpu & { computeCapability: string } => !!g.computeCapability);
  const unknown = facts.gpu.gpus.filter((g) => !g.computeCapability);
  const judged = known.map((g) => ({ g, s: gpuSupport(catalog, g, { tf: req.tensorflow, cuda: req.cuda!, os: req.os }) }));
  const evidence = [...facts.gpu.gpus.map(describeGpu), ...judged.map(({ g, s }) => `GPU ${g.index}: ${s.reason}`)];
  const names = (list: { g: Gpu }[]) => list.map(({ g }) => g.name).join(', ');
  const low = judged.filter(({ s }) => s.verdict === 'unsupported');
  const jit = judged.filter(({ s }) => s.verdict === 'ptx-jit');
  if (low.length > 0 && low.length === facts.gpu.gpus.length) {
    const fixes = [...new Set(low.map(({ g }) => unsupportedFix(catalog, g, req)))];
    return finding('compute-capability', 'fail', `TensorFlow ${tf} will not run on ${names(low)} (compute capability ${low.map(({ g }) => g.computeCapability).join(', ')})`, evidence, fixes.join(' '));
  }
  if (low.length > 0) {
    return finding('compute-capability', 'warn', `TensorFlow ${tf} will not run on some GPUs here: ${names(low)}`, evidence,
      `TensorFlow will skip them; set CUDA_VISIBLE_DEVICES to the supported GPUs (${judged.filter(({ s }) => s.verdict !== 'unsupported').map(({ g }) => g.index).join(',')}) to silence its warnings.`);
  }
  if (jit.length > 0) {
    const suggestion = jit.map(({ s }) => s.suggestion).find(Boolean);
    return finding('compute-capability', 'warn', `TensorFlow ${tf} has no machine code for ${names(jit)}: its first start JIT-compiles PTX, which can take 30 minutes or more`, evidence,
      `Set CUDA_CACHE_MAXSIZE=2147483648 in the environment so the driver keeps the compiled kernels after the first start${suggestion ? `; or switch: ${suggestion}` : '.'}`);
  }
  if (unknown.length > 0) {
    const min = cudaFamily(catalog, req.cuda)?.computeCapabilityMin;
    return finding('compute-capability', 'warn', `Compute capability unknown for ${unknown.map((g) => g.name).join(', ')}`, [
      ...evidence,
      ...(facts.gpu.computeCapFieldMissing ? ['this nvidia-smi does not know the compute_cap field (driver R470 or older)'] : []),
    ], `Look the GPU up at https://developer.nvidia.com/cuda-gpus${min ? `: CUDA ${req.cuda} needs ${min} or newer` : ''}, then: cudawiz requirements --tf ${tf} --gpu CC`);
  }
  const ccs = known.map((g) => g.computeCapability).join(', ');
  if (judged.some(({ s }) => s.verdict === 'unknown')) {
    return finding('compute-capability', 'pass', `Compute capability ${ccs} is supported by CUDA ${req.cuda}; TensorFlow ${tf}'s GPU architectures are not in the catalog`, evidence);
  }
  return finding('compute-capability', 'pass', `Compute capability ${ccs}: TensorFlow ${tf} runs natively (CUDA ${req.cuda})`, evidence);
}

export function driverFinding(facts: MachineFacts, req: Requirements | undefined): Finding {
  const v = facts.gpu.driver.version;
  if (!v) return finding('driver', 'skip', 'No NVIDIA driver version to check', [], null);
  const evidence = [`driver ${v} (${facts.gpu.driver.source})`];
  if (!req?.driverMin) return finding('driver', 'pass', `NVIDIA driver ${v}`, evidence);
  if (compareDotted(v, req.driverMin) < 0) {
    return finding('driver', 'fail', `NVIDIA driver ${v} is too old for CUDA ${req.cuda} (needs ${req.driverMin} or newer)`, evidence,
      `Update the display driver to ${req.driverMin} or newer from ${DRIVER_DOWNLOAD_PAGE} (cudawiz never installs drivers), then reboot.`);
  }
  return finding('driver', 'pass', `NVIDIA driver ${v} ≥ ${req.driverMin} (CUDA ${req.cuda})`, evidence);
}
