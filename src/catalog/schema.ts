// The catalog's shape. Every asset file is parsed through these schemas at load, so a typo in the
// data is an error with the path of the bad field, never a wrong answer later.
import * as z from 'zod';
import { catalogText } from '../i18n/catalog.js';

const majorMinor = z.string().regex(/^\d+\.\d+$/, { error: () => catalogText.expectedMajorMinor });
const dotted = z.string().regex(/^\d+(\.\d+)*$/, { error: () => catalogText.expectedDotted('10.1.243') });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: () => catalogText.expectedSha256 });
const md5 = z.string().regex(/^[0-9a-f]{32}$/, { error: () => catalogText.expectedMd5 });
const url = z.string().url();
const source = z.string().min(3);

// ---------------------------------------------------------------- TensorFlow
export const tfRowSchema = z.object({
  /** As the tested-configurations table writes it: "2.3.0", "1.13.1". */
  version: dotted,
  /** "tensorflow" or "tensorflow_gpu", as the table labels the row. */
  label: z.enum(['tensorflow', 'tensorflow_gpu']),
  /** Python versions as the table lists them: ["2.7", "3.3-3.7"]. */
  python: z.array(z.string().regex(/^\d+\.\d+(-\d+\.\d+)?$/)).min(1),
  compiler: z.string(),
  buildTools: z.string(),
  cudnn: z.string().regex(/^\d+(\.\d+)?$/),
  cuda: majorMinor,
  note: z.string().optional(),
});
export type TfRow = z.infer<typeof tfRowSchema>;

export const tensorflowSchema = z.object({
  sources: z.record(z.string(), source),
  linux: z.array(tfRowSchema).min(1),
  windows: z.array(tfRowSchema).min(1),
  /** The last TF minor line with native-Windows GPU support. */
  windowsNativeGpuLast: majorMinor,
  /** The first TF release with `pip install tensorflow[and-cuda]` (Linux only). */
  andCudaFirst: majorMinor,
  /**
   * What `pip install "tensorflow[and-cuda]==X"` really installs per TF line: the pin to use where the
   * release itself cannot be installed (2.15.0 → 2.15.0.post1), and the Pythons it resolves on
   * (empty: the table's range).
   */
  andCudaSpecs: z
    .array(
      z
        .object({
          from: majorMinor,
          to: majorMinor,
          pin: z.string().regex(/^\d+\.\d+\.\d+(\.post\d+)?$/).optional(),
          python: z.array(z.string().regex(/^\d+\.\d+(-\d+\.\d+)?$/)),
          source: source,
        })
        .strict(),
    )
    .optional(),
  /** The last TF line whose GPU build is pip's `tensorflow-gpu` package rather than `tensorflow`. */
  gpuPackageLast: majorMinor,
  gpuPackageSource: source,
  /** What to do on native Windows past windowsNativeGpuLast. */
  windowsAlternatives: z.array(z.object({ id: z.string(), title: z.string(), detail: z.string(), zh: z.object({ title: z.string(), detail: z.string() }).optional() })).min(1),
  /** Rows the docs once published and later deleted (kept for the record; never answered). */
  removedRows: z.array(tfRowSchema.extend({ os: z.enum(['linux', 'windows']), note: z.string() })).optional(),
});
export type TensorflowCatalog = z.infer<typeof tensorflowSchema>;

// ---------------------------------------------------------------- CUDA toolkit releases
export const installerSchema = z
  .object({
    /**
     * The name the download is saved under. For ≤ 10.0 NVIDIA's links end in `-exe`, `-run` or
     * nothing (`cuda_9.0.176_win10-exe`, `cuda_10.0.130_410.48_linux`): `file` then carries the real
     * extension (`cuda_9.0.176_win10.exe`, `cuda_10.0.130_410.48_linux.run`) and `url` stays the link.
     */
    file: z.string().min(1),
    /** The real link; it ends in `file`, or in `file` without its extension (± `-exe`/`-run`). */
    url,
    sha256: sha256.optional(),
    md5: md5.optional(),
    /** NVIDIA's md5sum.txt for this release, when the catalog has no checksum of its own. */
    md5sumUrl: url.optional(),
    /** The display driver bundled in the installer (from its file name). */
    bundledDriver: z.string().optional(),
    size: z.number().int().positive().optional(),
    source: source.optional(),
  })
  .strict();
