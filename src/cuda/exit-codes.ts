// What a CUDA installer's exit means, from its code, the signal that ended it and the tail of its
// log. Each meaning carries the public report it was learnt from.
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
  if (c === 0) return { kind: 'ok', id: 'ok', meaning: 'The installer finished.' };
  if (c === WINDOWS_EXIT.wrongComponents)
    return {
      kind: 'failed',
      id: 'wrong-components',
      meaning: `The installer rejected a component name (exit ${c} = 0x${c.toString(16).toUpperCase()}): the component list does not match this installer's version.`,
      fix: "The catalog's Windows component list for this CUDA version is wrong; report it, or give a corrected list in a --catalog overlay.",
      source: 'Jimver/cuda-toolkit#388; eullm/eullm#131',
    };
  if (c === WINDOWS_EXIT.telemetryMissing)
    return {
      kind: 'ok-with-warning',
      id: 'telemetry-missing',
      meaning: 'The installer could not reach NVIDIA telemetry (exit 0x80070424) but installs the toolkit regardless.',
      source: 'chtof/chocolatey-packages#6',
    };
  if (c === WINDOWS_EXIT.rebootRequired)
    return { kind: 'ok-with-warning', id: 'reboot-required', meaning: 'The installer finished and asks for a reboot (exit 3010).', fix: 'Restart Windows when convenient.' };
  return { kind: 'failed', id: 'unknown', meaning: `The installer failed with exit code ${c} (0x${c.toString(16).toUpperCase()}).` };
}

function linuxOutcome(code: number | undefined, signal: string | undefined, logTail: string): InstallerOutcome {
  if (code === 0) return { kind: 'ok', id: 'ok', meaning: 'The installer finished.' };
  if (code === 139 || signal === 'SIGSEGV')
    return {
      kind: 'failed',
      id: 'segfault',
      meaning: `The installer crashed (segmentation fault). CUDA 10.1+ runfiles do this when ${LINUX_CUDA_INSTALLER_TMP_LOG} is left over from an earlier run, typically owned by another user.`,
      fix: `Remove ${LINUX_CUDA_INSTALLER_TMP_LOG} (sudo rm ${LINUX_CUDA_INSTALLER_TMP_LOG}) and run again.`,
      source: 'easybuilders/easybuild-easyblocks#1835; conda-forge/cudatoolkit-dev-feedstock#44; Spack cuda/package.py',
    };
  if (/Failed to verify gcc version/i.test(logTail))
    return {
      kind: 'failed',
      id: 'unsupported-compiler',
      meaning: 'The installer refused this machine\'s gcc as unsupported by this CUDA version (TensorFlow does not compile with it, so the check does not matter here).',
      fix: 'Run again with --override-compiler-check (passes the runfile\'s --override), or install a supported gcc.',
    };
  if (/No space left on device/i.test(logTail))
    return {
      kind: 'failed',
      id: 'no-space',
      meaning: 'The disk filled up while the installer unpacked or copied files.',
      fix: 'Free space on the target disk (the installer unpacks into the cache: --cache-dir on a disk with several GB free moves it), and run again.',
      source: 'compiler-explorer/infra#286',
    };
  if (code === 126 || code === 127) return { kind: 'failed', id: 'not-runnable', meaning: `The installer could not be started (exit ${code}).`, fix: 'Check that the file is the complete runfile and that `sh` exists.' };
  if (code === undefined) return { kind: 'failed', id: 'killed', meaning: `The installer was stopped by ${signal ?? 'a signal'}.` };
  return {
    kind: 'failed',
    id: 'installation-failed',
    meaning: `The installer failed with exit code ${code}${/Installation failed/i.test(logTail) ? ' ("Installation failed")' : ''}; its log says why (below).`,
    fix: 'Read the installer log shown below (its tail is printed with this error); fix what it names, then run again.',
    source: 'replicate/setup-cog#14',
  };
}

export function explainInstallerExit(os: OsName, exit: { code: number | undefined; signal?: string }, logTail = ''): InstallerOutcome {
  if (os === 'windows') return exit.code === undefined ? { kind: 'failed', id: 'killed', meaning: 'The installer was stopped.' } : windowsOutcome(exit.code);
  return linuxOutcome(exit.code, exit.signal, logTail);
}
