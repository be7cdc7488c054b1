// Windows: TF finds its DLLs through PATH, so the right toolkit's bin (and CUPTI) must come before
// every other folder holding a DLL of the same name; the persisted PATH is what new processes get.
import { cliText } from '../i18n/cli.js';
import { envText } from '../i18n/env.js';
import path from 'node:path';
import { elevationHint, envGet, splitPathList, toolkitSubdirs, WINDOWS_ENV_VALUE_MAX, WINDOWS_ENV_VALUE_MAX_SOURCE, type WindowsEnvScope } from '../platform.js';
import { expandWindowsVars, persistedPathChange } from './windows-path.js';
import type { EnvPlan, EnvPlanInput, WindowsEnvState } from './types.js';
import { stepsText } from '../i18n/steps.js';
import { untrustedMachinePathFolder } from '../trust/loader-folder.js';

const w = path.win32;

interface PathEntry {
  raw: string;
  dir: string;
  scope: WindowsEnvScope;
}

/** %VAR% expanded from the environment, case folded, no trailing backslash: how Windows compares folders. */
export function normalizeWindowsDir(raw: string, env: EnvPlanInput['env']): string {
  return w.normalize(expandWindowsVars(raw, env)).replace(/\\+$/, '').toLowerCase();
}

function entries(state: WindowsEnvState, env: EnvPlanInput['env']): PathEntry[] {
  // Windows builds a new process's PATH as the machine Path followed by the user Path.
  return (['Machine', 'User'] as const).flatMap((scope) =>
    splitPathList('windows', state.persisted[scope]?.value).map((raw) => ({ raw, dir: normalizeWindowsDir(raw, env), scope })),
  );
}

/** Read in the run's language at each use. */
export const restartNotice = () => envText.restart;

/**
 * What this process's PATH lacks or orders differently from the saved one. Folders a shell adds for
 * itself (conda activate, a venv) are not differences: only the saved folders are compared.
 */
function staleInProcess(processDirs: string[], persisted: PathEntry[]): { missing: string[]; reordered: boolean } {
  const have = new Set(processDirs);
  const missing = [...new Set(persisted.filter((e) => !have.has(e.dir)).map((e) => e.raw))];
  const saved = [...new Set(persisted.map((e) => e.dir))].filter((d) => have.has(d));
  const seen = [...new Set(processDirs.filter((d) => saved.includes(d)))];
  return { missing, reordered: seen.some((d, i) => d !== saved[i]) };
}

export function planWindowsEnv(input: EnvPlanInput, plan: EnvPlan): void {
  const state = input.windows ?? { processPath: '', persisted: {}, unreadable: [] };
  const norm = (raw: string) => normalizeWindowsDir(raw, input.env);
  const sub = toolkitSubdirs('windows');
  const bin = w.join(input.toolkitDir, sub.bin);
  const cupti = w.join(input.toolkitDir, sub.cupti);
  const mine = [norm(bin), norm(cupti)];
  const list = entries(state, input.env);

  const cudaPath = envGet('windows', input.env, 'CUDA_PATH');
  if (cudaPath && norm(cudaPath) !== norm(input.toolkitDir)) {
    plan.notes.push(envText.cudaPathIgnored(cudaPath));
  }
  if (state.unreadable.length > 0) {
    plan.refusals.push({ reason: stepsText.savedPathUnreadable(cliText.semicolons(state.unreadable)), fix: stepsText.savedPathFix });
    return;
  }
  const persistedDirs = list.map((e) => e.dir);
  const processDirs = splitPathList('windows', state.processPath).map(norm);
  const stale = staleInProcess(processDirs, list);
  if (stale.missing.length > 0 || stale.reordered) {
    const what = stale.missing.length > 0 ? envText.lacks(stale.missing.slice(0, 3).join(', '), Math.max(0, stale.missing.length - 3)) : envText.otherOrder;
    plan.notes.push(envText.windowDiffers(what, restartNotice()));
  }

  // Which folder each required DLL loads from now, in the order new processes will search.
  const providers = (file: string) => new Set(input.toolkits.filter((t) => t.files.some((f) => f.toLowerCase() === file.toLowerCase())).map((t) => norm(w.join(t.dir, sub.bin))));
  const shadowing: { file: string; by: PathEntry }[] = [];
  for (const file of input.requiredFiles) {
    const from = providers(file);
    const first = list.find((e) => from.has(e.dir));
    if (first && first.dir !== mine[0]) shadowing.push({ file, by: first });
  }
  const missing = [bin, cupti].filter((d) => !persistedDirs.includes(norm(d)));
  if (shadowing.length === 0 && missing.length === 0) {
    plan.notes.push(envText.allResolve(bin));
    return;
  }

  // The user Path comes after the machine one, so a shadowing machine entry can only be beaten there.
  const rivalsInMachine = list.some((e) => e.scope === 'Machine' && !mine.includes(e.dir) && input.requiredFiles.some((f) => providers(f).has(e.dir)));
  const scope: WindowsEnvScope = input.elevated || rivalsInMachine ? 'Machine' : 'User';
  for (const s of shadowing) {
    plan.notes.push(envText.movingAhead(s.file, s.by.raw, s.by.scope, bin, envText.theTf(input.tf), input.cuda));
  }
  if (scope === 'Machine' && !input.elevated) {
    plan.refusals.push({
      reason: envText.machinePathFirst(shadowing.map((s) => s.by.raw).join(', ')),
      fix: elevationHint('windows', input.rerunCommand ?? `cudawiz install --tf ${input.tf ?? '<version>'} --configure-env yes`),
    });
    return;
  }
  if (scope === 'Machine') {
    // Root never hands others' folders to every program (#37 item 5): a Machine PATH entry only for a
    // folder ordinary users cannot write (Windows' defaults, as data: trust/loader-folder.ts).
    const untrusted = untrustedMachinePathFolder(expandWindowsVars(input.toolkitDir, input.env), input.env);
    if (untrusted) {
      plan.refusals.push(untrusted);
      return;
    }
  }
  const old = state.persisted[scope] ?? { value: '', kind: 'REG_EXPAND_SZ' as const };
  const own = list.filter((e) => e.scope === scope);
  // Keep the user's own spelling of our folders (e.g. %CUDA_PATH_V10_1%\bin) when they are already listed.
  const spelled = (dir: string) => own.find((e) => e.dir === norm(dir))?.raw ?? dir;
  const rest = own.filter((e) => !mine.includes(e.dir)).map((e) => e.raw);
  const value = [spelled(bin), spelled(cupti), ...rest].join(';');
  if (value.length > WINDOWS_ENV_VALUE_MAX) {
    plan.refusals.push({
      reason: envText.pathTooLong(scope, value.length, WINDOWS_ENV_VALUE_MAX, WINDOWS_ENV_VALUE_MAX_SOURCE),
      fix: envText.pathTooLongFix(scope),
    });
    return;
  }
  plan.changes.push(persistedPathChange(scope, old, value, envText.whyWindowsPath(bin, scope)));
  plan.notes.push(envText.afterPathChange(restartNotice()));
}
