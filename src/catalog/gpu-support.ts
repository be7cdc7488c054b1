// Will this GPU run that TensorFlow? From the catalog alone: the machine code (SASS) and PTX each TF
// line's wheels carry, the oldest GPU each CUDA line supports, and the newest it compiles for.
import { catalogText } from '../i18n/catalog.js';
import { gpuText } from '../i18n/gpu.js';
import type { OsName } from '../platform.js';
import { compareDotted, majorMinor, parseDotted } from '../version.js';
import { cudaFamily, findTfRow } from './queries.js';
import type { Catalog, GpuCatalog } from './schema.js';
import { stepsText } from '../i18n/steps.js';

export type GpuVerdict = 'native' | 'ptx-jit' | 'unsupported' | 'unknown';

export interface GpuSupport {
  verdict: GpuVerdict;
  reason: string;
  /** The newest TF line whose wheels carry machine code for this GPU, when this one is not native. */
  suggestion?: string;
  /** false when the architecture list of this TF line is inferred rather than read from its build. */
  verified: boolean;
}

type TfBuild = NonNullable<GpuCatalog['tensorflowBuilds']>[number];

const inRange = (v: string, from: string, to: string) => compareDotted(v, from) >= 0 && compareDotted(v, to) <= 0;
const ccMajor = (cc: string) => (parseDotted(cc) ?? [0])[0];

/**
 * A product name reduced to what identifies it: "NVIDIA GeForce RTX 3060 Laptop GPU" → "rtx 3060",
 * "Tesla V100-SXM2-16GB" → "v100", "NVIDIA RTX 4000 SFF Ada Generation" → "rtx 4000 ada", "RTX 4090D" → "rtx 4090 d". Brand words,
 * laptop/Max-Q wording, memory sizes and form factors never change a GPU's compute capability.
 */
export function normalizeGpuName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\((tm|r)\)/g, ' ')
    .replace(/[-_,]/g, ' ')
    .replace(/\((mobile)\)/g, ' ')
    .replace(/\b(nvidia|geforce|quadro|tesla)\b/g, ' ')
    .replace(/\b(laptop gpu|with max q design|max q design|max q|mobile|generation|workstation edition|server edition)\b/g, ' ')
    .replace(/\b\d+\s?gb\b/g, ' ')
    .replace(/\b(pcie|sxm\d*|hbm\d*e?|nvl|sff)\b/g, ' ')
    .replace(/\bac\s*$/, ' ')
    // A variant letter glued to a 3–4 digit model number is its own word: "4090D" → "4090 d", "A4000H" → "a4000 h", "2000E" → "2000 e".
    .replace(/\b([a-z]*\d{3,4})([a-z])\b/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim();
}

const nameIndexes = new WeakMap<object, Map<string, { computeCapability: string; architecture: string }>>();
function nameIndex(catalog: Catalog) {
  let index = nameIndexes.get(catalog.gpus.computeCapabilityByName);
  if (!index) {
    index = new Map();
    for (const row of catalog.gpus.computeCapabilityByName) {
      for (const n of row.names) index.set(normalizeGpuName(n), { computeCapability: row.computeCapability, architecture: row.architecture });
    }
    nameIndexes.set(catalog.gpus.computeCapabilityByName, index);
  }
  return index;
}

/** Which compute capability a GPU name means ("NVIDIA GeForce RTX 2060" → 7.5): the whole product name, or nothing. */
export function computeCapabilityFromName(catalog: Catalog, name: string): { computeCapability: string; architecture: string } | undefined {
  return nameIndex(catalog).get(normalizeGpuName(name));
}

export interface NamedGpuFacts {
  computeCapability: string;
  architecture: string;
  /** name: the table holds this product; family: it does not, and its family's capability is taken. */
  basis: 'name' | 'family';
  /** The family the capability rests on ("GeForce RTX 40 series"), when basis is family. */
  family?: string;
}

/**
 * A GPU name's compute capability and architecture: the product itself when the table holds it, else its
 * family's (GeForce RTX 40 series, RTX A workstation, data-centre H…), said as such; undefined for a name in
 * no family (an AMD card, a GeForce MX whose members differ).
 */
export function gpuFromName(catalog: Catalog, name: string): NamedGpuFacts | undefined {
  const exact = computeCapabilityFromName(catalog, name);
  if (exact) return { ...exact, basis: 'name' };
  const key = normalizeGpuName(name);
  const family = catalog.gpus.gpuFamilies?.find((f) => new RegExp(f.pattern).test(key));
  return family ? { computeCapability: family.computeCapability, architecture: family.architecture, basis: 'family', family: family.family } : undefined;
}

export function tensorflowBuildFor(catalog: Catalog, tf: string): TfBuild | undefined {
  const mm = majorMinor(tf);
  return catalog.gpus.tensorflowBuilds?.find((b) => inRange(mm, b.from, b.to));
}

/** The newest compute capability CUDA `cuda` builds machine code for (10.1 → 7.5), when known. */
export function cudaMaxComputeCapability(catalog: Catalog, cuda: string): string | undefined {
  const mm = majorMinor(cuda);
  return catalog.gpus.cudaSass?.find((r) => inRange(mm, r.from, r.to))?.maxComputeCapability;
}

