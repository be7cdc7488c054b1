// pip's own errors, pasted into explain as often as TensorFlow's: the tensorflow-gpu package that ended,
// a Python no TensorFlow wheel is built for, a wheel for another platform, a 32-bit Python.
import { andCudaRequirement, findTfRow, pythonRange } from '../catalog/queries.js';
import type { Catalog, TfRow } from '../catalog/schema.js';
import { doctorText, explainText as T } from '../i18n/doctor.js';
import { compareDotted, inRange, majorMinor } from '../version.js';
import type { ExplainFinding, FixContext } from './explain-finding.js';
import { loggedPythonVersion, logSays32BitPython } from './log-signals.js';

// pip ≥ 20: "ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.12.0 (from versions: none)";
// older pip: "Could not find a version that satisfies the requirement tensorflow-gpu (from versions: )".
const NO_VERSION = /Could not find a version that satisfies the requirement ([A-Za-z0-9_.-]+)(?:\[[\w,-]+\])?\s*(?:(==|>=|<=|~=|<|>)\s*([\w.*]+))?.*?\(from versions: ([^)]*)\)/;
const NO_MATCH = /No matching distribution found for ([A-Za-z0-9_.-]+)(?:\[[\w,-]+\])?\s*(?:(==|>=|<=|~=|<|>)\s*([\w.*]+))?/;
// The tensorflow-gpu placeholder sdist (2.11+, from December 2022) raises this in setup.py.
const GPU_REMOVED = /The "(tensorflow-gpu|tf-nightly-gpu)" package has been removed!/;
// The run before the words starts at a non-name character: one start per name, so a long name is one pass, not n².
const UNSUPPORTED_WHEEL = /(?<![\w.+-])([\w.+-]+\.whl) is not a supported wheel on this platform/;

const TF_PACKAGES = /^(tensorflow|tensorflow-cpu|tensorflow-intel|tf-nightly|tensorflow-gpu|tf-nightly-gpu)$/i;
const GPU_PACKAGE = /^(tensorflow-gpu|tf-nightly-gpu)$/i;

interface PipAsk {
  line: string;
  pkg: string;
  /** The exact version asked for with ==, when one was. */
  version?: string;
  /** pip's "(from versions: …)" list; [] for "none". */
  available?: string[];
}

function pipAsks(text: string): PipAsk[] {
  const asks: PipAsk[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const m = NO_VERSION.exec(line) ?? NO_MATCH.exec(line);
    if (!m || !TF_PACKAGES.test(m[1])) continue;
    const version = m[2] === '==' && /^\d+\.\d+(\.\d+)?$/.test(m[3] ?? '') ? m[3] : undefined;
    const available = m[4] === undefined ? undefined : m[4].split(',').map((v) => v.trim()).filter((v) => v && v !== 'none');
    const known = asks.find((a) => a.pkg.toLowerCase() === m[1].toLowerCase());
    if (known) {
      known.available ??= available;
      continue;
    }
    asks.push({ line, pkg: m[1].toLowerCase(), version, available });
  }
  return asks;
}

const rowsOf = (catalog: Catalog) => [...catalog.tensorflow.linux];

/** "2.16–2.21" for the TF lines whose wheels support Python `py`, "" when none does. */
function tfSupportingPython(catalog: Catalog, py: string): string {
  const lines = rowsOf(catalog)
    .filter((r) => r.python.some((p) => {
      const [min, max] = p.split('-');
      return inRange(py, min, max ?? min);
    }))
    .map((r) => majorMinor(r.version))
    .sort(compareDotted);
  if (lines.length === 0) return '';
  return lines.length === 1 ? lines[0] : `${lines[0]}–${lines[lines.length - 1]}`;
}

/** The Python ranges of the newest TF lines, newest first: "TensorFlow 2.21: Python 3.10–3.13; 2.20: 3.9–3.13; …". */
export function pythonRanges(catalog: Catalog, count = 4): string {
  const rows = rowsOf(catalog).sort((a, b) => compareDotted(b.version, a.version)).slice(0, count);
  return doctorText.places(rows.map((r, i) => {
    const { min, max } = pythonRange(r);
    return doctorText.labelled(`${i === 0 ? 'TensorFlow ' : ''}${majorMinor(r.version)}`, `Python ${min}–${max}`);
  }));
}

function rangeWords(row: TfRow): string {
  const { min, max } = pythonRange(row);
  return `${min}–${max}`;
}

/** The newest tensorflow-gpu pip listed that native Windows still runs on the GPU ("2.10.1"), else undefined. */
function lastWindowsGpuPackage(available: string[] | undefined, last: string): string | undefined {
  const real = (available ?? []).filter((v) => /^\d+\.\d+\.\d+$/.test(v) && compareDotted(majorMinor(v), last) <= 0);
  return real.sort(compareDotted).pop();
}

