// Every cuDNN copy: inside each toolkit and in any directory on the library search path, with its
// version from cudnn_version.h (8+) or cudnn.h (≤ 7); a copy without a header gets only its major.
import { pathFor } from '../platform.js';
import type { MachineFs } from './machine-fs.js';
import type { CudnnCopy, SearchPath, Toolkit } from './types.js';

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
    const h = t.readable ? readHeader(mfs, [p.join(t.path, 'include')]) : undefined;
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
    const h = readHeader(mfs, [p.join(d.dir, '..', 'include'), p.join(d.dir, '..', '..', 'include')]);
    const major = h ? Number(h.version.split('.')[0]) : cudnnMajorFromFile(libs[0]);
    copies.push({ path: d.dir, version: h?.version, major, header: h?.header, libraries: libs, where: 'search path' });
  }
  return copies;
}
