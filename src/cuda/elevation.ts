// May this process install a toolkit into that directory? Asked before anything changes, through
// the host's command runner, so a test can run the same probes as an unprivileged user.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Host } from '../host.js';
import { CudawizError, EXIT } from '../errors.js';
import { cudaText } from '../i18n/cuda.js';
import { fetchText } from '../i18n/fetch.js';
import { elevationHint, elevationProbe, pathFor, writableProbe, type OsName } from '../platform.js';

export interface InstallPermission {
  ok: boolean;
  /** The directory the toolkit will go into. */
  target: string;
  /** The directory actually probed: the target or its nearest existing parent. */
  probed: string;
  /** Root (Linux) / an elevated token (Windows); undefined when the probe could not run. */
  elevated: boolean | undefined;
  writable: boolean;
  reason?: string;
}

/** The first existing entry on the way up from `dir` when it is not a folder (a file where a folder belongs). */
export async function fileInTheWay(os: OsName, dir: string): Promise<string | undefined> {
  const p = pathFor(os);
  for (let current = dir; ; current = p.dirname(current)) {
    const s = await stat(current).catch(() => undefined);
    if (s) return s.isDirectory() ? undefined : current;
    if (p.dirname(current) === current) return undefined;
  }
}

/** The target itself, or the closest parent that exists (the installer creates the rest). */
export async function nearestExistingDir(os: OsName, dir: string): Promise<string> {
  const p = pathFor(os);
  let current = dir;
  for (;;) {
    try {
      if ((await stat(current)).isDirectory()) return current;
    } catch {
      // missing: try the parent
    }
    const parent = p.dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

/** Root (Linux) / an elevated token (Windows), asked through the host (`id -u`, `net session`); undefined when the probe could not run. */
export async function isElevated(host: Host): Promise<boolean | undefined> {
  const probe = elevationProbe(host.os);
  const r = await host.run(probe.file, probe.args, { timeoutMs: 10_000 });
  if (r.exitCode === null) return undefined;
  return host.os === 'windows' ? r.exitCode === 0 : r.exitCode === 0 && r.stdout.trim() === '0';
}

async function isWritable(host: Host, dir: string, elevated: boolean | undefined): Promise<boolean> {
  const probe = writableProbe(host.os, dir);
  // Windows: the installer writes Program Files and the registry, so elevation is what decides.
  if (!probe) return elevated === true;
  const r = await host.run(probe.file, probe.args, { timeoutMs: 10_000 });
  if (r.exitCode !== null) return r.exitCode === 0;
  // `test` could not start: ask the kernel from here instead.
  return access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
}

export async function checkInstallPermission(host: Host, targetDir: string): Promise<InstallPermission> {
  const probed = await nearestExistingDir(host.os, targetDir);
  const elevated = await isElevated(host);
  const writable = await isWritable(host, probed, elevated);
  const ok = writable;
  let reason: string | undefined;
  if (!ok) {
    reason =
      host.os === 'windows'
        ? cudaText.needsAdmin
        : elevated
          ? cudaText.notWritableForRoot(probed)
          : cudaText.notWritableForUser(probed);
  }
  return { ok, target: targetDir, probed, elevated, writable, reason };
}

/** Throws, before anything is changed, with the exact way to re-run. `command` is what the user typed. */
export async function requireInstallPermission(host: Host, targetDir: string, command: string): Promise<InstallPermission> {
  // A file where a folder of the path should be: no permission makes that writable.
  const blocking = await fileInTheWay(host.os, targetDir);
  if (blocking) throw new CudawizError(fetchText.fs.notDir(blocking), { code: 'fs-enotdir', fix: fetchText.fs.notDirFix, details: { path: blocking } });
  const permission = await checkInstallPermission(host, targetDir);
  if (permission.ok) return permission;
  const readOnlyForRoot = host.os === 'linux' && permission.elevated === true;
  throw new CudawizError(cudaText.cannotInstallInto(targetDir, permission.reason), {
    code: 'needs-elevation',
    exitCode: EXIT.needsUser,
    fix: readOnlyForRoot ? cudaText.pickWritable(command) : elevationHint(host.os, command),
    details: { ...permission },
  });
}
