// conda's and Poetry's words when they cannot find or install a TensorFlow: PackagesNotFoundError,
// UnsatisfiableError (and libmamba's), Poetry's SolverProblemError and "Unable to find installation
// candidates". Sources are quoted with the fixture logs (test/fixtures/logs/conda-*, poetry-*).
import { explainText as T } from '../i18n/doctor.js';
import { logLines, type ExplainFinding, type FixContext } from './explain-finding.js';
import { pythonRanges } from './explain-pip.js';

const TF_LIKE = /^(?:tensorflow(?:-gpu|-cpu|-intel|-io-gcs-filesystem)?|tf-nightly(?:-gpu)?|cudatoolkit|cudnn|cuda-toolkit)\b/i;

/** conda's "PackagesNotFoundError: The following packages are not available from current channels:" and the "  - pkg==v" lines under it. */
function condaMissing(lines: string[]): { line: string; packages: string[]; platform?: string } | undefined {
  const at = lines.findIndex((l) => /PackagesNotFoundError|Packages missing in current channels/.test(l));
  if (at < 0) return undefined;
  const packages: string[] = [];
  let platform: string | undefined;
  for (const l of lines.slice(at + 1)) {
    const pkg = /^-\s+([A-Za-z0-9_.-]+(?:[=<>!~]=?[^\s]+)?)$/.exec(l)?.[1];
    if (pkg && !/^https?:/.test(pkg)) {
      packages.push(pkg);
      continue;
    }
    const channel = /^-?\s*https?:\/\/\S+?\/(linux-64|linux-aarch64|osx-64|osx-arm64|win-64|win-32)\b/.exec(l);
    if (channel) {
      platform ??= channel[1];
      continue;
    }
    if (/^Current channels:|^To search for alternate channels|^and use the search bar|^looking for, navigate|^https:\/\/anaconda\.org/.test(l)) continue;
    if (packages.length > 0 && !/^-/.test(l)) break;
  }
  if (!packages.some((p) => TF_LIKE.test(p))) return undefined;
  return { line: lines[at], packages: packages.filter((p) => TF_LIKE.test(p)), platform };
}

/** conda's UnsatisfiableError / libmamba's LibMambaUnsatisfiableError about a TensorFlow, with the env's Python when it says. */
function condaUnsatisfiable(lines: string[], text: string): { line: string; python?: string } | undefined {
  const at = lines.findIndex((l) => /(?:LibMamba)?UnsatisfiableError/.test(l));
  if (at < 0) return undefined;
  const rest = lines.slice(at).join('\n');
  if (!/\btensorflow|\btf-nightly/i.test(rest)) return undefined;
  const python = /Your python:\s*python=(\d\.\d+)/.exec(text)?.[1];
  return { line: lines[at], python };
}

export function installerFindings(ctx: FixContext, text: string): ExplainFinding[] {
  const lines = logLines(text);
  const out: ExplainFinding[] = [];
  const ranges = pythonRanges(ctx.catalog);
  const andCuda = ctx.os === 'windows' && !ctx.wsl ? undefined : 'tensorflow[and-cuda]';

  const missing = condaMissing(lines);
  if (missing) {
    const last = ctx.catalog.tensorflow.windowsNativeGpuLast;
    const windows = missing.platform?.startsWith('win') ?? (ctx.os === 'windows' && !ctx.wsl);
    const fix =
      missing.platform === 'win-32'
        ? T.conda32Fix
        : missing.platform?.startsWith('osx')
          ? T.condaMacFix
          : windows
            ? T.condaMissingFixWindows(last)
            : T.condaMissingFixLinux(andCuda ?? 'tensorflow[and-cuda]');
    out.push({ id: 'conda-package-not-found', severity: 'error', line: missing.line, meaning: T.condaMissingMeaning(missing.packages.join(', '), missing.platform), fix });
  }

  const unsat = condaUnsatisfiable(lines, text);
  if (unsat) {
    out.push({
      id: 'conda-unsatisfiable',
      severity: 'error',
      line: unsat.line,
      meaning: unsat.python ? T.condaPythonMeaning(unsat.python) : T.condaUnsatMeaning,
      fix: T.condaUnsatFix(ranges),
    });
  }

  // Poetry ≥ 1.2: "The current project's supported Python range (>=3.10,<4.0) is not compatible with some of the required packages Python requirement:";
  // Poetry 1.1: "The current project's Python requirement (…) is not compatible …"; both end with its own suggestion.
  const range = lines.find((l) => /The current project's (?:supported Python range|Python requirement) \(([^)]*)\) is not compatible/.test(l));
  const tfNeeds = lines.find((l) => /^-\s*(?:tensorflow[\w-]*|tf-nightly[\w-]*) requires Python/.test(l));
  if (range && tfNeeds) {
    const declared = /\(([^)]*)\)/.exec(range)![1];
    const suggestion = /For tensorflow[\w-]*, a possible solution would be to set the `python` property to "([^"]+)"/.exec(text)?.[1];
    const needs = /requires Python ([^,]+(?:,\s*<[\d.]+)?)/.exec(tfNeeds)?.[1]?.trim();
    // Keep the project's own floor and take the package's ceiling: ">=3.10,<4.0" and ">=3.7, <3.12" → ">=3.10,<3.12".
    const floor = />=\s*[\d.]+/.exec(declared)?.[0].replace(/\s+/g, '');
    const ceiling = /<\s*[\d.]+/.exec(needs ?? '')?.[0].replace(/\s+/g, '');
    const narrowed = suggestion ?? (floor && ceiling ? `${floor},${ceiling}` : undefined);
    out.push({
      id: 'poetry-python-range',
      severity: 'error',
      line: range,
      meaning: T.poetryRangeMeaning(declared, tfNeeds.replace(/^-\s*/, '').split(' requires')[0], needs),
      fix: T.poetryRangeFix(narrowed, suggestion !== undefined),
    });
  } else {
    const solver = lines.find((l) => /SolverProblemError/.test(l));
    const because = lines.find((l) => /no versions of (?:tensorflow|tf-nightly)[\w-]* match/.test(l));
    if (because || (solver && /\btensorflow/.test(text))) {
      out.push({ id: 'poetry-no-version', severity: 'error', line: because ?? solver!, meaning: T.poetryNoVersionMeaning, fix: T.poetryNoVersionFix(ranges) });
    }
  }
  const candidates = lines.find((l) => /Unable to find installation candidates for (?:tensorflow|tf-nightly)[\w-]* \(/.test(l));
  if (candidates) {
    const m = /candidates for ([\w-]+) \(([^)]+)\)/.exec(candidates)!;
    out.push({ id: 'poetry-no-candidates', severity: 'error', line: candidates, meaning: T.poetryCandidatesMeaning(m[1], m[2]), fix: T.poetryCandidatesFix(m[1]) });
  }
  return out;
}
