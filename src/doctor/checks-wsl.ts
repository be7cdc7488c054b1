// Verdicts inside WSL: the distribution's own requirements (WSL 2, a recent Windows, the Windows
// driver's libcuda mounted and on the loader path), and the driver judged as the Windows driver it is.
import { driverMinFor, findCudaRelease, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import type { MachineFacts } from '../probe/types.js';
import type { WslFacts } from '../probe/wsl.js';
import { compareDotted } from '../version.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';
import { doctorText as T } from '../i18n/doctor.js';

export const insideWsl = (facts: MachineFacts): WslFacts | undefined => (facts.wsl?.isWsl ? facts.wsl : undefined);

/** The fix for any driver problem inside WSL: always on Windows, never a Linux driver. */
export function wslDriverFix(wsl: WslFacts, min?: string | null): string {
  const fix = wsl.driverFix ?? T.wslDriverFixDefault;
  return min ? T.wslDriverMin(fix, min, DRIVER_DOWNLOAD_PAGE) : T.wslDriverPage(fix, DRIVER_DOWNLOAD_PAGE);
}

/** What WSL is, then one finding per problem the WSL probe saw (WSL 1 fails the `wsl` finding itself). */
export function wslFindings(facts: MachineFacts): Finding[] {
  const wsl = insideWsl(facts);
  if (!wsl) return [];
  const evidence = [
    wsl.kernel ? T.wslKernel(wsl.kernel) : '',
    wsl.windowsBuild !== undefined ? T.wslWindows(wsl.windowsVersion ?? T.wslBuild(wsl.windowsBuild), wsl.windowsBuildSource) : T.wslNoBuild,
    wsl.libcuda ? T.wslLibcuda(wsl.libcuda) : '',
    wsl.nvidiaSmi ? T.wslSmi(wsl.nvidiaSmi, wsl.windowsDriverVersion) : '',
  ];
  const wsl1 = wsl.problems.find((p) => p.id === 'wsl1');
  const out: Finding[] = [
    wsl1
      ? finding('wsl', 'fail', T.wsl1(wsl.distro), evidence, wsl1.fix)
      : finding('wsl', 'pass', T.wslOk(wsl.version, wsl.distro, wsl.windowsDriverVersion), evidence),
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
  if (!v) return finding('driver', 'skip', T.wslNoDriverVersion, [], wslDriverFix(wsl));
  const release = req?.cuda ? findCudaRelease(catalog, req.cuda) : undefined;
  const min = (release ? driverMinFor(catalog, release, 'windows').min : undefined) ?? req?.driverMin ?? undefined;
  const evidence = [
    T.wslDriverEvidence(v, wsl.windowsDriverVersion ? T.wslSmiInside(wsl.nvidiaSmi) : String(facts.gpu.driver.source)),
    ...(wsl.nvidiaSmiVersion ? [T.wslSmiVersion(wsl.nvidiaSmiVersion)] : []),
  ];
  if (!min || !req?.cuda) return finding('driver', 'pass', T.wslDriverPlain(v), evidence);
  if (compareDotted(v, min) < 0) {
    return finding('driver', 'fail', T.wslDriverOld(v, req.cuda, min), evidence, wslDriverFix(wsl, min));
  }
  return finding('driver', 'pass', T.wslDriverOk(v, min, req.cuda), evidence);
}

/** The GPU finding's fix inside WSL: the driver to install or repair is Windows'. */
export function wslGpuFinding(gpu: Finding, wsl: WslFacts): Finding {
  if (gpu.status === 'pass') return gpu;
  const noSmi = !wsl.nvidiaSmi && gpu.title === T.noDriverNoGpu;
  return {
    ...gpu,
    title: noSmi ? T.wslNoSmi : gpu.title,
    evidence: noSmi ? [T.wslSmiMissing(wsl.driverLibDir)] : gpu.evidence,
    fix: wslDriverFix(wsl),
  };
}
