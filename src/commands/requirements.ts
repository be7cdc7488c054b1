// `cudawiz requirements --tf V [--os …] [--gpu NAME|CC] [--json]`: what that TensorFlow needs, from the
// catalog alone, and with --gpu whether that GPU runs it natively, through a slow JIT, or not at all.
import { gpuFromName, gpuSupport, type GpuSupport, type NamedGpuFacts } from '../catalog/gpu-support.js';
import { cudnnChoiceLines } from '../catalog/cudnn-choice.js';
import { publicCopyUrl, requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { osOption, requireString } from '../io/flags.js';
import type { CommandContext } from '../io/context.js';
import type { Output } from '../io/output.js';
import { EXIT, UsageError } from '../errors.js';
import { catalogText } from '../i18n/catalog.js';
import { gpuText } from '../i18n/gpu.js';
import { compareDotted, majorMinor } from '../version.js';
import { allRouteFiles } from '../routes/index.js';
import { loadRedistCatalog } from '../redist/catalog.js';
import { renderRoutes } from './routes-view.js';

export interface GpuAnswer extends GpuSupport {
  name?: string;
  computeCapability: string;
}

/** TF's wheels' own minimum where it is above its CUDA's (TF 2.3: 3.5, CUDA 10.1: 3.0), else the CUDA minimum. */
function computeCapabilityLine(r: Requirements): string {
  const tf = r.tensorflowComputeCapabilityMin;
  const cuda = r.computeCapabilityMin;
  if (tf && cuda && compareDotted(tf, cuda) > 0) return catalogText.ccMinTensorflow(tf, majorMinor(r.row), r.cuda ?? '', cuda);
  return cuda ? catalogText.reqCcCuda(cuda, r.cuda ?? '') : catalogText.reqUnknown;
}

/** Columns a label takes on a terminal: CJK characters and full-width punctuation take two. */
function columns(s: string): number {
  let n = 0;
  for (const ch of s) n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return n;
}
const padColumns = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - columns(s)));
/** "CUDA installer:" / "cuDNN archive:" and the lines under them: values start at column 19. */
const LABEL_WIDTH = 17;
const UNDER_LABEL = ' '.repeat(LABEL_WIDTH + 2);

export function renderRequirements(r: Requirements, out: Output): void {
  const os = catalogText.reqOs(r.os === 'windows');
  out.line(out.bold(catalogText.reqTitle(r.tensorflow, os)) + (r.row !== r.tensorflow ? out.dim(catalogText.reqRow(r.row)) : ''));
  if (!r.gpuSupported) {
    out.line(`${out.symbol('fail')} ${catalogText.reqNoGpu}`);
    for (const a of r.alternatives) out.line(`  ${out.symbol('info')} ${catalogText.reqAlternative(a.title, a.detail)}`);
    for (const n of r.notes) out.line(`  ${n}`);
    return;
  }
  const rows: [string, string][] = [
    [catalogText.reqPip, r.pip],
    ['Python', `${r.python.min} – ${r.python.max}${r.python.listed.some((p) => p.startsWith('2.')) ? catalogText.reqAnd27 : ''}`],
    ['CUDA', r.cuda ?? '—'],
    ['cuDNN', r.cudnn ?? '—'],
    [catalogText.reqDriver, r.driverMin ? `${catalogText.reqOrNewer(r.driverMin)}${r.driverFull && r.driverFull !== r.driverMin ? catalogText.reqFullFeatures(r.driverFull) : ''}` : catalogText.reqUnknown],
    [catalogText.reqCc, computeCapabilityLine(r)],
  ];
  const width = Math.max(...rows.map(([k]) => columns(k)));
  for (const [k, v] of rows) out.line(`  ${padColumns(k, width)}  ${v}`);
  out.line();
  out.line(`  ${catalogText.reqLibraries}`);
  out.line(`    ${r.libraries.map((l) => l.file).join('  ')}`);
  out.line();
  if (r.cudaInstaller) {
    out.line(`  ${padColumns(catalogText.reqInstaller, LABEL_WIDTH)}${r.cudaInstaller.file}`);
    out.line(`${UNDER_LABEL}${r.cudaInstaller.url}`);
  }
  if (r.cudnnArchive) {
    const a = r.cudnnArchive;
    out.line(`  ${padColumns(catalogText.reqArchive, LABEL_WIDTH)}${a.file}  ${catalogText.reqArchiveFor(a.version, a.cuda)}`);
    const publicUrl = publicCopyUrl(a);
    if (publicUrl) out.line(`${UNDER_LABEL}${publicUrl}`);
    for (const l of cudnnChoiceLines(a, r.row)) out.line(`${UNDER_LABEL}${l}`);
  }
  for (const n of r.notes) out.line(`  ${out.symbol('info')} ${n}`);
}