export type Installer = z.infer<typeof installerSchema>;

export const driverPairSchema = z.object({ linux: dotted.optional(), windows: dotted.optional() }).strict();

export const cudaReleaseSchema = z
  .object({
    version: dotted,
    label: z.string().optional(),
    /** NVIDIA's Table 3 minimum for this exact toolkit; an OS is absent where Table 3 has none. */
    driverMin: driverPairSchema.optional(),
    /** An OS is absent where no local installer is known for it. */
    installers: z.object({ linux: installerSchema.optional(), windows: installerSchema.optional() }).strict(),
    /** Where sources disagree or a fact is unknown, said in words. */
    note: z.string().optional(),
    /**
     * Facts of this release no stored public source gives ("driverMin.linux", "installers.linux"): an answer
     * resting on one says so (requirements' notes). Listed, never guessed.
     */
    unverified: z.array(z.enum(['driverMin.linux', 'driverMin.windows', 'installers.linux', 'installers.windows', 'installers.linux.checksum', 'installers.windows.checksum'])).optional(),
    source: source.optional(),
  })
  .strict();
export type CudaRelease = z.infer<typeof cudaReleaseSchema>;

export const cudaFamilySchema = z.object({
  /** Major version: every 11.x shares these facts. */
  major: z.number().int(),
  /** Minor-version compatibility minimum (11.1+ on 11.x, …); absent before CUDA 11. */
  minorCompatDriverMin: driverPairSchema.optional(),
  /** Oldest GPU architecture this toolkit line can build for and run on. */
  computeCapabilityMin: z.string().regex(/^\d+\.\d+$/),
  source: source,
});

export const windowsComponentSetSchema = z.object({
  /** major.minor range this list applies to, inclusive. */
  from: majorMinor,
  to: majorMinor,
  /** Sub-package names without the `_X.Y` suffix; never Display.Driver. */
  components: z.array(z.string().regex(/^[a-z_]+$/)).min(1),
  source: source,
});

export const cudaSchema = z.object({
  sources: z.record(z.string(), source),
  families: z.array(cudaFamilySchema).min(1),
  /** Linux runfiles from this release take --installpath (before: --toolkitpath) and crash on a leftover /tmp log. */
  linuxRunfile: z.object({
    installPathFrom: majorMinor,
    source,
    /** The last CUDA line whose Linux runfile bundles a display driver (13.3): later runfiles carry none, and no step may count on one. */
    driverBundledUntil: majorMinor.optional(),
    driverBundledSource: source.optional(),
    /** NVIDIA's way out of a runfile toolkit: `program` (in the toolkit folder) with `args` from `from` on; before it `before` ({mm}: X.Y), which cudawiz names, never runs. */
    uninstaller: z
      .object({ from: majorMinor, program: z.string().min(1), args: z.array(z.string()), before: z.string().includes('{mm}'), source, unverified: z.array(z.enum(['args'])).optional() })
      .strict(),
  }),
  windowsComponents: z.array(windowsComponentSetSchema).min(1),
  /** The Programs and Features entries a Windows toolkit leaves ({mm}: X.Y): the way out cudawiz names. */
  windowsUninstall: z.object({ entries: z.array(z.string().includes('{mm}')).min(1), source }).strict(),
  releases: z.array(cudaReleaseSchema).min(1),
});
export type CudaCatalog = z.infer<typeof cudaSchema>;

// ---------------------------------------------------------------- cuDNN releases
export const layoutEraSchema = z.enum([
  /** ≤ 8.2: everything under a top folder `cuda/` (Windows lib/x64, Linux lib64). */
  'cuda-folder',
  /** ≥ 8.3: top folder named like the archive, with bin|include|lib[/x64]. */
  'archive-folder',
  /** Recent 9.x Windows: DLLs under bin/x64. */
  'archive-folder-x64',
]);
export type LayoutEra = z.infer<typeof layoutEraSchema>;

