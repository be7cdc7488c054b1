// `cudawiz requirements --tf V [--os …] [--gpu NAME|CC] [--json]`: what that TensorFlow needs, from the
// catalog alone, and with --gpu whether that GPU runs it natively, through a slow JIT, or not at all.
import { computeCapabilityFromName, gpuSupport, type GpuSupport } from '../catalog/gpu-support.js';
import { cudnnChoiceLines } from '../catalog/cudnn-choice.js';
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import type { Catalog } from '../catalog/schema.js';
import { osOption, requireString } from '../cli/args.js';
import type { CommandContext } from '../cli/context.js';
import type { Output } from '../cli/output.js';
import { EXIT, UsageError } from '../errors.js';
import { catalogText } from '../i18n/catalog.js';
import { compareDotted, majorMinor } from '../version.js';

export interface GpuAnswer extends GpuSupport {
  name?: string;
  computeCapability: string;
}

/** TF's wheels' own minimum where it is above its CUDA's (TF 2.3: 3.5, CUDA 10.1: 3.0), else the CUDA minimum. */
function computeCapabilityLine(r: Requirements): string {
  const tf = r.tensorflowComputeCapabilityMin;
  const cuda = r.computeCapabilityMin;
  if (tf && cuda && compareDotted(tf, cuda) > 0) return catalogText.ccMinTensorflow(tf, majorMinor(r.row), r.cuda ?? '', cuda);
  return cuda ? `${cuda} or newer (CUDA ${r.cuda})` : 'unknown';
}

export function renderRequirements(r: Requirements, out: Output): void {
  const os = r.os === 'windows' ? 'Windows (native)' : 'Linux';
  out.line(out.bold(`TensorFlow ${r.tensorflow} on ${os}`) + (r.row !== r.tensorflow ? out.dim(`  (row ${r.row} of TensorFlow's tested configurations)`) : ''));
  if (!r.gpuSupported) {
    out.line(`${out.symbol('fail')} No GPU support on native Windows for this version.`);
    for (const a of r.alternatives) out.line(`  ${out.symbol('info')} ${a.title}: ${a.detail}`);
    for (const n of r.notes) out.line(`  ${n}`);
    return;
  }
  const rows: [string, string][] = [
    ['pip package', r.pip],
    ['Python', `${r.python.min} – ${r.python.max}${r.python.listed.some((p) => p.startsWith('2.')) ? ' (and 2.7)' : ''}`],
    ['CUDA', r.cuda ?? '—'],
    ['cuDNN', r.cudnn ?? '—'],
    ['NVIDIA driver', r.driverMin ? `${r.driverMin} or newer${r.driverFull && r.driverFull !== r.driverMin ? ` (${r.driverFull} for the installer's full feature set)` : ''}` : 'unknown'],
    ['GPU compute capability', computeCapabilityLine(r)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) out.line(`  ${k.padEnd(width)}  ${v}`);
  out.line();
  out.line('  Libraries TensorFlow will load:');
  out.line(`    ${r.libraries.map((l) => l.file).join('  ')}`);
  out.line();
  if (r.cudaInstaller) {
    out.line(`  CUDA installer:  ${r.cudaInstaller.file}`);
    out.line(`                   ${r.cudaInstaller.url}`);
  }
  if (r.cudnnArchive) {
    const a = r.cudnnArchive;
    out.line(`  cuDNN archive:   ${a.file}  (cuDNN ${a.version} for CUDA ${a.cuda})`);
    if (a.access === 'public') out.line(`                   ${a.publicUrl ?? a.url}`);
    for (const l of cudnnChoiceLines(a, r.row)) out.line(`                   ${l}`);
  }
  for (const n of r.notes) out.line(`  ${out.symbol('info')} ${n}`);
}

const VERDICT_LINE = { native: 'runs natively', 'ptx-jit': 'runs after a slow first-start JIT', unsupported: 'will not run', unknown: 'unknown' } as const;
const VERDICT_STATUS = { native: 'pass', 'ptx-jit': 'warn', unsupported: 'fail', unknown: 'info' } as const;

export function renderGpu(g: GpuAnswer, out: Output): void {
  const who = g.name ? `${g.name} (compute capability ${g.computeCapability})` : `compute capability ${g.computeCapability}`;
  out.line();
  out.line(`  ${out.symbol(VERDICT_STATUS[g.verdict])} ${who}: ${out.paint(VERDICT_STATUS[g.verdict], VERDICT_LINE[g.verdict])}`);
  out.line(`    ${g.reason}`);
  if (g.suggestion) out.line(`    ${g.suggestion}`);
}

/** "8.9" is a compute capability; anything else is a GPU name looked up in the catalog's name table. */
export function resolveGpu(catalog: Catalog, value: string): { name?: string; computeCapability: string } {
  const v = value.trim();
  if (/^\d+\.\d+$/.test(v)) return { computeCapability: v };
  const hit = computeCapabilityFromName(catalog, v);
  if (hit) return { name: v, computeCapability: hit.computeCapability };
  throw new UsageError(
    `Unknown GPU "${value}": the catalog cannot tell its compute capability from that name.`,
    'Pass the compute capability instead, e.g. --gpu 8.6: nvidia-smi --query-gpu=name,compute_cap --format=csv prints it (driver R510 or newer), and https://developer.nvidia.com/cuda-gpus lists every GPU\'s.',
  );
}

export async function run(ctx: CommandContext): Promise<number> {
  const tf = requireString(ctx.values, 'tf', 'cudawiz requirements --tf 2.3');
  const os = osOption(ctx.values.os, ctx.host.os);
  const catalog = ctx.catalog();
  for (const w of catalog.warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  const gpuArg = ctx.values.gpu;
  if (gpuArg !== undefined && (typeof gpuArg !== 'string' || gpuArg.trim() === '')) throw new UsageError('--gpu needs a GPU name or a compute capability.', 'e.g. --gpu "RTX 4090" or --gpu 8.9');
  const gpu = typeof gpuArg === 'string' ? resolveGpu(catalog, gpuArg) : undefined;
  const r = requirementsFor(catalog, tf, os);
  // Past native Windows' last GPU line the answer is WSL2's, so judge the GPU against the Linux build.
  const g: GpuAnswer | undefined = gpu && { ...gpu, ...gpuSupport(catalog, gpu, { tf, cuda: r.cuda ?? undefined, os: r.gpuSupported ? os : 'linux' }) };
  if (ctx.out.json) ctx.out.writeJson(g ? { ...r, gpu: g } : r);
  else {
    renderRequirements(r, ctx.out);
    if (g) renderGpu(g, ctx.out);
  }
  return EXIT.ok;
}
