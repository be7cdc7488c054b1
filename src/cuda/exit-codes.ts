// What a CUDA installer's exit means, from its code, the signal that ended it and the tail of its
// log. Each meaning carries the public report it was learnt from.
import { cudaText as T } from '../i18n/cuda.js';
import { LINUX_CUDA_INSTALLER_LOG, LINUX_CUDA_INSTALLER_TMP_LOG, type OsName } from '../platform.js';

export interface InstallerOutcome {
  /** 'ok': done; 'ok-with-warning': done, but say the note; 'failed': stop. */
  kind: 'ok' | 'ok-with-warning' | 'failed';
  /** A stable id for the meaning, e.g. 'wrong-components'. */
  id: string;
  meaning: string;
  fix?: string;
  source?: string;
}

/** Windows reports a DWORD; Node may hand it over signed. */
export function unsignedExitCode(code: number): number {
  return code >>> 0;
}

export const WINDOWS_EXIT = {
  /** 0xE0E00019: a named sub-package does not exist in this installer (Jimver/cuda-toolkit#388, eullm/eullm#131). */
  wrongComponents: 3772776473,
  /** 0x80070424 ERROR_SERVICE_DOES_NOT_EXIST: telemetry service missing; the toolkit was installed (chtof/chocolatey-packages#6). */
  telemetryMissing: 2147943460,
  /** ERROR_SUCCESS_REBOOT_REQUIRED, the Windows Installer convention; not seen in a CUDA report, so only believed with a good result check. */
  rebootRequired: 3010,
} as const;

function windowsOutcome(code: number): InstallerOutcome {
  const c = unsignedExitCode(code);
  if (c === 0) return { kind: 'ok', id: 'ok', meaning: T.finished };
  if (c === WINDOWS_EXIT.wrongComponents)
    return {
      kind: 'failed',
      id: 'wrong-components',
      meaning: T.wrongComponents(c),
      fix: T.wrongComponentsFix,
      source: 'Jimver/cuda-toolkit#388; eullm/eullm#131',
    };
  if (c === WINDOWS_EXIT.telemetryMissing)
    return {
      kind: 'ok-with-warning',
      id: 'telemetry-missing',
      meaning: T.telemetryMissing,
      source: 'chtof/chocolatey-packages#6',
    };
  if (c === WINDOWS_EXIT.rebootRequired)
    return { kind: 'ok-with-warning', id: 'reboot-required', meaning: T.rebootRequired, fix: T.rebootRequiredFix };
  return { kind: 'failed', id: 'unknown', meaning: T.failedWithCode(c) };
}

function linuxOutcome(code: number | undefined, signal: string | undefined, logTail: string): InstallerOutcome {
  if (code === 0) return { kind: 'ok', id: 'ok', meaning: T.finished };
  if (code === 139 || signal === 'SIGSEGV')
    return {
      kind: 'failed',
      id: 'segfault',
      meaning: T.segfault(LINUX_CUDA_INSTALLER_TMP_LOG),
      fix: T.segfaultFix(LINUX_CUDA_INSTALLER_TMP_LOG),
      source: 'easybuilders/easybuild-easyblocks#1835; conda-forge/cudatoolkit-dev-feedstock#44; Spack cuda/package.py',
    };
  if (/Failed to verify gcc version/i.test(logTail))
    return {
      kind: 'failed',
      id: 'unsupported-compiler',
      meaning: T.compiler,
      fix: T.compilerFix,
    };
  if (/No space left on device/i.test(logTail))
    return {
      kind: 'failed',
      id: 'no-space',
      meaning: T.noSpace,
      fix: T.noSpaceFix,
      source: 'compiler-explorer/infra#286',
    };
  if (code === 126 || code === 127) return { kind: 'failed', id: 'not-runnable', meaning: T.notRunnable(code), fix: T.notRunnableFix };
  if (code === undefined) return { kind: 'failed', id: 'killed', meaning: T.stoppedBy(signal) };
  return {
    kind: 'failed',
    id: 'installation-failed',
    meaning: T.installationFailed(code, /Installation failed/i.test(logTail)),
    fix: T.installationFailedFix,
    source: 'replicate/setup-cog#14',
  };
}

export function explainInstallerExit(os: OsName, exit: { code: number | undefined; signal?: string }, logTail = ''): InstallerOutcome {
  if (os === 'windows') return exit.code === undefined ? { kind: 'failed', id: 'killed', meaning: T.stopped } : windowsOutcome(exit.code);
  return linuxOutcome(exit.code, exit.signal, logTail);
}
