// diagnose: facts + the catalog → findings. Pure: no I/O, so the doctor, repair and the plan share it.
import type { Catalog } from '../catalog/schema.js';
import type { OsName } from '../platform.js';
import type { MachineFacts } from '../probe/types.js';
import { computeCapabilityFinding, driverFinding, gpuFinding } from './checks-gpu.js';
import { condaFindings } from './checks-conda.js';
import { libraryFindings, windowsRuntimeFindings } from './checks-libraries.js';
import { pipFindings } from './checks-pip.js';
import { pythonFinding, tensorflowFinding, windowsNativeFinding } from './checks-python.js';
import { runtimeFindings } from './checks-runtime.js';
import { copyInterruptedFindings, redistFilesFindings, toolkitFindings, toolkitInventory, unreadableFindings } from './checks-toolkit.js';
import { insideWsl, wslDriverFinding, wslFindings, wslGpuFinding } from './checks-wsl.js';
import type { Finding } from './finding.js';
import { groupFindings } from './group.js';
import { chooseTarget } from './target.js';
import { toolkitInUse } from './toolkit-lookup.js';

export interface DiagnoseOptions {
  /** The TensorFlow to check for; default: the pip-installed one. */
  tf?: string;
  /** The OS whose rules apply; default: the probed machine's. */
  os?: OsName;
}

export function diagnose(catalog: Catalog, facts: MachineFacts, options: DiagnoseOptions = {}): Finding[] {
  const os = options.os ?? facts.os;
  const target = chooseTarget(catalog, facts, options.tf, os);
  const req = target.requirements;
  const out: (Finding | undefined)[] = [target.finding];
  if (req) out.push(windowsNativeFinding(facts, req, catalog));
  // Inside WSL the driver is Windows': never a Linux-driver fix.
  const wsl = insideWsl(facts);
  out.push(...wslFindings(facts));
  // conda's CUDA runtime, judged against the driver, before the libraries it may shadow.
  out.push(...condaFindings(facts, catalog));
  out.push(wsl ? wslGpuFinding(gpuFinding(facts), wsl) : gpuFinding(facts));
  if (req) out.push(computeCapabilityFinding(facts, req, catalog));
  out.push(wsl ? wslDriverFinding(facts, wsl, req, catalog) : driverFinding(facts, req));
  out.push(...unreadableFindings(facts));
  out.push(...copyInterruptedFindings(facts));
  if (req?.gpuSupported) {
    out.push(...toolkitFindings(facts, req, catalog));
    out.push(...redistFilesFindings(facts, req));
    out.push(...runtimeFindings(catalog, facts, req));
    out.push(...libraryFindings(facts, req));
    out.push(...pipFindings(facts, req, catalog));
    const used = toolkitInUse(facts, req);
    const cudnn = facts.cudnn.find((c) => used && c.where === 'toolkit' && c.path === used.path);
    out.push(...windowsRuntimeFindings(facts, cudnn?.version));
  } else {
    out.push(...toolkitInventory(facts));
    out.push(...runtimeFindings(catalog, facts));
    out.push(...windowsRuntimeFindings(facts, undefined));
  }
  out.push(pythonFinding(facts, req));
  out.push(tensorflowFinding(facts, target.tf));
  return groupFindings(out.filter((f): f is Finding => f !== undefined), facts, req);
}

export { type Finding, type FindingStatus, hasFailure } from './finding.js';
