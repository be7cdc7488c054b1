// `cudawiz doctor [--tf V] [--python PATH] [--cuda-root DIR] [--json]`: probe, judge, report.
// Exit 0 when nothing fails, 1 when something does.
import pkg from '../../package.json' with { type: 'json' };
import { tfBeyondCatalog } from '../catalog/newer-tf.js';
import { requirementsFor } from '../catalog/queries.js';
import type { CommandContext } from '../io/context.js';
import type { Output } from '../io/output.js';
import { diagnose, hasFailure, type Finding } from '../doctor/diagnose.js';
import { EXIT } from '../errors.js';
import { doctorText as T } from '../i18n/doctor.js';
import { probeMachine } from '../probe/index.js';
import { statusSymbol } from '../status.js';
import type { MachineFacts } from '../probe/types.js';

export interface DoctorReport {
  os: MachineFacts['os'];
  gpus: MachineFacts['gpu']['gpus'];
  driver: { version: string | null; source: string | null };
  toolkits: { version: string | null; path: string; aliases: string[]; readable: boolean; missing: string[] }[];
  cudnn: { version: string | null; path: string; where: string }[];
  python: { command: string | null; version: string | null; bits: number | null; executable: string | null } | null;
  tensorflow: { version: string; package: string | null; importable: boolean; buildInfo: Record<string, unknown> | null } | null;
  findings: Finding[];
  /** Only inside WSL: the WSL version, the Windows build and the Windows driver WSL lends to Linux. */
  wsl?: {
    version: number | null;
    distro: string | null;
    kernel: string | null;
    windowsVersion: string | null;
    windowsBuild: number | null;
    windowsDriverVersion: string | null;
    driverCudaVersion: string | null;
    libcuda: string | null;
    driverFix: string | null;
    problems: string[];
  };
  /** Only when the probed Python has pip's nvidia-* wheels: their CUDA/cuDNN and which copy TF loads. */
  pipCuda?: {
    python: string;
    venv: string | null;
    tensorflow: string | null;
    cuda: string | null;
    cudnn: string | null;
    packages: { name: string; version: string }[];
    loads: { file: string; from: string; dir: string | null; via: string | null }[];
    loaderPathFix: { needed: boolean; alreadyApplied: boolean; missingDirs: string[]; activateScript: string | null };
  };
  /** Only inside an active conda env: the CUDA/cuDNN its packages carry, and where its libraries are. */
  conda?: {
    prefix: string;
    name: string | null;
    libDir: string;
    cuda: string | null;
    cudnn: string | null;
    packages: { name: string; version: string; build: string | null }[];
    libraries: string[];
  };
}

function wslReport(facts: MachineFacts): DoctorReport['wsl'] {
  const w = facts.wsl;
  if (!w?.isWsl) return undefined;
  return {
    version: w.version ?? null,
    distro: w.distro ?? null,
    kernel: w.kernel ?? null,
    windowsVersion: w.windowsVersion ?? null,
    windowsBuild: w.windowsBuild ?? null,
    windowsDriverVersion: w.windowsDriverVersion ?? null,
    driverCudaVersion: w.driverCudaVersion ?? null,
    libcuda: w.libcuda ?? null,
    driverFix: w.driverFix ?? null,
    problems: w.problems.map((p) => p.id),
  };
}

function pipReport(facts: MachineFacts): DoctorReport['pipCuda'] {
  const p = facts.pip;
  if (!p) return undefined;
  return {
    python: p.python,
    venv: p.venv ?? null,
    tensorflow: p.tensorflow?.version ?? null,
    cuda: p.cudaFromWheels ?? null,
    cudnn: p.cudnnFromWheels ?? null,
    packages: p.packages.map(({ name, version }) => ({ name, version })),
    loads: p.loads.map((l) => ({ file: l.file, from: l.from, dir: l.dir ?? null, via: l.via ?? null })),
    loaderPathFix: { needed: p.fix.needed, alreadyApplied: p.fix.alreadyApplied, missingDirs: p.fix.missingDirs, activateScript: p.fix.activateScript ?? null },
  };
}

function condaReport(facts: MachineFacts): DoctorReport['conda'] {
  const c = facts.conda;
  if (!c) return undefined;
  return {
    prefix: c.prefix,
    name: c.name ?? null,
    libDir: c.libDir,
    cuda: c.cuda?.version ?? null,
    cudnn: c.cudnn?.version ?? null,
    packages: c.packages.map((p) => ({ name: p.name, version: p.version, build: p.build ?? null })),
    libraries: c.libraries,
  };
}