const VERDICT_STATUS = { native: 'pass', 'ptx-jit': 'warn', unsupported: 'fail', unknown: 'info' } as const;

export function renderGpu(g: GpuAnswer, out: Output): void {
  const who = g.name ? gpuText.namedGpu(g.name, g.computeCapability) : gpuText.bareCc(g.computeCapability);
  out.line();
  out.line(`  ${out.symbol(VERDICT_STATUS[g.verdict])} ${gpuText.verdictLine(who, out.paint(VERDICT_STATUS[g.verdict], gpuText.verdict[g.verdict]))}`);
  out.line(`    ${g.reason}`);
  if (g.suggestion) out.line(`    ${g.suggestion}`);
}

/** "8.9" is a compute capability; anything else is a GPU name looked up in the catalog's name table. */
export function resolveGpu(catalog: Catalog, value: string): { name?: string; computeCapability: string; basis?: NamedGpuFacts['basis']; family?: string } {
  const v = value.trim();
  if (/^\d+\.\d+$/.test(v)) return { computeCapability: v };
  // The product itself, or its family (said so in the verdict: gpuSupport).
  const hit = gpuFromName(catalog, v);
  if (hit) return { name: v, computeCapability: hit.computeCapability, basis: hit.basis, ...(hit.family ? { family: hit.family } : {}) };
  throw new UsageError(gpuText.unknownGpu(value), gpuText.unknownGpuFix);
}

export async function run(ctx: CommandContext): Promise<number> {
  const tf = requireString(ctx.values, 'tf', 'cudawiz requirements --tf 2.3');
  const os = osOption(ctx.values.os, ctx.host.os);
  const catalog = ctx.catalog();
  for (const w of catalog.warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  const gpuArg = ctx.values.gpu;
  if (gpuArg !== undefined && (typeof gpuArg !== 'string' || gpuArg.trim() === '')) throw new UsageError(gpuText.gpuNeedsValue, gpuText.gpuNeedsValueFix);
  const gpu = typeof gpuArg === 'string' ? resolveGpu(catalog, gpuArg) : undefined;
  const r = requirementsFor(catalog, tf, os);
  // Past native Windows' last GPU line the answer is WSL2's, so judge the GPU against the Linux build.
  const g: GpuAnswer | undefined = gpu && { ...gpu, ...gpuSupport(catalog, gpu, { tf, cuda: r.cuda ?? undefined, os: r.gpuSupported ? os : 'linux' }) };
  // Each route's files side by side, in the one order (src/routes/ids.ts): what a bundle for this TF and OS holds.
  const routes = r.gpuSupported ? allRouteFiles(catalog, loadRedistCatalog(ctx.globals.catalog), tf, os, { req: r }) : [];
  if (ctx.out.json) ctx.out.writeJson({ ...r, ...(g ? { gpu: g } : {}), routes });
  else {
    renderRequirements(r, ctx.out);
    if (routes.length) renderRoutes(routes, ctx.out);
    if (g) renderGpu(g, ctx.out);
  }
  return EXIT.ok;
}
