// What explain reads of a log, in one streaming pass that never holds more than a few MiB: every line is
// clipped to MAX_LINE characters before any rule sees it (a 200 MB line costs one pass over its bytes,
// and no pattern ever runs on more than MAX_LINE characters); the first HEAD_BYTES are kept as they are,
// and past them only lines carrying a word some rule looks for (KEYWORDS), once each, with the lines
// right after them. test/unit/explain-input.test.ts holds every fixture log to the same answer read
// through the keyword path alone.

/** Longer lines are cut here for matching: every line a rule reads starts with what it names. */
export const MAX_LINE = 4096;
/** A log up to this size is read whole (clipped lines only): adjacency rules (conda's lists, pip show) see it all. */
export const HEAD_BYTES = 1 << 20;
/** The most text the rules ever see; past it the digest stops growing (a hostile log is cut, not slow). */
export const DIGEST_CHARS = 4 << 20;
/** Lines kept after a keyword line: the `False` after `is_built_with_cuda()`, `Version:` after `Name: tensorflow`. */
const CONTEXT_AFTER = 3;

/**
 * A word from each rule's pattern (explain.ts, explain-driver.ts, explain-pip.ts, explain-installers.ts,
 * explain-build-info.ts, log-signals.ts). A rule whose anchor is not here answers only in the first HEAD_BYTES.
 */
export const KEYWORDS = [
  // libraries that did not load, or did (explain.ts scan)
  'Could not', "Couldn't", 'Couldn’t', 'cannot open shared object', 'Please make sure', 'Successfully opened',
  'msvcp', 'MSVCP', 'vcruntime', 'VCRUNTIME', 'CuDNN', 'cuDNN', 'cudnn',
  'driver', 'Driver', 'Cannot dlopen', 'kernel image', 'CUDA_ERROR', 'computeCapability', 'Compute Capability',
  'major:', 'Created',
  // the driver and nvidia-smi (explain-driver.ts, log-signals.ts loggedDriverVersions)
  'NVIDIA', 'NVML', 'cuInit', 'libcuda', 'DSO version', 'forward compatibility', 'CUDA-capable', 'No devices were found',
  'UNKNOWN ERROR', 'reported version', '/proc/driver',
  // where the log came from and what it runs (log-signals.ts)
  '/usr/lib/wsl', 'microsoft', 'Microsoft', 'MICROSOFT', ':\\', 'win_amd64', 'win32', 'TensorFlow', 'tf.',
  // a package name, never TensorFlow's own source paths (tensorflow/core/…), which start most of its log lines
  'tensorflow=', 'tensorflow-', 'tensorflow_', 'tensorflow[', 'tensorflow ', 'Name: tensorflow',
  'tf-nightly', 'Python', 'python', '32 bit', '32-bit', 'Num GPUs', '[]', 'PhysicalDevice', 'CUDA_VISIBLE_DEVICES',
  // pip, conda, Poetry (explain-pip.ts, explain-installers.ts)
  'satisfies the requirement', 'No matching distribution', 'has been removed', '.whl', 'PackagesNotFoundError',
  'Packages missing', 'Current channels', 'channels', 'https://', 'Unsatisfiable', 'cudatoolkit', 'cuda-toolkit',
  'Your python', 'current project', 'requires Python', 'possible solution', 'SolverProblemError', 'no versions of',
  'installation candidates',
  // TensorFlow's build info and its native-Windows warning (explain-build-info.ts)
  'is_cuda_build', 'cuda_version', 'cudnn_version', 'cpu_compiler', '_build', 'OrderedDict', 'sm_', 'compute_',
  'is_built_with_cuda', 'with_cuda', 'built with CUDA', 'native Windows',
] as const;

// …and a package name that ends its line ("- tensorflow", "pip install tensorflow").
const PREFILTER = new RegExp([...KEYWORDS.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'tensorflow\\r?$'].join('|'), 'gm');

export interface LogDigest {
  /** The lines the rules read, clipped, joined with "\n". */
  text: string;
  /** Bytes read. */
  bytes: number;
  /** Lines longer than MAX_LINE that were cut. */
  clippedLines: number;
  /** Some text past HEAD_BYTES was left out (lines without a keyword, repeats, or past DIGEST_CHARS). */
  partial: boolean;
}

export interface DigestOptions {
  /** Bytes kept whole before the keyword rule starts (tests pass 0 to hold the keyword path to the whole one). */
  headBytes?: number;
}

/**
 * Reads a log a chunk at a time. Bytes are scanned as latin1 (one character per byte: fast, no split
 * characters between chunks) and each kept line is decoded as UTF-8 once.
 */
export class LogDigester {
  private readonly headBytes: number;
  private readonly kept: string[] = [];
  private readonly seen = new Set<string>();
  private keptChars = 0;
  private bytes = 0;
  private clippedLines = 0;
  private partial = false;
  /** The start of the line the last chunk ended inside (at most MAX_LINE characters), and whether it was cut. */
  private carry = '';
  private carryCut = false;
  private carryStart = 0;
  /** Lines still to keep after a keyword line. */
  private context = 0;

