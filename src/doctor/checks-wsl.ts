// Verdicts inside WSL: the distribution's own requirements (WSL 2, a recent Windows, the Windows
// driver's libcuda mounted and on the loader path), and the driver judged as the Windows driver it is.
import { driverMinFor, findCudaRelease, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { MachineFacts } from '../probe/types.js';
import type { WslFacts } from '../probe/wsl.js';
import { compareDotted } from '../version.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';

export const insideWsl = (facts: MachineFacts): WslFacts | undefined => (facts.wsl?.isWsl ? facts.wsl : undefined);

/** The fix for any driver problem inside WSL: always on Windows, never a Linux driver. */
export function wslDriverFix(wsl: WslFacts, min?: string | null): string {
  const fix = wsl.driverFix ?? 'Update the NVIDIA driver on Windows, not inside WSL.';
  return min ? `${fix} It must be ${min} or newer: ${DRIVER_DOWNLOAD_PAGE}` : `${fix} (${DRIVER_DOWNLOAD_PAGE})`;
}

/** What WSL is, then one finding per problem the WSL probe saw (WSL 1 fails the `wsl` finding itself). */
export function wslFindings(facts: MachineFacts): Finding[] {
  const wsl = insideWsl(facts);
  if (!wsl) return [];
  const evidence = [
    wsl.kernel ? `kernel ${wsl.kernel}` : '',
    wsl.windowsBuild !== undefined ? `Windows ${wsl.windowsVersion ?? `build ${wsl.windowsBuild}`} (from ${wsl.windowsBuildSource})` : 'Windows build: could not be read (no interop)',
    wsl.libcuda ? `${wsl.libcuda}: the Windows driver's libcuda` : '',
    wsl.nvidiaSmi ? `${wsl.nvidiaSmi}${wsl.windowsDriverVersion ? `: Windows driver ${wsl.windowsDriverVersion}` : ''}` : '',
  ];
  const wsl1 = wsl.problems.find((p) => p.id === 'wsl1');
  const out: Finding[] = [
    wsl1
      ? finding('wsl', 'fail', `${wsl.distro ?? 'This distribution'} runs under WSL 1, which has no GPU access`, evidence, wsl1.fix)
      : finding('wsl', 'pass', `Inside WSL ${wsl.version ?? '(version unknown)'}${wsl.distro ? ` (${wsl.distro})` : ''}: the GPU driver is Windows'${wsl.windowsDriverVersion ? ` (${wsl.windowsDriverVersion})` : ''}`, evidence),
  ];
  for (const p of wsl.problems) {
    if (p === wsl1) continue;
    out.push(finding(`wsl:${p.id}`, p.id === 'nvidia-smi-failed' ? 'warn' : 'fail', p.message, p.evidence ? [p.evidence] : [], p.fix));
  }
  return out;
}

/** Inside WSL the driver is Windows': its version from WSL's nvidia-smi, its minimum the Windows one. */
export function wslDriverFinding(facts: MachineFacts, wsl: WslFacts, req: Requirements | undefined, catalog: Catalog): Finding {
  const v = wsl.windowsDriverVersion ?? facts.gpu.driver.version;
  if (!v) return finding('driver', 'skip', 'No Windows NVIDIA driver version to check (WSL\'s nvidia-smi reported none)', [], wslDriverFix(wsl));
  const release = req?.cuda ? findCudaRelease(catalog, req.cuda) : undefined;
  const min = (release ? driverMinFor(catalog, release, 'windows').min : undefined) ?? req?.driverMin ?? undefined;
  const evidence = [
    `Windows driver ${v} (${wsl.windowsDriverVersion ? `${wsl.nvidiaSmi} inside WSL` : facts.gpu.driver.source})`,
    ...(wsl.nvidiaSmiVersion ? [`NVIDIA-SMI ${wsl.nvidiaSmiVersion} is WSL's own tool version, not the driver's`] : []),
  ];
  if (!min || !req?.cuda) return finding('driver', 'pass', `Windows NVIDIA driver ${v} (used through WSL)`, evidence);
  if (compareDotted(v, min) < 0) {
    return finding('driver', 'fail', `Windows NVIDIA driver ${v} is too old for CUDA ${req.cuda} (needs ${min} or newer)`, evidence, wslDriverFix(wsl, min));
  }
  return finding('driver', 'pass', `Windows NVIDIA driver ${v} ≥ ${min} (CUDA ${req.cuda}, used through WSL)`, evidence);
}

/** The GPU finding's fix inside WSL: the driver to install or repair is Windows'. */
export function wslGpuFinding(gpu: Finding, wsl: WslFacts): Finding {
  if (gpu.status === 'pass') return gpu;
  const noSmi = !wsl.nvidiaSmi && gpu.title.startsWith('No NVIDIA driver');
  return {
    ...gpu,
    title: noSmi ? "No NVIDIA driver from Windows inside WSL, so no usable GPU" : gpu.title,
    evidence: noSmi ? [`nvidia-smi: not on PATH and not in ${wsl.driverLibDir}`] : gpu.evidence,
    fix: wslDriverFix(wsl),
  };
}
