// WSL from inside Linux: which WSL, which Windows build, and the Windows driver that WSL lends to
// Linux (libcuda.so.1 and nvidia-smi under /usr/lib/wsl/lib). Never throws; unknowns stay undefined.
import { stepsText } from '../i18n/steps.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Host } from '../host.js';
import {
  LINUX_LD_SO_CONF_DIR,
  LINUX_DISTRO_LIBRARY_DIRS,
  WSL_ENV_MARKERS,
  WSL_KERNEL_FILES,
  WSL_LD_CONF,
  WSL_LIBRARY_DIR,
  WSL_MIN_WINDOWS_BUILD,
  WSL_WINDOWS_CMD,
  WSL_WINDOWS_DRIVE_MOUNT,
  driverLibraryFileName,
  splitPathList,
} from '../platform.js';
import { wslText } from '../i18n/wsl.js';

export interface WslProbeOptions {
  /** Where the machine's / is on this host (a fixture machine in a temp dir); default "/". */
  fsRoot?: string;
}

export interface WslProblem {
  id: 'wsl1' | 'windows-too-old' | 'no-wsl-libcuda' | 'nvidia-smi-failed' | 'linux-driver-inside-wsl' | 'wsl-lib-not-on-loader-path';
  message: string;
  fix: string;
  evidence?: string;
}

export interface WslFacts {
  isWsl: boolean;
  version?: 1 | 2;
  /** The kernel release: "5.15.90.1-microsoft-standard-WSL2". */
  kernel?: string;
  /** What said "WSL": the files and variables that carried the marker. */
  markers: string[];
  distro?: string;
  /** "10.0.19045.3803" and its build number 19045, when Windows could be asked or the kernel says. */
  windowsVersion?: string;
  windowsBuild?: number;
  windowsBuildSource?: 'cmd.exe ver' | 'kernel release';
  /** /usr/lib/wsl/lib: the Windows driver's libraries as WSL mounts them. */
  driverLibDir: string;
  /** That folder's libcuda.so.1, when present. */
  libcuda?: string;
  nvidiaSmi?: string;
  /** The Linux-side NVIDIA-SMI number (555.52.01) — not the driver's. */
  nvidiaSmiVersion?: string;
  /** The Windows driver's version as nvidia-smi's header says it ("Driver Version: 555.99"). */
  windowsDriverVersion?: string;
  /** The newest CUDA that driver runs ("12.5"); absent when nvidia-smi printed ERR!. */
  driverCudaVersion?: string;
  /** Inside WSL the driver is Windows': never offer a Linux driver here. */
  driverIsWindows: boolean;
  /** The one line the doctor/plan print instead of a Linux driver install. */
  driverFix?: string;
  problems: WslProblem[];
}

/** The one fix for the driver inside WSL, in the current language (read when a probe runs, never cached). */
export function wslDriverFix(): string {
  return wslText.driverFix;
}

