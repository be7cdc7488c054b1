// Every cuDNN copy: inside each toolkit and in any directory on the library search path, with its
// version from cudnn_version.h (8+) or cudnn.h (≤ 7), else from a library's full file name
// (libcudnn.so.8.0.4); a copy with neither gets only its major.
import { pathFor } from '../platform.js';
import type { MachineFs } from './machine-fs.js';
import type { CudnnCopy, SearchPath, Toolkit } from './types.js';
import { compareDotted } from '../version.js';

export function parseCudnnHeader(text: string): string | undefined {
  const get = (k: string) => new RegExp(`#define\\s+${k}\\s+(\\d+)`).exec(text)?.[1];
  const major = get('CUDNN_MAJOR');
  if (major === undefined) return undefined;
  return [major, get('CUDNN_MINOR') ?? '0', get('CUDNN_PATCHLEVEL') ?? '0'].join('.');
}

/** cudnn64_7.dll / libcudnn.so.8 / libcudnn.so.8.1.0 → 7 / 8. */
export function cudnnMajorFromFile(file: string): number | undefined {
  const m = /^cudnn64_(\d+)\.dll$/i.exec(file) ?? /^libcudnn\.so\.(\d+)/.exec(file);
  return m ? Number(m[1]) : undefined;
}

function readHeader(mfs: MachineFs, includeDirs: string[]): { version: string; header: string } | undefined {
  const p = pathFor(mfs.os);
  for (const dir of includeDirs) {
    for (const name of ['cudnn_version.h', 'cudnn.h']) {
      const header = p.join(dir, name);
      const text = mfs.readText(header);
      const version = text ? parseCudnnHeader(text) : undefined;
      if (version) return { version, header };
    }
  }
  return undefined;
}

/** libcudnn.so.8.0.4 → 8.0.4: the version a library's full file name carries (the newest, where several). */
export function cudnnVersionFromFileName(files: string[]): { version: string; file: string } | undefined {
  const named = files.flatMap((f) => {
    const m = /^libcudnn\.so\.(\d+\.\d+\.\d+)$/.exec(f);
    return m ? [{ version: m[1], file: f }] : [];
  });
  return named.sort((a, b) => compareDotted(b.version, a.version))[0];
}

/** The header's version, else the one in the library's file name (the file named as the source). */
function versionOf(mfs: MachineFs, includeDirs: string[], libDir: string, libs: string[]): { version: string; header: string } | undefined {
  const h = readHeader(mfs, includeDirs);
  if (h) return h;
  const named = cudnnVersionFromFileName(libs);
  return named && { version: named.version, header: pathFor(mfs.os).join(libDir, named.file) };
}

function mainLibraries(files: string[]): string[] {
  return files.filter((f) => cudnnMajorFromFile(f) !== undefined);
}

export function probeCudnn(mfs: MachineFs, toolkits: Toolkit[], search: SearchPath): CudnnCopy[] {
  const p = pathFor(mfs.os);
  const copies: CudnnCopy[] = [];
  const seen = new Set<string>();
  const norm = (d: string) => (mfs.os === 'windows' ? d.toLowerCase() : d).replace(/[\\/]+$/, '');
  for (const t of toolkits) {
    const libs = mainLibraries(t.components.cudnn ?? []);
    const h = t.readable ? versionOf(mfs, [p.join(t.path, 'include')], t.libraryDir, libs) : undefined;
    if (libs.length === 0 && !h) continue;
    seen.add(norm(t.libraryDir));
    const major = h ? Number(h.version.split('.')[0]) : cudnnMajorFromFile(libs[0]);
    copies.push({ path: t.path, version: h?.version, major, header: h?.header, libraries: libs, where: 'toolkit' });
  }
  for (const d of search.dirs) {
    const libs = mainLibraries(d.files ?? []);
    if (libs.length === 0 || seen.has(norm(d.dir))) continue;
    seen.add(norm(d.dir));
    // Headers sit beside lib: DIR/../include (a cuDNN folder), DIR/../../include (/usr/lib/x86_64-linux-gnu → /usr/include).
    const h = versionOf(mfs, [p.join(d.dir, '..', 'include'), p.join(d.dir, '..', '..', 'include')], d.dir, libs);
    const major = h ? Number(h.version.split('.')[0]) : cudnnMajorFromFile(libs[0]);
    copies.push({ path: d.dir, version: h?.version, major, header: h?.header, libraries: libs, where: 'search path' });
  }
  return copies;
}