const archiveFields = z
  .object({
    file: z.string().min(1),
    url,
    sha256: sha256.optional(),
    /** true: no public copy is known, only the login download in `url` (false: `url` is a public, no-login copy). */
    gated: z.boolean(),
    /** The login-gated download of the same file, when `url` is its public copy (the fallback when that copy fails). */
    loginUrl: url.optional(),
    /** A public copy of the same file (overlays; the built-in catalog puts it in `url` with `gated: false`). */
    publicUrl: url.optional(),
    /** Bytes, where a source (NVIDIA's redist manifest) gives them. */
    size: z.number().int().positive().optional(),
    /** A public copy no source gives a checksum for: downloaded only with --allow-unverified. */
    unverified: z.boolean().optional(),
    /** The redist manifest that carries this file's sha256 (public redist builds carry no sha256 of their own). */
    manifestUrl: url.optional(),
    layout: layoutEraSchema.optional(),
    source: source.optional(),
  })
  .strict();
/** A built-in archive is login-gated unless it says otherwise; an overlay's partial entry gets no default (it would flip a public one). */
export const archiveSchema = archiveFields.extend({ gated: archiveFields.shape.gated.default(true) }).strict();
export type CudnnArchive = z.infer<typeof archiveSchema>;

export const cudnnReleaseSchema = z
  .object({
    /** Full version: "7.6.5.32" (an overlay may say "7.6.5"). */
    version: dotted,
    /** The CUDA this build is for: "10.1", or a major alone ("11", "12") for the archive era. */
    cuda: z.string().regex(/^\d+(\.\d+)?$/),
    archives: z.object({ linux: archiveSchema.optional(), windows: archiveSchema.optional() }).strict(),
    /** The page to log in to and pick the file from. */
    downloadPage: url.optional(),
  })
  .strict();
export type CudnnRelease = z.infer<typeof cudnnReleaseSchema>;

/** The oldest GPU a range of cuDNN releases supports (NVIDIA's support matrix): 9.0–9.10 go down to 5.0, 9.11+ to 7.5. */
export const cudnnGpuFloorSchema = z
  .object({
    from: majorMinor,
    /** Inclusive; absent: every later release. */
    to: majorMinor.optional(),
    computeCapabilityMin: z.string().regex(/^\d+\.\d+$/, { error: () => catalogText.expectedCc }),
    /** false when the floor rests on secondary sources; a floor only ever withholds a build. */
    verified: z.boolean(),
    source: z.string(),
  })
  .strict();

export const cudnnSchema = z.object({
  sources: z.record(z.string(), source),
  archivePage: url,
  gpuFloors: z.array(cudnnGpuFloorSchema).optional(),
  releases: z.array(cudnnReleaseSchema).min(1),
});
export type CudnnCatalog = z.infer<typeof cudnnSchema>;

// ---------------------------------------------------------------- library names
const soVersion = z.string().regex(/^\d+(\.\d+)?$/);
export const libraryRowSchema = z
  .object({
    /** The CUDA major.minor range these sonames belong to, inclusive. */
    from: majorMinor,
    to: majorMinor,
    /** Soname versions as TensorFlow writes them on Linux; Windows drops the dot. */
    cudart: soVersion,
    cublas: soVersion,
    cublasLt: soVersion.optional(),
    cufft: soVersion,
    curand: soVersion,
    cusolver: soVersion,
    cusparse: soVersion,
    source: source,
  })
  .strict();

export const librariesSchema = z.object({
  sources: z.record(z.string(), source),
  toolkits: z.array(libraryRowSchema).min(1),
  /** cuDNN major → the extra libraries its main library loads (Linux names without lib/.so). */
  cudnnParts: z.record(z.string(), z.array(z.string())),
});
export type LibrariesCatalog = z.infer<typeof librariesSchema>;

