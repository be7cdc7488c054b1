// `cudawiz requirements --tf V [--os …] [--json]`: what that TensorFlow needs, from the catalog alone.
import { requirementsFor, type Requirements } from '../catalog/queries.js';
import { osOption, requireString } from '../cli/args.js';
import type { CommandContext } from '../cli/context.js';
import type { Output } from '../cli/output.js';
import { EXIT } from '../errors.js';

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
    ['GPU compute capability', r.computeCapabilityMin ? `${r.computeCapabilityMin} or newer (CUDA ${r.cuda})` : 'unknown'],
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
    out.line(a.gated && !a.publicUrl ? `                   log in and pick it at ${a.page}` : `                   ${a.publicUrl ?? a.url}`);
  }
  for (const n of r.notes) out.line(`  ${out.symbol('info')} ${n}`);
}

export async function run(ctx: CommandContext): Promise<number> {
  const tf = requireString(ctx.values, 'tf', 'cudawiz requirements --tf 2.3');
  const os = osOption(ctx.values.os, ctx.host.os);
  const r = requirementsFor(ctx.catalog(), tf, os);
  if (ctx.out.json) ctx.out.writeJson(r);
  else renderRequirements(r, ctx.out);
  return EXIT.ok;
}
