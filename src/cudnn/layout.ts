// What a cuDNN archive looks like inside, per era (shared/reference/domain.md §5e–5f), as pure
// functions over its entry list and header text: which files go to bin, include and lib.
import path from 'node:path';
import type { OsName } from '../platform.js';
import type { ArchiveEntry } from './archive-reader.js';

/**
 * `cuda-folder`: ≤ 8.2, `cuda/bin|include|lib/x64` (Windows) or `cuda/include|lib64` (Linux).
 * `archive-folder`: ≥ 8.3, `<archive-name>/bin|include|lib[/x64]` (Linux `lib/`).
 * `archive-bin-x64`: recent 9.x Windows, DLLs under `bin/x64/`.
 */
export type LayoutEra = 'cuda-folder' | 'archive-folder' | 'archive-bin-x64';
export type ToolkitPart = 'bin' | 'include' | 'lib';

/** A member of the archive and where it goes, relative to the toolkit part. */
export interface PlannedMember {
  source: string;
  part: ToolkitPart;
  /** Below the part's folder, `/`-separated (usually just the file name). */
  rel: string;
  type: 'file' | 'symlink';
  size: number;
  linkTarget?: string;
}

export interface Layout {
  era: LayoutEra;
  /** The single top folder (`cuda` or the archive's own name). */
  root: string;
  members: PlannedMember[];
}

/** Inside each era, the archive folder that feeds each toolkit part, most specific first. */
const SOURCE_DIRS: { prefix: string; part: ToolkitPart }[] = [
  { prefix: 'bin/x64/', part: 'bin' },
  { prefix: 'bin/', part: 'bin' },
  { prefix: 'include/x64/', part: 'include' },
  { prefix: 'include/', part: 'include' },
  { prefix: 'lib/x64/', part: 'lib' },
  { prefix: 'lib64/', part: 'lib' },
  { prefix: 'lib/', part: 'lib' },
];

/** Whether an entry sits where some era's member would (`<top>/bin/…`, `<top>/lib64/…`): what a one-pass import stages. */
export function mayBeMember(entry: ArchiveEntry): boolean {
  if (entry.type !== 'file' && entry.type !== 'symlink') return false;
  const inner = entry.name.slice(entry.name.indexOf('/') + 1);
  return entry.name.includes('/') && SOURCE_DIRS.some((d) => inner.startsWith(d.prefix));
}

/** Recognise the era; undefined when the archive does not have one top folder with cuDNN's parts. */
export function recogniseLayout(entries: readonly ArchiveEntry[]): Layout | undefined {
  const tops = new Set(entries.map((e) => e.name.split('/')[0]));
  if (tops.size !== 1) return undefined;
  const root = [...tops][0];
  const members: PlannedMember[] = [];
  let binX64 = false;
  for (const e of entries) {
    if (e.type !== 'file' && e.type !== 'symlink') continue;
    const inner = e.name.slice(root.length + 1);
    const src = SOURCE_DIRS.find((d) => inner.startsWith(d.prefix));
    if (!src) continue; // LICENSE, NVIDIA_SLA_cuDNN_Support.txt …: not copied
    if (src.prefix === 'bin/x64/') binX64 = true;
    members.push({ source: e.name, part: src.part, rel: inner.slice(src.prefix.length), type: e.type, size: e.size, linkTarget: e.linkTarget });
  }
  if (members.length === 0) return undefined;
  const era: LayoutEra = root === 'cuda' ? 'cuda-folder' : binX64 ? 'archive-bin-x64' : 'archive-folder';
  return { era, root, members };
}

/** The OS an archive is for, from what its libraries are: DLLs → Windows, shared objects → Linux. */
export function archiveOs(members: readonly PlannedMember[]): OsName | undefined {
  const names = members.map((m) => path.posix.basename(m.rel).toLowerCase());
  const dll = names.some((n) => n.endsWith('.dll'));
  const so = names.some((n) => /\.so(\.\d+)*$/.test(n));
  if (dll && !so) return 'windows';
  if (so && !dll) return 'linux';
  return undefined;
}

export function isCudnnArchive(members: readonly PlannedMember[]): boolean {
  const names = members.map((m) => path.posix.basename(m.rel).toLowerCase());
  const header = names.some((n) => n === 'cudnn.h' || n === 'cudnn_version.h');
  const library = names.some((n) => /^(lib)?cudnn.*\.(dll|lib|so(\.\d+)*)$/.test(n));
  return header && library;
}

/** Which header holds the version: `cudnn_version.h` from 8.0, `cudnn.h` before. */
export function versionHeader(members: readonly PlannedMember[]): PlannedMember | undefined {
  const headers = members.filter((m) => m.part === 'include' && m.type === 'file');
  return headers.find((m) => path.posix.basename(m.rel) === 'cudnn_version.h') ?? headers.find((m) => path.posix.basename(m.rel) === 'cudnn.h');
}

/** `#define CUDNN_MAJOR 7` / `CUDNN_MINOR 6` / `CUDNN_PATCHLEVEL 5` → "7.6.5". */
export function parseCudnnVersionHeader(text: string): string | undefined {
  const get = (name: string) => new RegExp(`^\\s*#\\s*define\\s+${name}\\s+(\\d+)`, 'm').exec(text)?.[1];
  const [maj, min, patch] = [get('CUDNN_MAJOR'), get('CUDNN_MINOR'), get('CUDNN_PATCHLEVEL')];
  if (maj === undefined || min === undefined) return undefined;
  return `${maj}.${min}.${patch ?? '0'}`;
}

export interface NameFacts {
  os?: OsName;
  /** "10.1", "11.5", or only the major ("12") from 8.5 on. */
  cuda?: string;
  /** As the name writes it: "7.6.5.32". */
  version?: string;
}

/**
 * What NVIDIA's file (or top-folder) names say: `cudnn-10.1-windows10-x64-v7.6.5.32.zip`,
 * `cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz`.
 */
export function factsFromName(name: string): NameFacts {
  const base = name.replace(/\.(zip|tgz|tar\.gz|tar\.xz|txz)$/i, '');
  const old = /^cudnn-(\d+\.\d+)-(windows\d*|linux)-x64-v(\d+(?:\.\d+)*)/i.exec(base);
  if (old) return { cuda: old[1], os: old[2].toLowerCase().startsWith('win') ? 'windows' : 'linux', version: old[3] };
  const arch = /^cudnn-(windows|linux)-x86_64-(\d+(?:\.\d+)*)_cuda(\d+(?:\.\d+)?)-archive/i.exec(base);
  if (arch) return { os: arch[1].toLowerCase() === 'windows' ? 'windows' : 'linux', version: arch[2], cuda: arch[3] };
  return {};
}