function under(root: string, machinePath: string): string {
  return root === '/' ? machinePath : path.join(root, machinePath);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** "Linux version 5.15.90.1-microsoft-standard-WSL2 (…)" or the bare osrelease → the release. */
export function kernelRelease(text: string): string | undefined {
  const t = text.trim();
  const m = /^Linux version (\S+)/.exec(t);
  if (m) return m[1];
  return t && !/\s/.test(t) ? t : undefined;
}

/** WSL1's release is "4.4.0-<Windows build>-Microsoft"; WSL2's kernel is "…-microsoft-standard[-WSL2]". */
export function wslVersionFromKernel(release: string): { version?: 1 | 2; windowsBuild?: number } {
  const wsl1 = /^\d+\.\d+\.\d+-(\d{5})-Microsoft$/.exec(release);
  if (wsl1) return { version: 1, windowsBuild: Number(wsl1[1]) };
  if (/microsoft-standard|-WSL2/i.test(release)) return { version: 2 };
  return {};
}

/** "Microsoft Windows [Version 10.0.19045.3803]" → "10.0.19045.3803". */
export function parseWindowsVer(text: string): { version: string; build: number } | undefined {
  const m = /\[Version (\d+\.\d+\.(\d+)(?:\.\d+)?)\]/i.exec(text);
  return m ? { version: m[1], build: Number(m[2]) } : undefined;
}

/** nvidia-smi's header: "| NVIDIA-SMI 555.52.01   Driver Version: 555.99   CUDA Version: 12.5 |". */
export function parseSmiHeader(text: string): { smi?: string; driver?: string; cuda?: string } | undefined {
  const m = /NVIDIA-SMI\s+(\S+)\s+Driver Version:\s*(\S+)\s+CUDA Version:\s*(\S+)/.exec(text);
  if (!m) return undefined;
  return { smi: m[1], driver: m[2], cuda: /^\d+\.\d+$/.test(m[3]) ? m[3] : undefined };
}

function ldConfMentions(root: string, dir: string): string | undefined {
  const confDir = under(root, LINUX_LD_SO_CONF_DIR);
  let names: string[] = [];
  try {
    names = fs.readdirSync(confDir).filter((n) => n.endsWith('.conf')).sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    const lines = (readText(path.join(confDir, name)) ?? '').split(/\r?\n/).map((l) => l.trim());
    if (lines.includes(dir) || lines.includes(`${dir}/`)) return path.posix.join(LINUX_LD_SO_CONF_DIR, name);
  }
  return undefined;
}

/** A real libcuda.so.1 (not a link into WSL's folder) where a Linux driver package would put it. */
function strayLinuxLibcuda(root: string): string | undefined {
  const file = driverLibraryFileName('linux');
  for (const dir of LINUX_DISTRO_LIBRARY_DIRS) {
    const p = under(root, path.posix.join(dir, file));
    try {
      const real = fs.realpathSync(p);
      const wslDir = under(root, WSL_LIBRARY_DIR);
      if (!real.startsWith(wslDir + path.sep) && real !== wslDir) return path.posix.join(dir, file);
    } catch {
      // not there
    }
  }
  return undefined;
}

async function askWindowsBuild(host: Host, root: string): Promise<{ version: string; build: number } | undefined> {
  const cwd = under(root, WSL_WINDOWS_DRIVE_MOUNT);
  for (const cmd of WSL_WINDOWS_CMD) {
    const file = cmd.startsWith('/') ? under(root, cmd) : cmd;
    if (cmd.startsWith('/') && !exists(file)) continue;
    // Run from a Windows drive: from a Linux folder cmd.exe first warns that UNC paths are unsupported.
    const r = await host.run(file, ['/c', 'ver'], { cwd: exists(cwd) ? cwd : undefined, timeoutMs: 10_000 });
    const parsed = r.exitCode === 0 ? parseWindowsVer(r.stdout) : undefined;
    if (parsed) return parsed;
  }
  return undefined;
}

export async function probeWsl(host: Host, options: WslProbeOptions = {}): Promise<WslFacts> {
  const root = options.fsRoot ?? '/';
  const facts: WslFacts = { isWsl: false, markers: [], driverLibDir: WSL_LIBRARY_DIR, driverIsWindows: false, problems: [] };
  if (host.os !== 'linux') return facts;

  for (const file of WSL_KERNEL_FILES) {
    const text = readText(under(root, file));
    const release = text ? kernelRelease(text) : undefined;
    if (release && !facts.kernel) facts.kernel = release;
    if (text && /microsoft/i.test(text)) facts.markers.push(file);
  }
  for (const name of WSL_ENV_MARKERS) if (host.env[name]) facts.markers.push(`$${name}`);
  const libDir = under(root, WSL_LIBRARY_DIR);
  if (exists(libDir)) facts.markers.push(WSL_LIBRARY_DIR);
  // A Microsoft kernel or WSL's own variables decide; the library folder alone could be a copy.
  facts.isWsl = facts.markers.some((m) => m !== WSL_LIBRARY_DIR);
  if (!facts.isWsl) {
    facts.markers = [];
    return facts;
  }
  facts.distro = host.env.WSL_DISTRO_NAME || undefined;
  facts.driverIsWindows = true;
  facts.driverFix = wslDriverFix();

  const fromKernel = facts.kernel ? wslVersionFromKernel(facts.kernel) : {};
  facts.version = fromKernel.version ?? (host.env.WSL_INTEROP ? 2 : undefined);
  if (fromKernel.windowsBuild) {
    facts.windowsBuild = fromKernel.windowsBuild;
    facts.windowsBuildSource = 'kernel release';
  }
  const ver = await askWindowsBuild(host, root);
  if (ver) Object.assign(facts, { windowsVersion: ver.version, windowsBuild: ver.build, windowsBuildSource: 'cmd.exe ver' as const });

  if (facts.version === 1) {
    facts.problems.push({
      id: 'wsl1',
      message: wslText.wsl1,
      fix: wslText.wsl1Fix(facts.distro),
      evidence: facts.kernel,
    });
  }
  if (facts.windowsBuild !== undefined && facts.windowsBuild < WSL_MIN_WINDOWS_BUILD) {
    facts.problems.push({
      id: 'windows-too-old',
      message: wslText.windowsTooOld(facts.windowsBuild, WSL_MIN_WINDOWS_BUILD),
      fix: wslText.windowsTooOldFix,
      evidence: facts.windowsVersion ?? facts.kernel,
    });
  }

  const libcuda = path.posix.join(WSL_LIBRARY_DIR, driverLibraryFileName('linux'));
  if (exists(under(root, libcuda))) facts.libcuda = libcuda;
  else {
    facts.problems.push({
      id: 'no-wsl-libcuda',
      message: wslText.noLibcuda(libcuda),
      fix: wslDriverFix(),
    });
  }

  const smi = path.posix.join(WSL_LIBRARY_DIR, 'nvidia-smi');
  if (exists(under(root, smi))) {
    facts.nvidiaSmi = smi;
    const r = await host.run(under(root, smi), [], { timeoutMs: 20_000 });
    const header = parseSmiHeader(r.stdout);
    if (header) {
      facts.nvidiaSmiVersion = header.smi;
      facts.windowsDriverVersion = header.driver;
      facts.driverCudaVersion = header.cuda;
    } else {
      const said = `${r.stdout}\n${r.stderr}`.trim().split(/\r?\n/)[0] ?? '';
      facts.problems.push({
        id: 'nvidia-smi-failed',
        message: wslText.smiFailed(smi, r.exitCode === null ? r.failure ?? stepsText.couldNotRun : stepsText.exitCode(r.exitCode)),
        fix: wslText.smiFailedFix(wslDriverFix()),
        evidence: said || undefined,
      });
    }
  }

  const stray = strayLinuxLibcuda(root);
  if (stray) {
    facts.problems.push({
      id: 'linux-driver-inside-wsl',
      message: wslText.linuxDriverInside(stray, libcuda),
      fix: wslText.linuxDriverInsideFix,
      evidence: stray,
    });
  }

  const onLdPath = splitPathList('linux', host.env.LD_LIBRARY_PATH).some((d) => d.replace(/\/+$/, '') === WSL_LIBRARY_DIR);
  if (facts.libcuda && !onLdPath && !ldConfMentions(root, WSL_LIBRARY_DIR)) {
    facts.problems.push({
      id: 'wsl-lib-not-on-loader-path',
      message: wslText.notOnLoaderPath(WSL_LIBRARY_DIR, LINUX_LD_SO_CONF_DIR),
      fix: wslText.notOnLoaderPathFix(WSL_LIBRARY_DIR, WSL_LD_CONF),
    });
  }
  return facts;
}
