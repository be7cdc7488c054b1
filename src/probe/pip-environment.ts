// The probed Python's pip-installed CUDA (tensorflow[and-cuda]): the wheels, which copy of each of
// their libraries TF will load, and whether their folders must go on the loader path. Paths are the
// machine's (a fixture machine's host paths are mapped back), like every other fact.
import type { Host } from '../host.js';
import { planWheelLibraryFix, probePipCuda, whichLibraryTfLoads, type PipCudaFacts, type WheelLibraryFix } from '../wheels/index.js';
import { envGet, librarySearchVar, splitPathList } from '../platform.js';
import type { MachineFs } from './machine-fs.js';
import type { PipEnvironment, PythonFacts, SearchPath } from './types.js';

function toMachine(mfs: MachineFs, facts: PipCudaFacts, fix: WheelLibraryFix): Pick<PipEnvironment, 'venv' | 'prefix' | 'sitePackages' | 'packages' | 'libDirs' | 'loaderPath' | 'fix'> {
  const m = (p: string) => mfs.machinePath(p);
  const mo = (p: string | undefined) => (p === undefined ? undefined : m(p));
  return {
    venv: mo(facts.venv),
    prefix: mo(facts.prefix),
    sitePackages: facts.sitePackages.map(m),
    packages: facts.packages.map((p) => ({ ...p, libDir: mo(p.libDir) })),
    libDirs: facts.libDirs.map(m),
    loaderPath: { current: facts.loaderPath.current, whenActivated: facts.loaderPath.whenActivated?.map(m) },
    fix: { ...fix, venv: mo(fix.venv), activateScript: mo(fix.activateScript), dirs: fix.dirs.map(m), missingDirs: fix.missingDirs.map(m) },
  };
}

export async function probePipEnvironment(host: Host, mfs: MachineFs, python: PythonFacts, search: SearchPath): Promise<PipEnvironment | undefined> {
  if (host.os !== 'linux' || python.state !== 'found' || !python.command || !python.nvidiaLibDirs?.length) return undefined;
  const facts = await probePipCuda(host, mfs.hostPath(python.command));
  if (!facts.ran || facts.packages.length === 0) return undefined;
  // The loader as TF's process sees it: the activated venv's LD_LIBRARY_PATH, then the system's cache.
  const current = splitPathList('linux', envGet('linux', host.env, librarySearchVar('linux'))).map((d) => mfs.hostPath(d));
  const view = {
    ldLibraryPath: facts.loaderPath.whenActivated ?? current,
    systemDirs: search.dirs.filter((d) => d.via === 'ld cache').map((d) => mfs.hostPath(d.dir)),
  };
  const files = [...new Set(facts.packages.flatMap((p) => p.libraries))];
  const loads = files.map((file) => {
    const source = whichLibraryTfLoads(facts, file, view);
    return source.dir ? { ...source, dir: mfs.machinePath(source.dir) } : source;
  });
  const fix = planWheelLibraryFix(facts);
  return { ...facts, python: python.command, ...toMachine(mfs, facts, fix), loads };
}
