// Verdicts on the GPU and the driver: present, new enough an architecture, new enough a driver.
import type { Requirements } from '../catalog/queries.js';
import { LINUX_DRIVER_VERSION_FILE } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted } from '../version.js';
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

export function computeCapabilityFinding(facts: MachineFacts, req: Requirements): Finding | undefined {
  const min = req.computeCapabilityMin;
  if (facts.gpu.gpus.length === 0 || !req.cuda) return undefined;
  if (!min) return finding('compute-capability', 'skip', `The catalog has no compute-capability minimum for CUDA ${req.cuda}`);
  const low = facts.gpu.gpus.filter((g) => g.computeCapability && compareDotted(g.computeCapability, min) < 0);
  const unknown = facts.gpu.gpus.filter((g) => !g.computeCapability);
  const evidence = facts.gpu.gpus.map(describeGpu);
  if (low.length === facts.gpu.gpus.length) {
    return finding('compute-capability', 'fail', `No GPU here is supported by CUDA ${req.cuda} (needs compute capability ${min} or newer)`, evidence,
      `TensorFlow ${req.tensorflow} cannot use ${low.map((g) => g.name).join(', ')}; pick an older TensorFlow whose CUDA still supports it (cudawiz requirements --tf V).`);
  }
  if (low.length > 0) {
    return finding('compute-capability', 'warn', `Some GPUs are too old for CUDA ${req.cuda}: ${low.map((g) => g.name).join(', ')}`, evidence,
      `TensorFlow will skip them; set CUDA_VISIBLE_DEVICES to the supported GPUs to silence its warnings.`);
  }
  if (unknown.length > 0) {
    return finding('compute-capability', 'warn', `Compute capability unknown for ${unknown.map((g) => g.name).join(', ')}`, [
      ...evidence,
      ...(facts.gpu.computeCapFieldMissing ? ['this nvidia-smi does not know the compute_cap field (driver R470 or older)'] : []),
    ], `Look the GPU up at https://developer.nvidia.com/cuda-gpus: CUDA ${req.cuda} needs ${min} or newer.`);
  }
  return finding('compute-capability', 'pass', `Compute capability ${facts.gpu.gpus.map((g) => g.computeCapability).join(', ')} ≥ ${min} (CUDA ${req.cuda})`, evidence);
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