// ---------------------------------------------------------------- GPUs
const computeCapability = z.string().regex(/^\d+\.\d+$/, { error: () => catalogText.expectedCc });
export const gpuSchema = z.object({
  sources: z.record(z.string(), source),
  /** Product names → compute capability, for drivers without compute_cap. Names match whole (see gpu-support.ts normalizeGpuName). */
  computeCapabilityByName: z.array(
    z.object({ computeCapability, architecture: z.string(), names: z.array(z.string().min(2)).min(1), source: z.string() }).strict(),
  ),
  /**
   * Product families whose members share one compute capability: a name the table does not hold gets its
   * family's, and the verdict says so. `pattern` is matched against the normalised name (normalizeGpuName).
   */
  gpuFamilies: z
    .array(
      z
        .object({ family: z.string().min(3), pattern: z.string().refine((p) => { try { new RegExp(p); return true; } catch { return false; } }, 'not a regular expression'), computeCapability, architecture: z.string(), source: z.string() })
        .strict(),
    )
    .optional(),
  architectures: z.array(z.object({ name: z.string(), computeCapabilities: z.array(z.string()) })).optional(),
  /** Per CUDA major.minor range: the newest compute capability its nvcc builds machine code (SASS) for. */
  cudaSass: z
    .array(z.object({ from: majorMinor, to: majorMinor, maxComputeCapability: computeCapability, verified: z.boolean(), source: z.string() }))
    .optional(),
  /** Per TF major.minor range: the architectures its official wheels carry machine code (sass) and PTX for. */
  tensorflowBuilds: z
    .array(
      z.object({
        from: majorMinor,
        to: majorMinor,
        sass: z.array(computeCapability).min(1),
        ptx: z.array(computeCapability),
        verified: z.boolean(),
        source: z.string(),
      }),
    )
    .optional(),
  /** Where TF's issues show the official wheels fail on an architecture although its PTX should JIT: unsupported there. */
  knownFailures: z
    .array(
      z
        .object({
          tfFrom: majorMinor,
          tfTo: majorMinor,
          computeCapabilityFrom: computeCapability,
          computeCapabilityTo: computeCapability,
          /** The error the issues show (CUDA_ERROR_INVALID_PTX). */
          symptom: z.string(),
          /** What does work, as ids the verdict text names: nvidia-ngc, source-build-cuda-12.8. */
          works: z.array(z.enum(['nvidia-ngc', 'source-build-cuda-12.8'])).min(1),
          source: z.string(),
        })
        .strict(),
    )
    .optional(),
});
export type GpuCatalog = z.infer<typeof gpuSchema>;

export interface Catalog {
  tensorflow: TensorflowCatalog;
  cuda: CudaCatalog;
  cudnn: CudnnCatalog;
  libraries: LibrariesCatalog;
  gpus: GpuCatalog;
  /** What an overlay said that may not be what its author meant (an entry that matched nothing). */
  warnings?: string[];
}

// ---------------------------------------------------------------- overlays (DESIGN.md, a public format)
/** A tested-configurations row added by an overlay: a TF released after this catalog. */
const overlayTfRow = tfRowSchema.extend({ label: tfRowSchema.shape.label.optional(), compiler: z.string().optional(), buildTools: z.string().optional() }).strict();

export const overlaySchema = z
  .object({
    tensorflow: z.object({ linux: z.array(overlayTfRow).optional(), windows: z.array(overlayTfRow).optional() }).strict().optional(),
    cuda: z
      .array(
        // strict: a misspelt key is an error with its path, never silently dropped.
        z
          .object({
            version: dotted,
            label: z.string().optional(),
            driverMin: driverPairSchema.optional(),
            installers: z.object({ linux: installerSchema.partial().optional(), windows: installerSchema.partial().optional() }).strict().optional(),
            note: z.string().optional(),
            unverified: cudaReleaseSchema.shape.unverified,
            source: source.optional(),
          })
          .strict(),
      )
      .optional(),
    cudnn: z
      .array(
        z
          .object({
            version: dotted,
            cuda: z.string().regex(/^\d+(\.\d+)?$/),
            archives: z.object({ linux: archiveFields.partial().optional(), windows: archiveFields.partial().optional() }).strict().optional(),
            downloadPage: url.optional(),
          })
          .strict(),
      )
      .optional(),
    // CUDA redist releases: validated by src/redist/catalog.ts, which owns their shape.
    redist: z.array(z.unknown()).optional(),
  })
  .strict();
export type CatalogOverlay = z.infer<typeof overlaySchema>;