/** A cubin runs on the same major with an equal or higher minor (NVIDIA's compatibility guides). */
function sassFor(build: TfBuild, cc: string): string | undefined {
  return build.sass.filter((s) => ccMajor(s) === ccMajor(cc) && compareDotted(s, cc) <= 0).sort(compareDotted).pop();
}

/** PTX of an architecture at or below the GPU's is JIT-compiled by the driver. */
function ptxFor(build: TfBuild, cc: string): string | undefined {
  return build.ptx.filter((p) => compareDotted(p, cc) <= 0).sort(compareDotted).pop();
}

/**
 * The newest TF line with machine code for this GPU whose CUDA still supports it (a K80 has sm_35 code
 * in TF 2.15's wheels, but TF 2.15's CUDA 12.2 dropped Kepler); on native Windows, the Windows table's lines.
 */
export function newestNativeTf(catalog: Catalog, cc: string, os?: OsName): { tf: string; verified: boolean } | undefined {
  const last = os === 'windows' ? catalog.tensorflow.windowsNativeGpuLast : undefined;
  const lines = [...new Set(catalog.tensorflow[os ?? 'linux'].map((r) => majorMinor(r.version)))].sort((a, b) => compareDotted(b, a));
  for (const line of lines) {
    if (last && compareDotted(line, last) > 0) continue;
    const b = tensorflowBuildFor(catalog, line);
    if (!b || !sassFor(b, cc)) continue;
    const cuda = tfCuda(catalog, line, os);
    const min = cuda ? cudaFamily(catalog, cuda)?.computeCapabilityMin : undefined;
    if (min && compareDotted(cc, min) < 0) continue;
    return { tf: line, verified: b.verified };
  }
  return undefined;
}

function tfCuda(catalog: Catalog, tf: string, os?: OsName): string | undefined {
  for (const o of os ? [os] : (['linux', 'windows'] as const)) {
    const row = findTfRow(catalog, tf, o)?.row;
    if (row) return row.cuda;
  }
  return undefined;
}

export function gpuSupport(
  catalog: Catalog,
  gpu: { computeCapability: string; basis?: NamedGpuFacts['basis']; family?: string },
  target: { tf: string; cuda?: string; os?: OsName },
): GpuSupport {
  const support = supportFor(catalog, gpu, target);
  // A capability taken from the product's family is said to be one, in the verdict itself.
  return gpu.basis === 'family' && gpu.family ? { ...support, reason: catalogText.gpuFamilyBasis(support.reason, gpu.family, gpu.computeCapability) } : support;
}

function supportFor(catalog: Catalog, gpu: { computeCapability: string }, target: { tf: string; cuda?: string; os?: OsName }): GpuSupport {
  const cc = gpu.computeCapability;
  if (!/^\d+\.\d+$/.test(cc)) return { verdict: 'unknown', reason: gpuText.notACc(cc), verified: false };
  const tf = majorMinor(target.tf);
  const cuda = target.cuda ?? tfCuda(catalog, target.tf, target.os);
  const native = newestNativeTf(catalog, cc, target.os);
  const suggest = (verdict: GpuVerdict) =>
    verdict === 'native' || !native || native.tf === tf
      ? {}
      : { suggestion: gpuText.nativeSuggestion(native.tf, cc, native.verified ? '' : gpuText.inferredSuffix) };

  const min = cuda ? cudaFamily(catalog, cuda)?.computeCapabilityMin : undefined;
  if (min && compareDotted(cc, min) < 0) {
    return { verdict: 'unsupported', reason: gpuText.cudaTooNew(cuda!, min, cc), verified: true, ...suggest('unsupported') };
  }
  const build = tensorflowBuildFor(catalog, tf);
  if (!build) return { verdict: 'unknown', reason: gpuText.noBuildKnown(tf), verified: false, ...suggest('unknown') };
  const inferred = build.verified ? '' : stepsText.gpuInferred(tf);

  const sass = sassFor(build, cc);
  if (sass) {
    return { verdict: 'native', reason: stepsText.gpuNative(tf, sass, cc, inferred), verified: build.verified };
  }
  const failure = catalog.gpus.knownFailures?.find((f) => inRange(tf, f.tfFrom, f.tfTo) && inRange(cc, f.computeCapabilityFrom, f.computeCapabilityTo));
  if (failure) {
    return {
      verdict: 'unsupported',
      reason: catalogText.gpuKnownFailure(tf, cc, failure.symptom),
      suggestion: failure.works.map((w) => catalogText.gpuWorks[w]).join(' · '),
      verified: true,
    };
  }
  const ptx = ptxFor(build, cc);
  if (ptx) {
    const max = cuda ? cudaMaxComputeCapability(catalog, cuda) : undefined;
    const older = max && compareDotted(cc, max) > 0 ? gpuText.cudaPredatesGpu(cuda!, max) : '';
    return {
      verdict: 'ptx-jit',
      reason: gpuText.ptxJit(tf, cc, ptx, inferred, older),
      verified: build.verified,
      ...suggest('ptx-jit'),
    };
  }
  const oldest = [...build.sass].sort(compareDotted)[0];
  const why =
    compareDotted(cc, oldest) < 0
      ? gpuText.tooOld(oldest, build.ptx.join(', ') || gpuText.ptxNone)
      : gpuText.noArch(ccMajor(cc), cc);
  return { verdict: 'unsupported', reason: gpuText.willNotRun(tf, cc, why, inferred), verified: build.verified, ...suggest('unsupported') };
}
