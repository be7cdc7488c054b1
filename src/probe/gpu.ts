// GPUs and the driver, from nvidia-smi's CSV query (and the kernel module's version file on Linux).
// Never throws; whatever cannot be read becomes a state plus the raw line as evidence.
import type { Catalog } from '../catalog/schema.js';
import type { Host } from '../host.js';
import { LINUX_DRIVER_VERSION_FILE, nvidiaSmiCandidates } from '../platform.js';
import { firstLine, locateProgram, runProgram } from './commands.js';
import { probeDriverInstall, probeKernelModule, probeUserspaceDriver } from './driver-userspace.js';
import type { MachineFs } from './machine-fs.js';
import type { DriverFacts, GpuFacts, GpuInfo } from './types.js';
import { computeCapabilityFromName } from '../catalog/gpu-support.js';
import { gpuText } from '../i18n/gpu.js';

const FULL_QUERY = ['index', 'name', 'driver_version', 'compute_cap', 'memory.total'];
const OLD_DRIVER_QUERY = ['index', 'name', 'driver_version', 'memory.total'];

const UUID = /GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Evidence is shown and pasted into bug reports: never a GPU's UUID. */
export function redactUuids(text: string): string {
  return text.replace(UUID, 'GPU-<uuid>');
}

function queryArgs(fields: string[]): string[] {
  return [`--query-gpu=${fields.join(',')}`, '--format=csv,noheader'];
}

function parseRows(stdout: string, fields: string[]): GpuInfo[] | undefined {
  const lines = stdout.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return undefined;
  const gpus: GpuInfo[] = [];
  for (const line of lines) {
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length !== fields.length) return undefined;
    const at = (f: string) => cells[fields.indexOf(f)];
    const index = Number(at('index'));
    const driver = at('driver_version');
    if (!Number.isInteger(index) || !/^\d+(\.\d+)+$/.test(driver) || !at('name')) return undefined;
    const cc = fields.includes('compute_cap') ? at('compute_cap') : undefined;
    gpus.push({
      index,
      name: at('name'),
      ...(cc && /^\d+\.\d+$/.test(cc) ? { computeCapability: cc, computeCapabilitySource: 'nvidia-smi' as const } : {}),
      memory: at('memory.total'),
    });
  }
  return gpus;
}

function driverOf(stdout: string, fields: string[]): string | undefined {
  const line = stdout.split(/\r?\n/).find((l) => l.trim());
  return line?.split(',').map((c) => c.trim())[fields.indexOf('driver_version')];
}

/** "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01 …" and the open module's "… Open Kernel Module for x86_64  580.95.05 …". */
export function parseKernelModuleVersion(text: string): string | undefined {
  return /Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1];
}

function kernelDriver(host: Host, mfs: MachineFs): DriverFacts {
  if (host.os !== 'linux') return {};
  const text = mfs.readText(LINUX_DRIVER_VERSION_FILE);
  const version = text ? parseKernelModuleVersion(text) : undefined;
  return version ? { version, source: 'kernel module' } : {};
}

/** Linux: the user-space library's version, the kernel module's state and how the driver came; the version when nothing else tells it. */
function linuxDriverParts(host: Host, mfs: MachineFs, kernel: DriverFacts): { parts: Partial<GpuFacts>; driver: DriverFacts } {
  if (host.os !== 'linux') return { parts: {}, driver: kernel };
  const userspace = probeUserspaceDriver(mfs);
  const parts: Partial<GpuFacts> = {
    ...(userspace ? { userspace } : {}),
    kernelModule: probeKernelModule(mfs, LINUX_DRIVER_VERSION_FILE),
    ...(userspace ? { install: probeDriverInstall(mfs, userspace) } : {}),
  };
  return { parts, driver: kernel.version || !userspace ? kernel : { version: userspace.version, source: 'userspace library' } };
}

export async function probeGpu(host: Host, mfs: MachineFs, catalog?: Catalog): Promise<GpuFacts> {
  const { parts, driver: known } = linuxDriverParts(host, mfs, kernelDriver(host, mfs));
  const facts = await probeGpuWithSmi(host, mfs, known, catalog);
  return { ...facts, ...parts };
}

async function probeGpuWithSmi(host: Host, mfs: MachineFs, kernel: DriverFacts, catalog?: Catalog): Promise<GpuFacts> {
  const smi = nvidiaSmiCandidates(host.os, host.env)
    .map((c) => locateProgram(host, mfs, c))
    .find((c): c is string => c !== undefined);
  if (!smi) return { state: 'no-nvidia-smi', gpus: [], driver: kernel };

  let fields = FULL_QUERY;
  let r = await runProgram(host, mfs, smi, queryArgs(fields));
  let output = `${r.stdout}\n${r.stderr}`;
  let computeCapFieldMissing = false;
  if (/"compute_cap" is not a valid field/i.test(output)) {
    computeCapFieldMissing = true;
    fields = OLD_DRIVER_QUERY;
    r = await runProgram(host, mfs, smi, queryArgs(fields));
    output = `${r.stdout}\n${r.stderr}`;
  }
  const base = { nvidiaSmi: smi, computeCapFieldMissing: computeCapFieldMissing || undefined };
  if (r.exitCode === null) {
    return { ...base, state: 'could-not-collect', gpus: [], driver: kernel, evidence: gpuText.smiCouldNotRun(smi, r.failure) };
  }
  if (/couldn't communicate with the NVIDIA driver|Driver Not Loaded|Failed to initialize NVML/i.test(output)) {
    return { ...base, state: 'no-driver', gpus: [], driver: kernel, evidence: redactUuids(firstLine(output)) };
  }
  if (/No devices were found/i.test(output)) {
    return { ...base, state: 'no-devices', gpus: [], driver: kernel, evidence: redactUuids(firstLine(output)) };
  }
  const gpus = r.exitCode === 0 ? parseRows(r.stdout, fields) : undefined;
  if (!gpus) {
    return { ...base, state: 'could-not-collect', gpus: [], driver: kernel, evidence: redactUuids(firstLine(output)) || gpuText.smiPrintedNothing(smi, r.exitCode) };
  }
  for (const gpu of gpus) {
    if (gpu.computeCapability) continue;
    const cc = catalog ? computeCapabilityFromName(catalog, gpu.name)?.computeCapability : undefined;
    if (cc) Object.assign(gpu, { computeCapability: cc, computeCapabilitySource: 'name-table' });
  }
  const version = driverOf(r.stdout, fields);
  return { ...base, state: 'ok', gpus, driver: version ? { version, source: 'nvidia-smi' } : kernel };
}