export function doctorReport(facts: MachineFacts, findings: Finding[]): DoctorReport {
  const py = facts.python;
  const tf = py.tensorflow;
  return {
    os: facts.os,
    gpus: facts.gpu.gpus,
    driver: { version: facts.gpu.driver.version ?? null, source: facts.gpu.driver.source ?? null },
    toolkits: facts.toolkits.map((t) => ({ version: t.version ?? null, path: t.path, aliases: t.aliases, readable: t.readable, missing: t.missing })),
    cudnn: facts.cudnn.map((c) => ({ version: c.version ?? (c.major !== undefined ? String(c.major) : null), path: c.path, where: c.where })),
    python: py.state === 'found' ? { command: py.command ?? null, version: py.version ?? null, bits: py.bits ?? null, executable: py.executable ?? null } : null,
    tensorflow: tf?.version ? { version: tf.version, package: tf.package ?? null, importable: tf.importable, buildInfo: tf.buildInfo ?? null } : null,
    findings,
    // Present only where they apply, so the report of an ordinary machine keeps its shape.
    ...(wslReport(facts) ? { wsl: wslReport(facts) } : {}),
    ...(pipReport(facts) ? { pipCuda: pipReport(facts) } : {}),
    ...(condaReport(facts) ? { conda: condaReport(facts) } : {}),
  };
}

function summaryLines(r: DoctorReport): string[] {
  const none = T.shareNone;
  return [
    `os: ${r.os}`,
    `gpus: ${r.gpus.length ? T.places(r.gpus.map((g) => `${g.index}: ${g.name}${g.computeCapability ? T.shareCc(g.computeCapability) : ''}`)) : none}`,
    `driver: ${r.driver.version ?? none}`,
    `toolkits: ${r.toolkits.length ? T.places(r.toolkits.map((t) => `${t.version ?? '?'} ${t.path}${t.missing.length ? T.shareNoParts(T.list(t.missing)) : ''}`)) : none}`,
    `cudnn: ${r.cudnn.length ? T.places(r.cudnn.map((c) => `${c.version ?? '?'} ${c.path}`)) : none}`,
    `python: ${r.python ? T.shareIn(`${r.python.version} ${T.shareBits(r.python.bits)}`, String(r.python.command)) : none}`,
    `tensorflow: ${r.tensorflow ? `${r.tensorflow.package ?? 'tensorflow'} ${r.tensorflow.version}` : T.shareNotInstalled}`,
    ...(r.wsl ? [`wsl: ${T.shareWsl(String(r.wsl.version ?? '?'), String(r.wsl.windowsVersion ?? r.wsl.windowsBuild ?? '?'), r.wsl.windowsDriverVersion ?? none)}`] : []),
    ...(r.pipCuda ? [`pip cuda: ${T.shareIn(T.sharePip(r.pipCuda.cuda ?? '?', r.pipCuda.cudnn ?? '?'), r.pipCuda.venv ?? r.pipCuda.python)}`] : []),
    ...(r.conda ? [`conda: ${T.shareIn(T.shareConda(r.conda.cuda ?? none, r.conda.cudnn ?? none), r.conda.prefix)}`] : []),
  ];
}

export function renderDoctor(r: DoctorReport, out: Output): void {
  // Each distinct fix is said once (#39.5): a later finding with the same fix points back to the first.
  const saidUnder = new Map<string, string>();
  const fixLine = (f: DoctorReport['findings'][number]) => {
    if (!f.fix) return;
    const first = saidUnder.get(f.fix);
    out.line(`    → ${first === undefined ? f.fix : T.sameFixAbove(first)}`);
    if (first === undefined) saidUnder.set(f.fix, f.title);
  };
  for (const f of r.findings) {
    if (f.status === 'pass' || f.status === 'skip') {
      out.line(`${out.symbol(f.status)} ${f.status === 'skip' ? out.dim(f.title) : f.title}`);
      if (f.status === 'skip') fixLine(f);
      continue;
    }
    out.line(`${out.symbol(f.status)} ${out.paint(f.status, f.title)}`);
    for (const e of f.evidence.filter(Boolean)) out.line(`    ${out.dim(e)}`);
    fixLine(f);
  }
  const fails = r.findings.filter((f) => f.status === 'fail').length;
  const warns = r.findings.filter((f) => f.status === 'warn').length;
  out.line();
  out.line(fails || warns ? T.summary(fails, warns) : T.nothingToFix);
  out.line();
  out.line(T.shareIntro);
  out.line('```');
  out.line(`cudawiz ${pkg.version} doctor`);
  for (const l of summaryLines(r)) out.line(l);
  for (const f of r.findings) out.line(`${statusSymbol(f.status, false)} ${f.id}: ${f.title}`);
  out.line('```');
}

export async function run(ctx: CommandContext): Promise<number> {
  const tf = typeof ctx.values.tf === 'string' ? ctx.values.tf : undefined;
  const python = typeof ctx.values.python === 'string' ? ctx.values.python : undefined;
  const catalog = ctx.catalog();
  for (const w of catalog.warnings ?? []) ctx.out.error(`cudawiz: ${w}`);
  // A mistyped --tf is a usage error before any probing; one newer than the catalog is checked as far
  // as it can be, and its finding says what still works.
  if (tf && !tfBeyondCatalog(catalog, tf, ctx.host.os)) requirementsFor(catalog, tf, ctx.host.os);
  const facts = await probeMachine(ctx.host, { cudaRoot: ctx.globals.cudaRoot, python, catalog });
  const findings = diagnose(catalog, facts, { tf, os: ctx.host.os });
  const report = doctorReport(facts, findings);
  if (ctx.out.json) ctx.out.writeJson(report);
  else renderDoctor(report, ctx.out);
  return hasFailure(findings) ? EXIT.problems : EXIT.ok;
}