  constructor(options: DigestOptions = {}) {
    this.headBytes = options.headBytes ?? HEAD_BYTES;
  }

  push(chunk: Buffer | string): void {
    const s = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8').toString('latin1') : chunk.toString('latin1');
    const startOffset = this.bytes;
    this.bytes += s.length;
    let first = s.indexOf('\n');
    if (first < 0) {
      this.extendCarry(s);
      return;
    }
    this.extendCarry(s.slice(0, first));
    this.line(this.carry, this.carryCut, this.carryStart);
    this.carry = '';
    this.carryCut = false;
    let at = first + 1;
    const last = s.lastIndexOf('\n');
    // Whole lines of this chunk: line by line in the head or while context is owed, else from one keyword to the next.
    while (at <= last) {
      if (startOffset + at < this.headBytes || this.context > 0) {
        const end = s.indexOf('\n', at);
        this.line(s.slice(at, Math.min(end, at + MAX_LINE + 1)), end - at > MAX_LINE, startOffset + at);
        at = end + 1;
        continue;
      }
      PREFILTER.lastIndex = at;
      const m = PREFILTER.exec(s);
      if (!m || m.index > last) {
        this.partial = true;
        break;
      }
      const start = s.lastIndexOf('\n', m.index) + 1;
      if (start > at) this.partial = true;
      const end = s.indexOf('\n', m.index);
      // A keyword past the clip is no keyword: the line is judged on what the rules will see.
      const keywordAt = m.index - start < MAX_LINE ? m.index - start : (PREFILTER_ONE.exec(s.slice(start, start + MAX_LINE))?.index ?? -1);
      if (keywordAt >= 0) this.line(s.slice(start, Math.min(end, start + MAX_LINE + 1)), end - start > MAX_LINE, startOffset + start, keywordAt);
      else this.partial = true;
      at = end + 1;
    }
    this.carryStart = startOffset + last + 1;
    this.extendCarry(s.slice(last + 1));
  }

  end(): LogDigest {
    if (this.carry.length > 0 || this.carryCut) this.line(this.carry, this.carryCut, this.carryStart);
    this.carry = '';
    return { text: this.kept.join('\n'), bytes: this.bytes, clippedLines: this.clippedLines, partial: this.partial };
  }

  private extendCarry(piece: string): void {
    if (this.carryCut) return;
    const room = MAX_LINE + 1 - this.carry.length;
    if (piece.length >= room) {
      this.carry += piece.slice(0, room);
      this.carryCut = true;
    } else this.carry += piece;
  }

  /**
   * One line (its first MAX_LINE + 1 latin1 characters at most) that starts at byte `offset`; `keywordAt`:
   * where its first keyword starts, when the caller found it.
   */
  private line(raw: string, cut: boolean, offset: number, keywordAt?: number): void {
    let text = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (cut || raw.length > MAX_LINE) this.clippedLines++;
    if (offset < this.headBytes) return this.keep(text);
    const owed = this.context > 0;
    if (owed) this.context--;
    const at = keywordAt ?? PREFILTER_ONE.exec(text)?.index ?? -1;
    if (at < 0) {
      if (owed) this.keep(text);
      else this.partial = true;
      return;
    }
    // From its first keyword on: a timestamp, level or thread id before it does not make a repeat new.
    const key = text.slice(at);
    if (this.seen.has(key)) {
      this.partial = true;
      return;
    }
    this.seen.add(key);
    this.context = CONTEXT_AFTER;
    this.keep(text);
  }

  private keep(latin1: string): void {
    if (this.keptChars + latin1.length > DIGEST_CHARS) {
      this.partial = true;
      return;
    }
    this.keptChars += latin1.length + 1;
    this.kept.push(Buffer.from(latin1, 'latin1').toString('utf8'));
  }
}

const PREFILTER_ONE = new RegExp(PREFILTER.source, 'm');

/** Reads a whole stream (a file, stdin) into its digest. */
export async function digestStream(stream: AsyncIterable<Buffer | string>, options: DigestOptions = {}): Promise<LogDigest> {
  const digester = new LogDigester(options);
  for await (const chunk of stream) digester.push(chunk);
  return digester.end();
}

/** The digest of a log already in memory (a pasted line, a test's fixture). */
export function digestText(text: string, options: DigestOptions = {}): LogDigest {
  const digester = new LogDigester(options);
  digester.push(text);
  return digester.end();
}

/**
 * An argument that names no file but reads like a pasted log line: more than one word and a word some
 * rule looks for, or several lines. "tf.log" or "my run.txt" stay file names (their error says so).
 */
export function looksLikeLogText(arg: string): boolean {
  if (/\r?\n/.test(arg.trim())) return true;
  const words = arg.trim().split(/\s+/);
  return words.length >= 3 && PREFILTER_ONE.test(arg) && !/\.[A-Za-z]{1,5}$/.test(arg.trim());
}
