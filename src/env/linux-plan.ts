// Linux: which writes make TF's libraries findable — an ld.so.conf.d file + ldconfig for a system
// toolkit installed as root, an env script (+ one rc line) for a toolkit under the user's home.
import { envText } from '../i18n/env.js';
import path from 'node:path';
import { compareDotted } from '../version.js';
import { CUDAWIZ_FILE_MARK, ldSoConfFileName, shellRcFile, splitPathList, toolkitSubdirs } from '../platform.js';
import { shDoubleQuoted, singleQuoted } from './shell-quote.js';
import { hasLine, withLineAppended } from './text-lines.js';
import type { EnvChange, EnvPlan, EnvPlanInput, LinuxEnvState, ToolkitLibraries } from './types.js';

const p = path.posix;

function libraryDirs(toolkitDir: string): string[] {
  const sub = toolkitSubdirs('linux');
  return [p.join(toolkitDir, sub.lib), p.join(toolkitDir, sub.cupti)];
}

/** Directories an ld.so.conf.d file lists (comments and `include` lines skipped). */
export function confDirs(content: string): string[] {
  return content
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('include '))
    .map((l) => l.replace(/\/+$/, ''));
}

interface Conflict {
  other: ToolkitLibraries;
  files: string[];
}

/** Other toolkits that provide a file TF needs from the chosen one (libcublas.so.10 from 10.1 and 10.2). */
function conflicts(input: EnvPlanInput): Conflict[] {
  const mine = input.toolkits.find((t) => t.dir === input.toolkitDir);
  // Before the toolkit is installed (a dry run) it holds nothing yet: count every file TF needs.
  const needed = new Set(mine?.files.length ? mine.files : input.requiredFiles);
  return input.toolkits
    .filter((t) => t.dir !== input.toolkitDir)
    .map((other) => ({ other, files: other.files.filter((f) => needed.has(f)) }))
    .filter((c) => c.files.length > 0);
}

function forWhat(input: EnvPlanInput): string {
  return envText.forCuda(input.cuda, input.tf);
}

/** The comment heading a file cudawiz writes: English in every language, so a run in another language finds the file unchanged. */
export function fileHead(input: { tf?: string; cuda?: string; cudnn?: string }): string {
  const what = input.cudnn ? `cuDNN ${input.cudnn}` : `CUDA ${input.cuda}`;
  return `${CUDAWIZ_FILE_MARK}: ${input.tf ? `${what} for TensorFlow ${input.tf}` : what}. \`cudawiz rollback\` removes it.\n`;
}

function conflictNote(input: EnvPlanInput, c: Conflict, where: string): string {
  return envText.conflictNote(c.other.version, c.other.dir, c.files.join(', '), where, input.cuda, envText.theTf(input.tf));
}

function planSystemConf(input: EnvPlanInput, state: LinuxEnvState, plan: EnvPlan): void {
  const dirs = libraryDirs(input.toolkitDir);
  const found = conflicts(input);
  // conf files that give a conflicting toolkit's libraries to the loader
  const rivals = state.ldSoConf.filter((f) => found.some((c) => confDirs(f.content).some((d) => libraryDirs(c.other.dir).includes(d))));
  // Never shadow the system's copy globally (#26.3): where the system already resolves a newer copy of
  // a soname TF takes from this toolkit, a conf file sorted ahead would hand every program on the
  // machine the older one. The second copy is found per user instead, and the plan says so.
  const newerResolved = found.filter((c) => compareDotted(c.other.version, input.cuda) > 0 && rivals.some((r) => confDirs(r.content).some((d) => libraryDirs(c.other.dir).includes(d))));
  if (newerResolved.length) {
    for (const c of newerResolved) plan.notes.push(envText.perUserNotGlobal(c.other.version, c.files.join(', '), input.cuda));
    planUserScript(input, state, plan);
    return;
  }
  const ours = [ldSoConfFileName(input.cuda), ldSoConfFileName(input.cuda, true)].find((name) => rivals.every((r) => name < r.name));
  if (!ours) {
    plan.refusals.push({
      reason: envText.rivalsAhead(rivals.map((r) => r.name).join(', '), input.places.ldSoConfDir),
      fix: envText.rivalsAheadFix(rivals.map((r) => p.join(input.places.ldSoConfDir, r.name)).join(', ')),
    });
    return;
  }
  for (const c of found) plan.notes.push(conflictNote(input, c, rivals.length ? envText.namingFile(ours, rivals.map((r) => r.name).join(', ')) : envText.theConfFile));
  const otherCudawizName = [ldSoConfFileName(input.cuda), ldSoConfFileName(input.cuda, true)].find((n) => n !== ours)!;
  const existing = state.ldSoConf.find((f) => f.name === ours);
  const listedElsewhere = state.ldSoConf.some((f) => f.name !== otherCudawizName && dirs.every((d) => confDirs(f.content).includes(d)) && rivals.every((r) => f.name < r.name));
  const content = `${fileHead(input)}${dirs.join('\n')}\n`;
  if (listedElsewhere && !existing) {
    plan.notes.push(envText.alreadyLists(input.places.ldSoConfDir, dirs));
    return;
  }
  if (existing?.content === content) {
    plan.notes.push(envText.alreadyInPlace(p.join(input.places.ldSoConfDir, ours)));
    return;
  }
  plan.changes.push({
    kind: 'ld-so-conf',
    target: p.join(input.places.ldSoConfDir, ours),
    before: existing?.content ?? null,
    after: content,
    why: envText.whyConf(forWhat(input)),
  });
  plan.changes.push({
    kind: 'ldconfig',
    target: 'ld.so.cache',
    before: null,
    after: null,
    command: { file: 'ldconfig', args: [] },
    why: envText.whyLdconfig,
    libraries: input.requiredFiles,
  });
  const ldPath = splitPathList('linux', state.ldLibraryPath);
  for (const c of found) {
    const shadow = ldPath.find((d) => libraryDirs(c.other.dir).includes(d.replace(/\/+$/, '')));
    if (shadow) plan.notes.push(envText.ldPathShadow(shadow, c.other.version));
  }
}

