// Every filesystem failure the user can meet, turned into what happened and how to fix it — the one
// mapping, used by the CLI's last catch and the plan runner, so "unexpected error" is left for bugs.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { CudawizError } from './errors.js';
import { fetchText } from './i18n/fetch.js';

export interface FsErrorContext {
  /** The path we were working on, when the error does not carry one. */
  path?: string;
}

const KNOWN = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOENT', 'ELOOP', 'ENAMETOOLONG', 'EMFILE', 'ENFILE', 'EBUSY', 'EXDEV', 'EIO', 'ETXTBSY', 'ENOTEMPTY']);

export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined;
  return typeof e?.code === 'string' && KNOWN.has(e.code) && (typeof e.syscall === 'string' || typeof e.path === 'string');
}

export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The user's message for a filesystem error; a CudawizError passes through, anything else is returned as it is. */
export function describeFsError(error: unknown, context: FsErrorContext = {}): unknown {
  if (error instanceof CudawizError || !isFsError(error)) return error;
  const t = fetchText.fs;
  // copyfile/rename/link carry both names: a full or read-only disk is the destination's, never the source's.
  const dest = (error as NodeJS.ErrnoException & { dest?: string }).dest;
  const where = (dest && ['ENOSPC', 'EDQUOT', 'EROFS'].includes(error.code ?? '') ? dest : undefined) ?? error.path ?? context.path ?? t.someFile;
  const code = error.code === 'ENOENT' && error.syscall === 'mkdir' && error.path ? (blockedAncestor(error.path) ?? 'ENOENT') : error.code!;
  const [message, fix] = (() => {
    switch (code) {
      case 'ENOSPC':
      case 'EDQUOT':
        return [t.diskFull(where), t.diskFullFix];
      case 'EROFS':
        return [t.readOnly(where), t.readOnlyFix];
      case 'EACCES':
      case 'EPERM':
        return [t.denied(where), t.deniedFix(where)];
      case 'ENOTDIR':
        return [t.notDir(where), t.notDirFix];
      case 'EEXIST':
        return [t.exists(where), t.existsFix];
      case 'EISDIR':
        return [t.isDir(where), t.isDirFix];
      case 'ENOENT':
        return [t.missing(where), t.missingFix];
      case 'ELOOP':
        return [t.loop(where), t.loopFix];
      case 'ENAMETOOLONG':
        return [t.tooLong(where), t.tooLongFix];
      case 'EMFILE':
      case 'ENFILE':
        return [t.tooManyOpen, t.tooManyOpenFix];
      case 'EBUSY':
      case 'ETXTBSY':
        return [t.busy(where), t.busyFix];
      case 'ENOTEMPTY':
        return [t.notEmpty(where), t.notEmptyFix];
      default:
        // EXDEV, EIO
        return [t.ioError(where, code), t.ioErrorFix];
    }
  })();
  return new CudawizError(message, { code: `fs-${code.toLowerCase()}`, fix, details: { path: where, errno: code, syscall: error.syscall } });
}

/**
 * A recursive mkdir on a read-only (or unwritable) filesystem reports ENOENT for the missing folder:
 * ask the nearest folder that exists what is really in the way.
 */
function blockedAncestor(missing: string): string | undefined {
  for (let dir = path.dirname(missing); ; dir = path.dirname(dir)) {
    try {
      if (!statSync(dir).isDirectory()) return 'ENOTDIR';
      accessSync(dir, constants.W_OK);
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' ? code : undefined;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
