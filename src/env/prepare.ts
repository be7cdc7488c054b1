// One call for the plan runner and the wizard: read this machine's facts, then plan.
import { envText } from '../i18n/env.js';
import type { Host } from '../host.js';
import { listToolkitLibraries, envPlaces, planEnvChanges, readLinuxEnvState, readWindowsEnvState, describeEnvChange } from './plan.js';
import { confDirs, sudoWriteConfLine } from './linux-plan.js';
import type { EnvPlan, EnvPlaces } from './types.js';
import { stepsText } from '../i18n/steps.js';
import { untrustedLoaderFolder } from '../trust/loader-folder.js';

export interface PrepareEnvOptions {
  host: Host;
  tf?: string;
  /** CUDA major.minor the chosen TF needs. */
  cuda: string;
  toolkitDir: string;
  /** TF's library files from a toolkit or cuDNN: requirementsFor(...).libraries without the driver's. */
  requiredFiles: string[];
  /** Every toolkit found on the machine (the chosen one may be left out; it is added). */
  toolkits: { version: string; dir: string }[];
  elevated: boolean;
  rcLine?: boolean;
  /** Linux: this user's env script wherever the toolkit is (EnvPlanInput.forUser). */
  forUser?: boolean;
  /** What to run again as an administrator when only one may make the change (EnvPlanInput.rerunCommand). */
  rerunCommand?: string;
  /** Tests: put ld.so.conf.d and the config dir under this folder. */
  root?: string;
  configDir?: string;
}

export async function prepareEnvPlan(options: PrepareEnvOptions): Promise<{ plan: EnvPlan; places: EnvPlaces }> {
  const { host } = options;
  const places = envPlaces({ host, root: options.root, configDir: options.configDir });
  const all = options.toolkits.some((t) => t.dir === options.toolkitDir) ? options.toolkits : [{ version: options.cuda, dir: options.toolkitDir }, ...options.toolkits];
  const toolkits = await listToolkitLibraries(host.os, all, options.requiredFiles);
  const plan = planEnvChanges({
    os: host.os,
    tf: options.tf,
    cuda: options.cuda,
    toolkitDir: options.toolkitDir,
    requiredFiles: options.requiredFiles,
    toolkits,
    elevated: options.elevated,
    env: host.env,
    places,
    linux: host.os === 'linux' ? await readLinuxEnvState(host, places, options.cuda) : undefined,
    windows: host.os === 'windows' ? await readWindowsEnvState(host) : undefined,
    rcLine: options.rcLine,
    forUser: options.forUser,
    rerunCommand: options.rerunCommand,
  });
  await refuseUntrustedLoaderFolders(plan);
  return { plan, places };
}

/**
 * A system loader file that would name a folder another user can change is not written: the plan's
 * writes are dropped and it stops with the reason and the fix (the dry run shows the same stop).
 */
export async function refuseUntrustedLoaderFolders(plan: EnvPlan): Promise<void> {
  const named = plan.changes.filter((c) => c.kind === 'ld-so-conf' && c.after !== null).flatMap((c) => confDirs(c.after ?? ''));
  const untrusted = await untrustedLoaderFolder(named);
  if (!untrusted) return;
  plan.changes = [];
  plan.refusals.push({ reason: untrusted.reason, fix: untrusted.fix });
}

/** The whole plan as plain lines, for --dry-run and the wizard's confirmation screen. */
export function describeEnvPlan(plan: EnvPlan): string[] {
  const lines: string[] = [];
  if (plan.changes.length === 0 && plan.refusals.length === 0) lines.push(envText.noChangeNeeded);
  plan.changes.forEach((c, i) => lines.push(...describeEnvChange(c).map((l, j) => (j === 0 ? `${i + 1}. ${l}` : `   ${l}`))));
  for (const r of plan.refusals) lines.push(envText.notChanged(r.reason), envText.fixLine(r.fix));
  for (const n of plan.notes) lines.push(envText.noteLine(n));
  if (plan.manual.length > 0) lines.push(envText.doItYourself, ...plan.manual.map((m) => `  ${m}`));
  return lines;
}

/** The exact lines that would make the same changes by hand, for a user who said no (--configure-env no). */
export function envLinesToRunYourself(plan: EnvPlan): string[] {
  const out = [...plan.manual];
  for (const c of plan.changes) {
    if (c.kind === 'ld-so-conf') out.push(sudoWriteConfLine(c.target, confDirs(c.after ?? '')));
    else if (c.kind === 'ldconfig') out.push('sudo ldconfig');
    else if (c.kind === 'env-script') {
      // With no known shell the plan's manual lines are already these exports: say them once.
      const lines = (c.after ?? '').split('\n').filter((l) => l && !l.startsWith('#') && !out.includes(l));
      if (lines.length) out.push(stepsText.addToStartup, ...lines);
    }
    else if (c.kind === 'windows-path') out.push(envText.inPowershell(c.target === 'Machine'), c.command?.script ?? '');
    // rc-line: the startup-file lines above replace the line that would source the script.
  }
  return out;
}
