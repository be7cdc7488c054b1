// Load order as a remedy: the right copies win for the user's new shells. A per-user env script puts
// the right folders first on LD_LIBRARY_PATH and one line at the end of the shell's rc file sources
// it, after the user's own exports, so it wins over them without editing them. Per user only: no
// ld.so.conf.d file, no system-wide variable, so no other user's program changes what it loads, and
// no older copy of a soname goes ahead of the one the system already resolves (#26.3). Both writes go
// through the journal (`cudawiz rollback` undoes them); nothing cudawiz did not write is edited.
import { envText } from '../i18n/env.js';
import path from 'node:path';
import type { Host } from '../host.js';
import { shellRcFile } from '../platform.js';
import { envScriptFile, fileHead, rcSourceLine } from './linux-plan.js';
import { envPlaces, readLinuxEnvState } from './plan.js';
import { shDoubleQuoted, singleQuoted } from './shell-quote.js';
import { hasLine, withLineAppended } from './text-lines.js';
import type { EnvPlan, EnvPlaces, LinuxEnvState } from './types.js';

const p = path.posix;

export interface LoadOrderInput {
  /** The TensorFlow and CUDA the right copies are for (the script's name and head). */
  tf: string;
  cuda: string;
  /** The folders that must come first, in order. */
  dirs: string[];
  places: EnvPlaces;
  state: LinuxEnvState;
  env: Readonly<Record<string, string | undefined>>;
}

/** The line that puts `dirs` first in the current shell (what the new shells get from the script). */
export function loadOrderExportLine(dirs: string[], syntax: 'posix' | 'fish' = 'posix'): string {
  if (syntax === 'fish') return `set -gx LD_LIBRARY_PATH ${dirs.map((d) => singleQuoted(d, 'fish')).join(' ')} $LD_LIBRARY_PATH`;
  return `export LD_LIBRARY_PATH="${dirs.map(shDoubleQuoted).join(':')}\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`;
}

function scriptContent(input: LoadOrderInput, syntax: 'posix' | 'fish'): string {
  return `${fileHead(input)}${loadOrderExportLine(input.dirs, syntax)}\n`;
}

/** Decides the writes (pure): the env script, and the rc line that sources it after the user's own lines. */
export function planLoadOrder(input: LoadOrderInput): EnvPlan {
  const plan: EnvPlan = { os: 'linux', changes: [], notes: [], manual: [], refusals: [] };
  if (input.dirs.some((d) => /[\u0000-\u001f\u007f]/.test(d) || !p.isAbsolute(d))) {
    plan.refusals.push({ reason: envText.notPlainPath(JSON.stringify(input.dirs)), fix: envText.notPlainPathFix });
    return plan;
  }
  const rc = shellRcFile(input.state.shell, input.places.home, input.env);
  const syntax = rc?.syntax ?? 'posix';
  const script = envScriptFile(input.places.configDir, input.cuda, syntax);
  const content = scriptContent(input, syntax);
  const before = input.state.files[script] ?? null;
  const what = envText.forCuda(input.cuda, input.tf);
  if (before !== content) plan.changes.push({ kind: 'env-script', target: script, before, after: content, why: envText.whyScript(what) });
  if (!rc) {
    plan.notes.push(envText.shellUnsupported(input.state.shell));
    plan.manual.push(loadOrderExportLine(input.dirs));
    return plan;
  }
  const line = rcSourceLine(script, rc.syntax);
  const rcBefore = input.state.files[rc.file] ?? null;
  // Already sourced, and after every line of the user's: nothing to add. Sourced before a later
  // export of theirs: that export would win again, so the line goes (once more) at the end.
  const lines = (rcBefore ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const at = lines.lastIndexOf(line.trim());
  const laterExport = at >= 0 && lines.slice(at + 1).some((l) => /\bLD_LIBRARY_PATH\b/.test(l));
  if (hasLine(rcBefore, line) && !laterExport) {
    plan.notes.push(envText.alreadySources(rc.file, script));
    return plan;
  }
  plan.changes.push({ kind: 'rc-line', target: rc.file, before: rcBefore, after: withLineAppended(rcBefore, line), line, why: envText.whyRc(rc.shell) });
  return plan;
}

/** Reads the user's files, then plans. `root` (tests) puts cudawiz's config dir under a temp folder. */
export async function prepareLoadOrder(options: { host: Host; tf: string; cuda: string; dirs: string[]; root?: string }): Promise<{ plan: EnvPlan; places: EnvPlaces }> {
  const places = envPlaces({ host: options.host, root: options.root });
  const state = await readLinuxEnvState(options.host, places, options.cuda);
  return { plan: planLoadOrder({ tf: options.tf, cuda: options.cuda, dirs: options.dirs, places, state, env: options.host.env }), places };
}
