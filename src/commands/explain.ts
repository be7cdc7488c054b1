// `cudawiz explain [FILE|-] [--os windows|linux|wsl] [--json]`: read a TensorFlow log and say what its errors mean.
// Exit 0 when the log shows only notes or a working GPU, 1 for problems or nothing recognised, 2 when
// the log cannot be read (a usage error: the argument names no readable file).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CommandContext } from '../io/context.js';
import type { Output, Status } from '../io/output.js';
import { explainLog, hasProblems, recognisedNothing, type Explanation, type ExplainOptions, type FindingSeverity } from '../doctor/explain.js';
import { digestStream, digestText, looksLikeLogText, type LogDigest } from '../doctor/explain-input.js';
import { EXIT, UsageError } from '../errors.js';
import type { Host } from '../host.js';
import { explainText as T } from '../i18n/doctor.js';
import { parseOsName, WSL_ENV_MARKERS, WSL_KERNEL_FILES } from '../platform.js';
import { unknownTfVersion } from '../catalog/queries.js';
import { machineFs } from '../probe/machine-fs.js';
import { probePython } from '../probe/python.js';
import { majorMinor } from '../version.js';

function cannotRead(file: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? T.whyMissing : code === 'EISDIR' ? T.whyFolder : code === 'EACCES' ? T.whyDenied : (error as Error).message;
  return new UsageError(T.cannotRead(file, why), T.cannotReadFix);
}

/** The log, streamed: a file, standard input, or (no such file, and it reads like a log line) the argument's own text. */
async function readLog(ctx: CommandContext): Promise<{ digest: LogDigest; source: string }> {
  const file = ctx.positionals[0];
  if (file === undefined || file === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError(T.noLog, T.noLogFix);
    return { digest: await digestStream(ctx.io.stdin as Readable), source: T.standardInput };
  }
  try {
    if ((await stat(file)).isDirectory()) throw Object.assign(new Error(T.whyFolder), { code: 'EISDIR' });
    return { digest: await digestStream(createReadStream(file, { highWaterMark: 1 << 20 })), source: file };
  } catch (error) {
    // `cudawiz explain "Could not load dynamic library …"`: a pasted line is the log itself.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && looksLikeLogText(file)) return { digest: digestText(file), source: T.pastedText };
    throw cannotRead(file, error);
  }
}

/** Run inside WSL, explain reads the log as WSL's: the kernel's own words or WSL's variables say so. */
async function hostIsWsl(host: Host): Promise<boolean> {
  if (host.os !== 'linux') return false;
  if (WSL_ENV_MARKERS.some((k) => host.env[k])) return true;
  for (const file of WSL_KERNEL_FILES) {
    const text = await readFile(host.fsRoot ? path.join(host.fsRoot, file) : file, 'utf8').catch(() => '');
    if (/microsoft/i.test(text)) return true;
  }
  return false;
}

/** The pip-installed TensorFlow's version where explain runs (src/probe/python.ts, the doctor's reading), or undefined. */
async function installedTensorflow(host: Host): Promise<string | undefined> {
  const facts = await probePython(host, machineFs(host.os, host.fsRoot)).catch(() => undefined);
  return facts?.state === 'found' ? facts.tensorflow?.version : undefined;
}

/** --os windows|linux|wsl; without it, the log decides, and then whether explain runs inside WSL. */
async function explainOptions(ctx: CommandContext): Promise<ExplainOptions> {
  const value = ctx.values.os;
  const tf = typeof ctx.values.tf === 'string' ? ctx.values.tf.trim() : undefined;
  if (tf !== undefined && !ctx.catalog().tensorflow.linux.concat(ctx.catalog().tensorflow.windows).some((r) => majorMinor(r.version) === majorMinor(tf))) throw unknownTfVersion(ctx.catalog(), tf);
  const withTf = tf ? { tf } : {};
  if (value === undefined) return (await hostIsWsl(ctx.host)) ? { wsl: true, ...withTf } : withTf;
  if (String(value).toLowerCase() === 'wsl') return { os: 'linux', wsl: true, ...withTf };
  const os = parseOsName(String(value));
  if (!os) throw new UsageError(T.badOs(String(value)));
  return { os, ...withTf };
}

const STATUS: Record<FindingSeverity, Status> = { error: 'fail', warning: 'warn', info: 'info' };

export function renderExplanation(e: Explanation, source: string, out: Output): void {
  if (recognisedNothing(e)) {
    out.line(`${out.symbol('warn')} ${T.nothingRecognised(source)}`);
    out.line(T.captureHint);
    return;
  }
  const asks = [e.cuda ? `CUDA ${e.cuda}${/^\d+$/.test(e.cuda) ? '.x' : ''}` : null, e.cudnn ? `cuDNN ${e.cudnn}` : null].filter((a): a is string => a !== null);
  const os = e.wsl ? 'WSL' : e.os === 'windows' ? 'Windows' : e.os === 'linux' ? 'Linux' : null;
  out.line(out.bold(T.logFrom(os)) + (asks.length ? T.asksFor(asks) : ''));
  for (const g of e.gpus) out.line(`  ${out.symbol('info')} ${T.loggedGpu(g.name, g.computeCapability)}`);
  if (e.findings.length === 0) {
    out.line(`${out.symbol('pass')} ${T.noProblem}`);
    return;
  }
  let previousFix = '';
  for (const f of e.findings) {
    out.line(`${out.symbol(STATUS[f.severity])} ${f.meaning}`);
    out.line(`    ${out.dim(T.fixLabel)}${f.fix === previousFix ? T.sameAsAbove : f.fix}`);
    previousFix = f.fix;
  }
}

export async function run(ctx: CommandContext): Promise<number> {
  const options = await explainOptions(ctx);
  const { digest, source } = await readLog(ctx);
  const catalog = ctx.catalog();
  let e = explainLog(catalog, digest.text, options);
  // A fix wants the TensorFlow version and neither --tf nor the log says it: the one installed here, as the doctor reads it.
  if (e.wantedTf && (e.os === null || e.os === ctx.host.os)) {
    const installedTf = await installedTensorflow(ctx.host);
    if (installedTf) e = explainLog(catalog, digest.text, { ...options, installedTf });
  }
  if (ctx.out.json) {
    ctx.out.writeJson({
      cuda: e.cuda,
      cudnn: e.cudnn,
      os: e.os,
      wsl: e.wsl,
      tensorflow: e.tensorflow,
      recognised: !recognisedNothing(e),
      gpus: e.gpus,
      findings: e.findings.map(({ id, severity, library, meaning, fix, line }) => ({ id, severity, ...(library ? { library } : {}), meaning, fix, line })),
    });
  } else renderExplanation(e, source, ctx.out);
  return recognisedNothing(e) || hasProblems(e) ? EXIT.problems : EXIT.ok;
}