function gpuPackageFinding(ctx: FixContext, ask: { line: string; pkg: string; version?: string; available?: string[] }): ExplainFinding {
  const { catalog } = ctx;
  const asked = ask.version ? `${ask.pkg}==${ask.version}` : ask.pkg;
  const last = catalog.tensorflow.windowsNativeGpuLast;
  const base = { id: 'pip-tensorflow-gpu-ended', severity: 'error' as const, line: ask.line };
  const v = ask.version;
  // Up to gpuPackageLast the GPU build only ever was tensorflow-gpu: "no match" then means this Python is outside its range.
  if (v && compareDotted(majorMinor(v), catalog.tensorflow.gpuPackageLast) <= 0) {
    const row = findTfRow(catalog, v, ctx.os)?.row ?? findTfRow(catalog, v, 'linux')?.row;
    if (row) return { ...base, meaning: T.gpuOldOnlyMeaning(asked, rangeWords(row)), fix: T.gpuFixOld(rangeWords(row), asked) };
  }
  const meaning = T.gpuEndedMeaning(asked);
  // Nothing says the OS and the version is past native Windows' GPU: both ways, Linux's wheels or the last tensorflow-gpu.
  if (!ctx.osKnown && !ctx.wsl && v && compareDotted(majorMinor(v), last) > 0) {
    const andCuda = andCudaRequirement(catalog, v);
    const linux = andCuda ? T.pipInstall(andCuda) : `${T.pipInstall(`tensorflow==${v}`)}${T.toolkitExtra(majorMinor(v))}`;
    const lastGpu = ask.pkg === 'tensorflow-gpu' ? lastWindowsGpuPackage(ask.available, last) : undefined;
    return { ...base, meaning, fix: T.gpuFixEither(linux, T.pipInstall(lastGpu ? `tensorflow-gpu==${lastGpu}` : 'tensorflow<2.11'), last) };
  }
  if (ctx.os === 'windows' && !ctx.wsl) {
    if (v && compareDotted(majorMinor(v), last) <= 0) return { ...base, meaning, fix: T.gpuFixWindowsNative(`tensorflow==${v}`, majorMinor(v)) };
    return { ...base, meaning, fix: T.gpuFixWindowsNew(v, last) };
  }
  const andCuda = v ? andCudaRequirement(catalog, v) : undefined;
  if (andCuda) return { ...base, meaning, fix: T.gpuFixLinux(`"${andCuda}"`, T.andCudaExtra) };
  if (v) return { ...base, meaning, fix: T.gpuFixLinux(`"tensorflow==${v}"`, T.toolkitExtra(majorMinor(v))) };
  if (ctx.os === 'linux' && (ctx.wsl || /\/(?:usr|home|opt)\//.test(ask.line))) return { ...base, meaning, fix: T.gpuFixLinux('"tensorflow[and-cuda]"', T.andCudaExtra) };
  return { ...base, meaning, fix: T.gpuFixAny('tensorflow[and-cuda]', last) };
}

function wheelTags(wheel: string): { py: string; platform: string } | undefined {
  // {name}-{version}(-{build})?-{python}-{abi}-{platform}.whl
  const parts = wheel.replace(/\.whl$/, '').split('-');
  if (parts.length < 5) return undefined;
  const [pyTag, , platform] = parts.slice(-3);
  const m = /^cp(\d)(\d+)$/.exec(pyTag);
  return { py: m ? `CPython ${m[1]}.${m[2]}` : pyTag, platform };
}

export function pipFindings(ctx: FixContext, text: string): ExplainFinding[] {
  const out: ExplainFinding[] = [];
  const bits32 = logSays32BitPython(text);
  const py = loggedPythonVersion(text);
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const removed = lines.find((l) => GPU_REMOVED.test(l));
  const asks = pipAsks(text);
  const gpuAsk = asks.find((a) => GPU_PACKAGE.test(a.pkg));
  if (gpuAsk) out.push(gpuPackageFinding(ctx, gpuAsk));
  else if (removed) out.push(gpuPackageFinding(ctx, { line: removed, pkg: GPU_REMOVED.exec(removed)![1] }));

  const wheelLine = lines.find((l) => UNSUPPORTED_WHEEL.test(l));
  if (bits32 && (asks.length > 0 || wheelLine)) {
    out.push({ id: 'pip-32bit-python', severity: 'error', line: asks[0]?.line ?? wheelLine ?? '', meaning: T.bits32Meaning, fix: T.bits32Fix });
    return out;
  }
  if (wheelLine) {
    const wheel = UNSUPPORTED_WHEEL.exec(wheelLine)![1];
    const tags = wheelTags(wheel.split(/[\\/]/).pop()!);
    const pyWords = tags?.py ?? T.anyCpython;
    out.push({ id: 'pip-wheel-unsupported', severity: 'error', line: wheelLine, meaning: T.wheelMeaning(wheel.split(/[\\/]/).pop()!, pyWords, tags?.platform ?? '?'), fix: T.wheelFix(pyWords) });
  }
  const plain = asks.find((a) => !GPU_PACKAGE.test(a.pkg));
  if (plain) {
    const row = plain.version ? findTfRow(ctx.catalog, plain.version, 'linux')?.row : undefined;
    // "tensorflow==2.13.0 (from versions: 2.16.0rc0, …)": this Python has wheels, just not that release's.
    const published = plain.available?.filter((v) => /^\d+\.\d+\.\d+$/.test(v)) ?? [];
    // "tensorflow==2.99.0 (from versions: 2.16.1, …)": pip lists this Python's releases and the one asked for is not one of them.
    if (!row && plain.version && published.length > 0 && !published.includes(plain.version)) {
      const newest = [...published].sort(compareDotted).pop()!;
      out.push({ id: 'pip-no-such-version', severity: 'error', line: plain.line, meaning: T.noSuchVersionMeaning(plain.pkg, plain.version, newest), fix: T.noSuchVersionFix(plain.pkg, newest) });
    } else if (row && plain.version) {
      out.push({ id: 'pip-python-unsupported', severity: 'error', line: plain.line, meaning: T.pythonMeaningAsked(plain.version, rangeWords(row), py), fix: T.pythonFixAsked(rangeWords(row), plain.version) });
    } else {
      const supportedBy = py ? tfSupportingPython(ctx.catalog, py) : undefined;
      out.push({ id: 'pip-python-unsupported', severity: 'error', line: plain.line, meaning: T.pythonMeaning(plain.pkg, py, supportedBy), fix: T.pythonFix(pythonRanges(ctx.catalog)) });
    }
  }
  return out;
}
