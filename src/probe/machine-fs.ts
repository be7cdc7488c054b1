// The machine's filesystem as the probes see it. Probes speak the machine's paths (C:\Program Files\…,
// /usr/local/…); `root` maps them into a directory on this host, so a fixture Windows or Linux machine
// is a plain temp dir (C:\X → ROOT/C/X, /usr/local → ROOT/usr/local). Without a root, paths are used as is.
import fs from 'node:fs';
import path from 'node:path';
import { pathFor, type OsName } from '../platform.js';

export interface MachineFs {
  os: OsName;
  root?: string;
  /** Where a machine path lives on this host. */
  hostPath(machinePath: string): string;
  /** The inverse, for paths found on the host (realpath results). */
  machinePath(hostPath: string): string;
  readText(p: string): string | undefined;
  readBytes(p: string, length: number): Buffer | undefined;
  /** Directory entries, or the error code that stopped us reading them. */
  list(p: string): { names?: string[]; error?: string };
  isDir(p: string): boolean;
  isFile(p: string): boolean;
  /** A regular file's size (links followed), or undefined where there is none. */
  fileSize(p: string): number | undefined;
  isExecutable(p: string): boolean;
  /** Symlinks resolved, as a machine path; the input when it cannot be resolved. */
  realpath(p: string): string;
  /** Why a path cannot be entered (ELOOP, EACCES …), or undefined when it can. */
  accessError(p: string): string | undefined;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export function machineFs(os: OsName, root?: string): MachineFs {
  const p = pathFor(os);
  const hostPath = (machinePath: string): string => {
    if (!root) return machinePath;
    if (os === 'windows') {
      const norm = p.normalize(machinePath);
      const drive = /^([a-zA-Z]):[\\/]?/.exec(norm);
      const rest = drive ? norm.slice(drive[0].length) : norm.replace(/^[\\/]+/, '');
      return path.join(root, drive ? drive[1].toUpperCase() : 'C', ...rest.split(/[\\/]+/).filter(Boolean));
    }
    return path.join(root, p.normalize(machinePath));
  };
  const machinePath = (h: string): string => {
    if (!root) return h;
    const rel = path.relative(root, h);
    if (rel.startsWith('..')) return h;
    const parts = rel.split(path.sep).filter(Boolean);
    if (os === 'windows') return parts.length ? `${parts[0]}:\\${parts.slice(1).join('\\')}` : 'C:\\';
    return `/${parts.join('/')}`;
  };
  const stat = (m: string) => {
    try {
      return fs.statSync(hostPath(m));
    } catch {
      return undefined;
    }
  };
  return {
    os,
    root,
    hostPath,
    machinePath,
    readText(m) {
      try {
        return fs.readFileSync(hostPath(m), 'utf8');
      } catch {
        return undefined;
      }
    },
    readBytes(m, length) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(hostPath(m), 'r');
        const buf = Buffer.alloc(length);
        const n = fs.readSync(fd, buf, 0, length, 0);
        return buf.subarray(0, n);
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    },
    list(m) {
      try {
        return { names: fs.readdirSync(hostPath(m)).sort() };
      } catch (error) {
        return { error: errorCode(error) };
      }
    },
    isDir: (m) => stat(m)?.isDirectory() ?? false,
    isFile: (m) => stat(m)?.isFile() ?? false,
    fileSize: (m) => {
      const s = stat(m);
      return s?.isFile() ? s.size : undefined;
    },
    isExecutable(m) {
      if (!stat(m)?.isFile()) return false;
      try {
        fs.accessSync(hostPath(m), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    realpath(m) {
      try {
        return machinePath(fs.realpathSync(hostPath(m)));
      } catch {
        return m;
      }
    },
    accessError(m) {
      try {
        fs.readdirSync(hostPath(m));
        return undefined;
      } catch (error) {
        return errorCode(error);
      }
    },
  };
}
