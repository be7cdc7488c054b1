// Verdicts on the GPU and the driver: present, new enough an architecture, new enough a driver.
import { gpuSupport, newestNativeTf } from '../catalog/gpu-support.js';
import { cudaFamily, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { LINUX_DRIVER_VERSION_FILE } from '../platform.js';
import { PROC_MODULES_FILE } from '../probe/driver-userspace.js';
import type { MachineFacts } from '../probe/types.js';
import { compareDotted, majorMinor } from '../version.js';
import { doctorText as T } from '../i18n/doctor.js';
import { DRIVER_DOWNLOAD_PAGE, finding, type Finding } from './finding.js';

function describeGpu(g: MachineFacts['gpu']['gpus'][number]): string {
  return T.gpuLine(g.index, g.name, g.memory, g.computeCapability, g.computeCapabilitySource === 'name-table');
}

/** The user-space driver is there and its kernel module is not: after a kernel update whose module build failed, say. */
export function moduleNotLoaded(gpu: MachineFacts['gpu']): boolean {
  const k = gpu.kernelModule;
  // /proc/modules may be hidden (containers): then the absent version file alone says it.
  return Boolean(gpu.userspace && k && !k.versionFile && !(k.modules ?? []).includes('nvidia'));
}

/** Libraries of one version, a loaded module of another (nvidia-smi: "Driver/library version mismatch"). */
function versionMismatch(gpu: MachineFacts['gpu']): { user?: string; kernel?: string } | undefined {
  const kernel = gpu.driver.source === 'kernel module' ? gpu.driver.version : undefined;
  if (/version mismatch/i.test(gpu.evidence ?? '')) return { user: gpu.userspace?.version, kernel };
  return gpu.userspace && kernel && gpu.userspace.version !== kernel ? { user: gpu.userspace.version, kernel } : undefined;
}

function installEvidence(gpu: MachineFacts['gpu']): string {
  const i = gpu.install;
  if (!i || i.how === 'unknown') return '';
  if (i.how === 'run-file') return T.installedByRunFile(i.evidence);
  return i.manager === 'dpkg' ? T.installedByDpkg(i.package, i.version) : T.installedByRpm;
}

/** A fix that fits how the driver came: never NVIDIA's download page over a package manager's driver. */
function moduleFix(gpu: MachineFacts['gpu'], v: string): string {
  const i = gpu.install;
  if (i?.how === 'run-file') return T.moduleFixRunFile(v);
  if (i?.how === 'package') return i.manager === 'dpkg' ? T.moduleFixDpkg(v) : T.moduleFixRpm(v);
  return T.moduleFixUnknown(v);
}

function smiEvidence(facts: MachineFacts): string {
  const { gpu } = facts;
  return gpu.nvidiaSmi ? T.smiSaid(gpu.nvidiaSmi, String(gpu.evidence)) : T.smiNotFound;
}

/** Linux, the driver's two halves apart: the module not loaded, or of another version than the libraries. */
function driverHalvesFinding(facts: MachineFacts): Finding | undefined {
  const { gpu } = facts;
  if (facts.os !== 'linux' || gpu.state === 'ok') return undefined;
  const mismatch = versionMismatch(gpu);
  if (mismatch) {
    const title = mismatch.user && mismatch.kernel ? T.versionMismatch(mismatch.user, mismatch.kernel) : T.versionMismatchUnknown;
    return finding('gpu', 'fail', title, [smiEvidence(facts), mismatch.kernel ? T.kernelReports(mismatch.kernel) : '', gpu.userspace ? T.userspaceLibrary(gpu.userspace.library, gpu.userspace.version) : '', installEvidence(gpu)], T.versionMismatchFix);
  }
  if (!moduleNotLoaded(gpu)) return undefined;
  const v = gpu.userspace!.version;
  return finding('gpu', 'fail', T.moduleNotLoaded(v), [
    smiEvidence(facts),
    T.kernelFileAbsent(LINUX_DRIVER_VERSION_FILE),
    gpu.kernelModule?.modules ? T.noModuleInProcModules(PROC_MODULES_FILE) : '',
    T.userspaceLibrary(gpu.userspace!.library, v),
    installEvidence(gpu),
  ], moduleFix(gpu, v));
}

export function gpuFinding(facts: MachineFacts): Finding {
  const { gpu, os } = facts;
  const halves = driverHalvesFinding(facts);
  if (halves) return halves;
  const kernel = gpu.driver.source === 'kernel module' ? T.kernelReports(gpu.driver.version ?? '') : undefined;
  switch (gpu.state) {
    case 'ok':
      return finding('gpu', 'pass', gpu.gpus.length === 1 ? T.oneGpu(gpu.gpus[0].name) : T.manyGpus(gpu.gpus.length), gpu.gpus.map(describeGpu));
    case 'no-nvidia-smi': {
      const evidence = [os === 'windows' ? T.smiNotFoundWindows : T.smiNotFound];
      if (os === 'linux') evidence.push(kernel ?? T.kernelFileAbsent(LINUX_DRIVER_VERSION_FILE));
      return finding(
        'gpu',
        'fail',
        kernel ? T.kernelButNoSmi : T.noDriverNoGpu,
        evidence,
        kernel
          ? T.kernelButNoSmiFix
          : T.noDriverFix(DRIVER_DOWNLOAD_PAGE),
      );
    }
    case 'no-driver':
      return finding('gpu', 'fail', T.smiNoDriver, [T.smiSaid(String(gpu.nvidiaSmi), String(gpu.evidence)), ...(kernel ? [kernel] : [])], T.smiNoDriverFix(DRIVER_DOWNLOAD_PAGE));
    case 'no-devices':
      return finding('gpu', 'fail', T.noDevices, [T.smiSaid(String(gpu.nvidiaSmi), String(gpu.evidence))], T.noDevicesFix);
    default:
      return finding('gpu', 'warn', T.smiGarbage, [T.smiSaid(String(gpu.nvidiaSmi), `"${gpu.evidence}"`)], T.smiGarbageFix);
  }
}

type Gpu = MachineFacts['gpu']['gpus'][number];

/** What to do when this GPU cannot run the target: the newest TF with machine code for it, or that it is too old. */
function unsupportedFix(catalog: Catalog, g: Gpu & { computeCapability: string }, req: Requirements): string {
  const native = newestNativeTf(catalog, g.computeCapability, req.os);
  if (native) {
    return T.useNativeTf(native.tf, g.computeCapability, g.name);
  }
  const min = cudaFamily(catalog, req.cuda!)?.computeCapabilityMin;
  const tooOld = min && compareDotted(g.computeCapability, min) < 0 ? T.gpuTooOldForCuda(g.name, req.cuda!) : T.gpuCannotRun(g.name, majorMinor(req.tensorflow));
  return T.noTfForCc(tooOld, g.computeCapability);
}

/** Whether each GPU runs the target TF natively, only after a PTX JIT at first start, or not at all (gpuSupport). */
export function computeCapabilityFinding(facts: MachineFacts, req: Requirements, catalog: Catalog): Finding | undefined {
  if (facts.gpu.gpus.length === 0 || !req.cuda) return undefined;
  const tf = majorMinor(req.tensorflow);
  const known = facts.gpu.gpus.filter((g): g is Gpu & { computeCapability: string } => !!g.computeCapability);
  const unknown = facts.gpu.gpus.filter((g) => !g.computeCapability);
  const judged = known.map((g) => ({ g, s: gpuSupport(catalog, g, { tf: req.tensorflow, cuda: req.cuda!, os: req.os }) }));
  const evidence = [...facts.gpu.gpus.map(describeGpu), ...judged.map(({ g, s }) => T.gpuVerdict(g.index, T.ccReason(s.reason, s.verdict, tf, g.computeCapability)))];
  const names = (list: { g: Gpu }[]) => T.list(list.map(({ g }) => g.name));
  const low = judged.filter(({ s }) => s.verdict === 'unsupported');
  const jit = judged.filter(({ s }) => s.verdict === 'ptx-jit');
  if (low.length > 0 && low.length === facts.gpu.gpus.length) {
    const fixes = [...new Set(low.map(({ g }) => unsupportedFix(catalog, g, req)))];
    return finding('compute-capability', 'fail', T.ccWillNotRun(tf, names(low), T.list(low.map(({ g }) => g.computeCapability))), evidence, T.sentences(fixes));
  }
  if (low.length > 0) {
    return finding('compute-capability', 'warn', T.ccSomeWillNotRun(tf, names(low)), evidence,
      T.ccSomeFix(judged.filter(({ s }) => s.verdict !== 'unsupported').map(({ g }) => g.index).join(',')));
  }
  if (jit.length > 0) {
    const first = jit.find(({ s }) => s.suggestion);
    const native = first ? newestNativeTf(catalog, first.g.computeCapability, req.os) : undefined;
    const suggestion = first?.s.suggestion ? T.ccSuggestion(first.s.suggestion, native?.tf ?? '', first.g.computeCapability) : undefined;
    return finding('compute-capability', 'warn', T.ccJit(tf, names(jit)), evidence, T.ccJitFix(suggestion));
  }
  if (unknown.length > 0) {
    const min = cudaFamily(catalog, req.cuda)?.computeCapabilityMin;
    return finding('compute-capability', 'warn', T.ccUnknown(T.list(unknown.map((g) => g.name))), [
      ...evidence,
      ...(facts.gpu.computeCapFieldMissing ? [T.ccFieldMissing] : []),
    ], T.ccUnknownFix(req.cuda, min ?? undefined, tf));
  }
  const ccs = T.list(known.map((g) => g.computeCapability));
  if (judged.some(({ s }) => s.verdict === 'unknown')) {
    return finding('compute-capability', 'pass', T.ccArchUnknown(ccs, req.cuda, tf), evidence);
  }
  return finding('compute-capability', 'pass', T.ccNative(ccs, tf, req.cuda), evidence);
}

export function driverFinding(facts: MachineFacts, req: Requirements | undefined): Finding {
  const v = facts.gpu.driver.version;
  if (!v) return finding('driver', 'skip', T.noDriverVersion, [], null);
  const evidence = [T.driverEvidence(v, facts.gpu.driver.source), moduleNotLoaded(facts.gpu) ? T.kernelModuleNotLoaded : ''].filter(Boolean);
  if (!req?.driverMin) return finding('driver', 'pass', T.driverPlain(v), evidence);
  if (compareDotted(v, req.driverMin) < 0) {
    return finding('driver', 'fail', T.driverOld(v, req.cuda, req.driverMin), evidence, T.driverOldFix(req.driverMin, DRIVER_DOWNLOAD_PAGE));
  }
  return finding('driver', 'pass', T.driverOk(v, req.driverMin, req.cuda), evidence);
}
