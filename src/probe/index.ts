// probeMachine: every fact the doctor and the plan need, collected without throwing.
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import { defaultCudaRoot, pathFor } from '../platform.js';
import { probeConda } from './conda.js';
import { probeCudnn } from './cudnn.js';
import { probeGpu } from './gpu.js';
import { machineFs } from './machine-fs.js';
import { probePipEnvironment } from './pip-environment.js';
import { probePython } from './python.js';
import { probeSearchPath, readLdCache } from './resolution.js';
import { probeToolkits } from './toolkits.js';
import type { MachineFacts, PythonFacts } from './types.js';
import { probeWindowsExtras } from './windows-extras.js';
import { probeWsl } from './wsl.js';

export interface ProbeOptions {
  /** Where toolkits live (default: the OS's standard place). */
  cudaRoot?: string;
  /** The interpreter to inspect (default: python3/python on PATH). */
  python?: string;
  /** A host directory standing in for the machine's filesystem root (fixtures). */
  fsRoot?: string;
  /** For compute capability from the GPU's name when nvidia-smi cannot say. */
  catalog?: Catalog;
  /** This interpreter's facts from earlier in the run (ProbeCache): it is not run again. */
  knownPython?: PythonFacts;
}

export async function probeMachine(host: Host, options: ProbeOptions = {}): Promise<MachineFacts> {
  const mfs = machineFs(host.os, options.fsRoot ?? host.fsRoot);
  const cudaRoot = options.cudaRoot ?? defaultCudaRoot(host.os, host.env);
  // Read once: the toolkits' probe finds a distro's CUDA in a folder it lists, the search path is it.
  const ldCache = host.os === 'linux' ? readLdCache(host, mfs) : Promise.resolve(undefined);
  const [gpu, { toolkits, nvccOnPath }, python, wsl] = await Promise.all([
    probeGpu(host, mfs, options.catalog),
    ldCache.then((cache) => probeToolkits(host, mfs, cudaRoot, [...new Set((cache ?? []).map((e) => mfs.realpath(pathFor('linux').dirname(e.path))))])),
    options.knownPython ?? probePython(host, mfs, options.python),
    host.os === 'linux' ? probeWsl(host, { fsRoot: options.fsRoot ?? host.fsRoot }) : undefined,
  ]);
  const conda = probeConda(host, mfs);
  const search = await probeSearchPath(host, mfs, toolkits, host.os === 'linux' ? python.nvidiaLibDirs : [], conda?.libDir, await ldCache);
  const pip = await probePipEnvironment(host, mfs, python, search);
  const cudnn = probeCudnn(mfs, toolkits, search);
  // conda-meta names the exact cuDNN even where the env's folder has no version header.
  const condaCopy = conda?.cudnn ? cudnn.find((c) => c.path === conda.libDir && !c.version) : undefined;
  if (condaCopy && conda?.cudnn) Object.assign(condaCopy, { version: conda.cudnn.version, header: `conda-meta (${conda.cudnn.package} ${conda.cudnn.version})` });
  return {
    os: host.os,
    cudaRoot,
    gpu,
    toolkits,
    nvccOnPath,
    cudnn,
    python,
    search,
    ...(host.os === 'windows' ? { windows: probeWindowsExtras(mfs, search) } : {}),
    ...(wsl ? { wsl } : {}),
    ...(pip ? { pip } : {}),
    ...(conda ? { conda } : {}),
  };
}

export { resolveLibrary, type Resolution } from './resolution.js';
export type * from './types.js';
