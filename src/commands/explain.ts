// `cudawiz explain [FILE|-] [--os …] [--json]`: read a TensorFlow log and say what its errors mean.
// Exit 0 when the log shows only notes or a working GPU, 1 for problems or nothing recognised, 2 when
// the log cannot be read (a usage error: the argument names no readable file).
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { osOption } from '../cli/args.js';
import type { CommandContext } from '../cli/context.js';
import type { Output, Status } from '../cli/output.js';
import { explainLog, hasProblems, recognisedNothing, type Explanation, type FindingSeverity } from '../doctor/explain.js';
import { EXIT, UsageError } from '../errors.js';

async function readStream(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding?.('utf8');
  for await (const chunk of stream) text += String(chunk);
  return text;
}

async function readLog(ctx: CommandContext): Promise<{ text: string; source: string }> {
  const file = ctx.positionals[0];
  if (file === undefined || file === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError('No log given.', 'Pass the log file (cudawiz explain tf.log) or pipe it in: python train.py 2>&1 | cudawiz explain -');
    return { text: await readStream(ctx.io.stdin), source: 'standard input' };
  }
  try {
    return { text: await readFile(file, 'utf8'), source: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new UsageError(`Cannot read the log "${file}": ${why}.`, 'Pass the path of a saved TensorFlow log, or - to read it from standard input.');
  }
}

const STATUS: Record<FindingSeverity, Status> = { error: 'fail', warning: 'warn', info: 'info' };

export function renderExplanation(e: Explanation, source: string, out: Output): void {
  if (recognisedNothing(e)) {
    out.line(`${out.symbol('warn')} Nothing recognised in ${source}: no missing CUDA/cuDNN library, version mismatch or driver message.`);
    out.line('  Capture the whole output of the failing run (python your_script.py > tf.log 2>&1) and explain that file.');
    return;
  }
  const asks = [e.cuda ? `CUDA ${e.cuda}${/^\d+$/.test(e.cuda) ? '.x' : ''}` : null, e.cudnn ? `cuDNN ${e.cudnn}` : null].filter(Boolean);
  const os = e.os === 'windows' ? 'Windows' : e.os === 'linux' ? 'Linux' : null;
  out.line(out.bold(`TensorFlow log${os ? ` from ${os}` : ''}`) + (asks.length ? `: it asks for ${asks.join(' and ')}` : ''));
  for (const g of e.gpus) out.line(`  ${out.symbol('info')} GPU: ${g.name} (compute capability ${g.computeCapability})`);
  if (e.findings.length === 0) {
    out.line(`${out.symbol('pass')} No problem in this log: TensorFlow opened its GPU libraries.`);
    return;
  }
  let previousFix = '';
  for (const f of e.findings) {
    out.line(`${out.symbol(STATUS[f.severity])} ${f.meaning}`);
    out.line(`    ${out.dim('fix:')} ${f.fix === previousFix ? 'the same as above' : f.fix}`);
    previousFix = f.fix;
  }
}

export async function run(ctx: CommandContext): Promise<number> {
  const os = ctx.values.os === undefined ? undefined : osOption(ctx.values.os, ctx.host.os);
  const { text, source } = await readLog(ctx);
  const e = explainLog(ctx.catalog(), text, { os });
  if (ctx.out.json) {
    ctx.out.writeJson({
      cuda: e.cuda,
      cudnn: e.cudnn,
      os: e.os,
      recognised: !recognisedNothing(e),
      gpus: e.gpus,
      findings: e.findings.map(({ id, severity, library, meaning, fix, line }) => ({ id, severity, ...(library ? { library } : {}), meaning, fix, line })),
    });
  } else renderExplanation(e, source, ctx.out);
  return recognisedNothing(e) || hasProblems(e) ? EXIT.problems : EXIT.ok;
}