function envScriptContent(input: EnvPlanInput, syntax: 'posix' | 'fish'): string {
  const [lib, cupti] = libraryDirs(input.toolkitDir);
  const bin = p.join(input.toolkitDir, toolkitSubdirs('linux').bin);
  const head = fileHead(input);
  if (syntax === 'fish') {
    const q = (s: string) => singleQuoted(s, 'fish');
    return `${head}set -gx PATH ${q(bin)} $PATH\nset -gx LD_LIBRARY_PATH ${q(lib)} ${q(cupti)} $LD_LIBRARY_PATH\n`;
  }
  const d = shDoubleQuoted;
  return `${head}export PATH="${d(bin)}\${PATH:+:\${PATH}}"\nexport LD_LIBRARY_PATH="${d(lib)}:${d(cupti)}\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"\n`;
}

/** The line an rc file gets: source the script only if it is still there. */
export function rcSourceLine(script: string, syntax: 'posix' | 'fish'): string {
  const q = singleQuoted(script, syntax);
  return syntax === 'fish' ? `test -f ${q}; and source ${q}  # cudawiz` : `[ -f ${q} ] && . ${q}  # cudawiz`;
}

/** The env script's path for a toolkit, per shell syntax. */
export function envScriptFile(configDir: string, cuda: string, syntax: 'posix' | 'fish'): string {
  return p.join(configDir, `env-cuda-${cuda}.${syntax === 'fish' ? 'fish' : 'sh'}`);
}

function planUserScript(input: EnvPlanInput, state: LinuxEnvState, plan: EnvPlan): void {
  const rc = shellRcFile(state.shell, input.places.home, input.env);
  const syntax = rc?.syntax ?? 'posix';
  const script = envScriptFile(input.places.configDir, input.cuda, syntax);
  const content = envScriptContent(input, syntax);
  const before = state.files[script] ?? null;
  if (before !== content) {
    plan.changes.push({ kind: 'env-script', target: script, before, after: content, why: envText.whyScript(forWhat(input)) });
  }
  for (const c of conflicts(input)) plan.notes.push(conflictNote(input, c, envText.theEnvScript));
  if (!rc) {
    plan.notes.push(envText.shellUnsupported(state.shell));
    plan.manual.push(...content.split('\n').filter((l) => l && !l.startsWith('#')));
    return;
  }
  const line = rcSourceLine(script, rc.syntax);
  const rcBefore = state.files[rc.file] ?? null;
  if (hasLine(rcBefore, line)) {
    plan.notes.push(envText.alreadySources(rc.file, script));
    return;
  }
  if (input.rcLine === false) {
    plan.manual.push(envText.addTo(rc.file), line);
    return;
  }
  plan.changes.push({ kind: 'rc-line', target: rc.file, before: rcBefore, after: withLineAppended(rcBefore, line), line, why: envText.whyRc(rc.shell) });
}

/** The shell line that writes an ld.so.conf.d file as root. */
export function sudoWriteConfLine(conf: string, dirs: string[]): string {
  return `printf '%s\\n' ${dirs.map((d) => singleQuoted(d, 'posix')).join(' ')} | sudo tee ${singleQuoted(conf, 'posix')}`;
}

function planManual(input: EnvPlanInput, state: LinuxEnvState, plan: EnvPlan): void {
  const dirs = libraryDirs(input.toolkitDir);
  // Already listed by an ld.so.conf.d file (an admin did it): nothing for root to do, and that is true.
  if (state.ldSoConf.some((f) => dirs.every((d) => confDirs(f.content).includes(d)))) {
    plan.notes.push(envText.alreadyLists(input.places.ldSoConfDir, dirs));
    return;
  }
  const conf = p.join(input.places.ldSoConfDir, ldSoConfFileName(input.cuda));
  plan.notes.push(envText.systemFolderNotRoot(input.toolkitDir));
  plan.manual.push(sudoWriteConfLine(conf, dirs), 'sudo ldconfig');
}

/** A folder name that would break the lines written from it: a newline in ld.so.conf.d is a second directive. */
function unsafeToolkitDir(dir: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(dir);
}

export function planLinuxEnv(input: EnvPlanInput, plan: EnvPlan): void {
  const state: LinuxEnvState = input.linux ?? { ldSoConf: [], files: {} };
  if (unsafeToolkitDir(input.toolkitDir) || !p.isAbsolute(input.toolkitDir)) {
    plan.refusals.push({ reason: envText.notPlainPath(JSON.stringify(input.toolkitDir)), fix: envText.notPlainPathFix });
    return;
  }
  const home = input.places.home.replace(/\/+$/, '');
  const underHome = input.toolkitDir === home || input.toolkitDir.startsWith(`${home}/`);
  if (underHome || input.forUser) planUserScript(input, state, plan);
  else if (input.elevated) planSystemConf(input, state, plan);
  else planManual(input, state, plan);
}
