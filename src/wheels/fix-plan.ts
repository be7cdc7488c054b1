// The plan for putting the wheels' site-packages/nvidia/*/lib folders on the loader path of a virtual
// environment: a marked block for DIR/bin/activate, as data (read-only; the probe and the doctor read it).
// Writing it, with consent, and undoing it live in src/pip/wheel-fix.ts.
import fs from 'node:fs';
import path from 'node:path';
import { pipText } from '../i18n/pip.js';
import { librarySearchVar, venvActivateScript } from '../platform.js';
import { wheelLoaderFact } from './loader-facts.js';
import type { PipCudaFacts } from './facts.js';
import { venvLoaderContent, venvLoaderFile } from './venv-loader.js';

export const FIX_BEGIN = "# >>> cudawiz: TensorFlow's pip-installed CUDA libraries on the loader path (delete this block to undo) >>>";
export const FIX_END = '# <<< cudawiz <<<';
/** Beside the activate script's venv: what was added, so undo removes exactly that. */
export const FIX_RECORD = '.cudawiz-wheel-library-fix.json';

export interface WheelLibraryFix {
  venv?: string;
  activateScript?: string;
  /** Wheel library folders the activated environment's loader does not search. */
  missingDirs: string[];
  /** All wheel library folders, in the order the block puts them first on LD_LIBRARY_PATH. */
  dirs: string[];
  /** true when this TF is known to need it, or its own log shows a wheel library it could not load. */
  needed: boolean;
  /** true when folders are missing: harmless and worth doing even where not known to be needed. */
  recommended: boolean;
  /** The activate block and the loader file are both there: activated or not, the venv's python finds the wheels. */
  alreadyApplied: boolean;
  /** The marked block is in bin/activate (an activated shell finds the wheels). */
  blockApplied: boolean;
  /** The venv's loader file (src/wheels/venv-loader.ts): where it goes, what it holds, and whether the venv's python, run directly, has it. */
  loaderFile?: string;
  loaderContent: string;
  loaderInPlace: boolean;
  /** The fix lives only in bin/activate: the venv's python run without activation (cron, an IDE, venv/bin/python x.py) still misses the wheels. */
  activatedOnly: boolean;
  why: string[];
  /** The exact lines appended to the activate script. */
  lines: string[];
  /** TF's pip guide's other way: links to the libraries inside site-packages/tensorflow. */
  alternative: { method: 'symlink'; commands: string[] };
  /** Why it cannot be applied here (not a venv); the lines can still be added to a shell profile by hand. */
  blocker?: string;
}


export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function fixLines(dirs: string[]): string[] {
  const v = librarySearchVar('linux');
  // Prepending in reverse keeps the listed order first; the case guard keeps re-activation idempotent.
  return [
    FIX_BEGIN,
    `for _cudawiz_dir in ${[...dirs].reverse().map(quote).join(' ')}; do`,
    `    case ":\${${v}-}:" in`,
    `        *":$_cudawiz_dir:"*) ;;`,
    `        *) ${v}="$_cudawiz_dir\${${v}:+:$${v}}" ;;`,
    '    esac',
    'done',
    'unset _cudawiz_dir',
    `export ${v}`,
    FIX_END,
  ];
}

/** Library names TF's log says it could not load (dso_loader: "Could not load dynamic library 'libcudnn.so.8'"). */
function unloadedLibraries(log: string): string[] {
  return [...log.matchAll(/Could not load dynamic library '([^']+)'/g)].map((m) => m[1]);
}

export function planWheelLibraryFix(env: PipCudaFacts, options: { importLog?: string } = {}): WheelLibraryFix {
  const dirs = env.libDirs;
  const searched = new Set((env.loaderPath.whenActivated ?? env.loaderPath.current).map((d) => path.resolve(d)));
  const missingDirs = dirs.filter((d) => !searched.has(path.resolve(d)));
  const activateScript = env.venv ? venvActivateScript('linux', env.venv) : undefined;
  let script = '';
  try {
    script = activateScript ? fs.readFileSync(activateScript, 'utf8') : '';
  } catch {
    // unreadable: the blocker below says so
  }
  const why: string[] = [];
  const fact = wheelLoaderFact(env.tensorflow?.version);
  if (fact && dirs.length) why.push(pipText.factLine(env.tensorflow!.version, pipText.factWhy(fact), fact.source));
  const libs = new Map(env.packages.flatMap((p) => p.libraries.map((l) => [l, p] as const)));
  const unloaded = unloadedLibraries(options.importLog ?? '').filter((l) => libs.has(l) && missingDirs.includes(libs.get(l)!.libDir!));
  if (unloaded.length) why.push(pipText.couldNotLoad(unloaded));
  if (missingDirs.length && !why.length) why.push(pipText.notOnLoaderPath);
  const site = dirs[0] ? path.dirname(path.dirname(path.dirname(dirs[0]))) : undefined;
  const blockApplied = script.includes(FIX_BEGIN);
  const preloaded = new Set((env.preloadDirs ?? []).map((d) => path.resolve(d)));
  const loaderInPlace = dirs.length > 0 && dirs.every((d) => preloaded.has(path.resolve(d)));
  // Known to be needed, and only an activated shell has it: a direct run of the venv's python misses the wheels.
  const activatedOnly = blockApplied && !loaderInPlace && dirs.length > 0 && fact?.need === 'needed';
  if (activatedOnly) why.push(pipText.onlyWhenActivated(activateScript ?? ''));
  const blocker = !env.venv
    ? pipText.notVenvPython(env.python)
    : activateScript && !script
      ? pipText.cannotRead(activateScript)
      : undefined;
  return {
    venv: env.venv,
    activateScript,
    missingDirs,
    dirs,
    needed: (missingDirs.length > 0 && (fact?.need === 'needed' || unloaded.length > 0)) || activatedOnly,
    recommended: missingDirs.length > 0 || activatedOnly,
    alreadyApplied: blockApplied && (loaderInPlace || !env.venv),
    blockApplied,
    loaderFile: env.venv && dirs[0] ? venvLoaderFile(dirs[0]) : undefined,
    loaderContent: venvLoaderContent(dirs),
    loaderInPlace,
    activatedOnly,
    why,
    lines: fixLines(dirs),
    alternative: {
      method: 'symlink',
      commands: site ? [`cd ${quote(path.join(site, 'tensorflow'))}`, `ln -svf ../${'nvidia'}/*/lib/*.so* .`] : [],
    },
    blocker,
  };
}

