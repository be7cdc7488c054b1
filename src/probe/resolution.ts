// Where the loader looks for TensorFlow's libraries, in order, and which copy of a file wins — so a
// stale copy earlier on the path (shadowing) is as visible as a missing one.
import type { Host } from '../host.js';
import path from 'node:path';
import { CUDAWIZ_FILE_MARK, envGet, librarySearchVar, LINUX_LD_SO_CONF_DIR, pathFor, splitPathList, windowsSystem32 } from '../platform.js';
import { locateProgram, runProgram } from './commands.js';
import type { MachineFs } from './machine-fs.js';
import type { SearchDir, SearchPath, SearchVia, Toolkit } from './types.js';

/** The files worth listing: CUDA, cuDNN, the driver's library and the Windows runtime DLLs. */
const GPU_LIBRARY = /^(lib)?(cuda|cudart|cublas|cufft|curand|cusolver|cusparse|cupti|cudnn|nvcuda|msvcp140|zlibwapi)[^/\\]*\.(dll|so(\.\d+)*)$/i;

/** `ldconfig -p` lines: "\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudart.so.13". */
export function parseLdCache(text: string): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    // The path runs to the end of the line: a library folder may hold a space.
    const m = /^\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S.*?)\s*$/.exec(line);
    // "(libc6)" marks 32-bit entries; TensorFlow is 64-bit only.
    if (m && /x86-64/.test(m[2])) out.push({ name: m[1], path: m[3] });
  }
  return out;
}

/** The loader's cache as `ldconfig -p` prints it; none where there is no ldconfig (or it fails). */
export async function readLdCache(host: Host, mfs: MachineFs): Promise<{ name: string; path: string }[]> {
  const ldconfig = ['ldconfig', '/sbin/ldconfig', '/usr/sbin/ldconfig'].map((c) => locateProgram(host, mfs, c)).find(Boolean);
  if (!ldconfig) return [];
  const r = await runProgram(host, mfs, ldconfig, ['-p']);
  return r.exitCode === 0 ? parseLdCache(r.stdout) : [];
}

function listDir(mfs: MachineFs, join: (dir: string, name: string) => string, dir: string, via: SearchVia): SearchDir {
  const r = mfs.list(dir);
  // A link whose file is gone is no library: the loader's open fails there and it looks further.
  return r.names ? { dir, via, files: r.names.filter((n) => GPU_LIBRARY.test(n) && mfs.isFile(join(dir, n))) } : { dir, via, error: r.error };
}

/** `cache`: the ld cache already read in this probe (readLdCache), else it is read here. */
export async function probeSearchPath(host: Host, mfs: MachineFs, toolkits: Toolkit[], wheelLibDirs: string[] = [], condaLibDir?: string, cache?: { name: string; path: string }[]): Promise<SearchPath> {
  const p = pathFor(host.os);
  const dirs: SearchDir[] = [];
  const ldEntries: { name: string; dir: string }[] = [];
  const seen = new Set<string>();
  // The same directory under two names (lib64 → lib) is one place to the loader.
  const key = (d: string) => {
    const real = mfs.realpath(d);
    return host.os === 'windows' ? real.toLowerCase().replace(/[\\/]+$/, '') : real.replace(/\/+$/, '');
  };
  const add = (dir: string, via: SearchVia, files?: string[]) => {
    if (files) {
      dirs.push({ dir, via, files });
      return;
    }
    if (seen.has(key(dir))) return;
    seen.add(key(dir));
    dirs.push(listDir(mfs, p.join, dir, via));
  };
  if (host.os === 'windows') {
    // conda's Python adds Library\bin as a DLL directory (searched before System32), and activation puts it first on PATH.
    if (condaLibDir) add(condaLibDir, 'conda env');
    // LoadLibrary's order: the system directory before PATH.
    add(windowsSystem32(host.env), 'System32');
    for (const d of splitPathList(host.os, envGet(host.os, host.env, 'PATH'))) add(d, 'PATH');
  } else {
    for (const d of splitPathList(host.os, envGet(host.os, host.env, librarySearchVar(host.os)))) add(d, 'LD_LIBRARY_PATH');
    // conda's TensorFlow carries a run path to $CONDA_PREFIX/lib: after LD_LIBRARY_PATH, before the cache.
    if (condaLibDir) add(condaLibDir, 'conda env');
    // TensorFlow's own libraries carry a RUNPATH to the nvidia-* wheels: after LD_LIBRARY_PATH, before the cache.
    for (const d of wheelLibDirs) add(d, 'pip wheel');
    // The cache is per file, not per directory: each cached file is its own entry.
    const byDir = new Map<string, string[]>();
    cache ??= await readLdCache(host, mfs);
    ldEntries.push(...cache.filter((e) => GPU_LIBRARY.test(e.name)).map((e) => ({ name: e.name, dir: mfs.realpath(p.dirname(e.path)) })));
    for (const e of cache) {
      if (!GPU_LIBRARY.test(e.name)) continue;
      // Merged /usr: the cache says /lib/x86_64-linux-gnu for what apt put in /usr/lib/x86_64-linux-gnu — one folder, named as it really is.
      const d = mfs.realpath(p.dirname(e.path));
      byDir.set(d, [...(byDir.get(d) ?? []), e.name]);
    }
    for (const [d, files] of byDir) {
      if (seen.has(key(d))) continue;
      seen.add(key(d));
      add(d, 'ld cache', files);
    }
  }
  for (const t of toolkits) {
    if (t.readable) add(t.libraryDir, 'toolkit (not on the search path)');
  }
  return { os: host.os, dirs, ...(host.os === 'linux' ? { ldCache: ldEntries, cudawizConfs: cudawizConfs(mfs) } : {}) };
}

/** cudawiz's own /etc/ld.so.conf.d files and the folders each lists (comments and `include` lines skipped). */
function cudawizConfs(mfs: MachineFs): { file: string; dirs: string[] }[] {
  const dir = LINUX_LD_SO_CONF_DIR;
  return (mfs.list(dir).names ?? []).sort().flatMap((name) => {
    const file = path.posix.join(dir, name);
    const text = name.endsWith('.conf') ? mfs.readText(file) : undefined;
    if (!text?.startsWith(CUDAWIZ_FILE_MARK)) return [];
    const dirs = text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter((l) => l && !l.startsWith('include ')).map((d) => mfs.realpath(d.replace(/\/+$/, '')));
    return [{ file, dirs }];
  });
}

export interface Resolution {
  file: string;
  /** Every place that has the file, in the loader's order. */
  candidates: { dir: string; via: SearchVia }[];
  /** The copy the loader takes; undefined when it finds none. */
  winner?: { dir: string; via: SearchVia };
}

/** Pure: which copy of `file` the loader would take, given the search path facts. */
export function resolveLibrary(search: SearchPath, file: string): Resolution {
  const same = (a: string) => (search.os === 'windows' ? a.toLowerCase() === file.toLowerCase() : a === file);
  const found = search.dirs.filter((d) => d.files?.some(same)).map(({ dir, via }) => ({ dir, via }));
  // Within the ld cache the file's own entries decide, in the cache's order: its slots keep their place among the other sources.
  const rank = (dir: string) => search.ldCache?.findIndex((e) => same(e.name) && e.dir === dir) ?? -1;
  const cached = found.filter((c) => c.via === 'ld cache').sort((a, b) => rank(a.dir) - rank(b.dir));
  const candidates = found.map((c) => (c.via === 'ld cache' ? cached.shift()! : c));
  return { file, candidates, winner: candidates.find((c) => c.via !== 'toolkit (not on the search path)') };
}
