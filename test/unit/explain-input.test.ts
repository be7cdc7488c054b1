// explain reads a log in one streaming pass (src/doctor/explain-input.ts): lines clipped for matching,
// past the first MiB only the lines some rule looks for. Here: the keyword path alone gives every fixture
// log the same answer as the whole text, the answer in a clipped long line is found, and the lines that
// made the patterns quadratic still get an answer.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { explainLog } from '../../src/doctor/explain.js';
import { digestStream, digestText, looksLikeLogText, MAX_LINE } from '../../src/doctor/explain-input.js';
import { repoRoot } from '../helpers/cli.js';

const logs = path.join(repoRoot, 'test', 'fixtures', 'logs');
const catalog = builtinCatalog();
const CUDNN_LINE = "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory";

describe('the keyword path reads what the whole text says', () => {
  const files = readdirSync(logs).filter((f) => f.endsWith('.log'));
  it.each(files)('%s: the same explanation with no whole head as with the whole text', (file) => {
    const text = readFileSync(path.join(logs, file), 'utf8');
    const whole = explainLog(catalog, text);
    const keywordsOnly = explainLog(catalog, digestText(text, { headBytes: 0 }).text);
    expect(keywordsOnly).toEqual(whole);
  });

  it('keeps a repeated message once, and the lines right after a keyword line', () => {
    const noise = Array.from({ length: 50 }, (_, i) => `epoch ${i} loss 0.${i}`).join('\n');
    const text = `${noise}\n2026-01-01 10:00:00.000001: ${CUDNN_LINE}\n${noise}\n2026-01-01 10:00:05.000002: ${CUDNN_LINE}\n>>> print(tf.test.is_built_with_cuda())\nFalse\n${noise}`;
    const d = digestText(text, { headBytes: 0 });
    expect(d.text.split('\n').filter((l) => l.includes('libcudnn.so.8'))).toHaveLength(1);
    expect(d.text).toContain('is_built_with_cuda())\nFalse');
    expect(d.text).not.toContain('epoch 10 loss');
    expect(d.partial).toBe(true);
  });
});

describe('long lines are clipped, and the answer at their start is found', () => {
  it('a 3 MiB line that starts with the cuDNN error: missing-cudnn, from a line no longer than the clip', async () => {
    const line = `${CUDNN_LINE} ${'x'.repeat(3 << 20)}`;
    // Chunks of 64 KiB, as a file stream gives them: the line is cut across many chunks.
    const chunks = Array.from({ length: Math.ceil(line.length / 65536) }, (_, i) => Buffer.from(line.slice(i * 65536, (i + 1) * 65536)));
    const d = await digestStream(Readable.from(chunks));
    expect(d.clippedLines).toBe(1);
    expect(d.text.length).toBeLessThanOrEqual(MAX_LINE);
    const e = explainLog(catalog, d.text);
    expect(e.findings.map((f) => f.id)).toContain('missing-cudnn');
    expect(e.cudnn).toBe('8');
  });

  it('a line split across chunks in the middle of a multi-byte character stays whole', async () => {
    const text = `${CUDNN_LINE}\nTensorFlow 版本：2.15.0 — “ok”\n`;
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf(Buffer.from('版')) + 1;
    const d = await digestStream(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]));
    expect(d.text).toBe(text.trimEnd());
  });

  it('past the head, a keyword beyond the clip does not keep a line, and one before it does', () => {
    const head = 'x\n'.repeat(10);
    const far = `${'y'.repeat(MAX_LINE + 10)} Could not load dynamic library 'libcudnn.so.8'`;
    const near = `${CUDNN_LINE} ${'z'.repeat(MAX_LINE * 2)}`;
    const d = digestText(`${head}${far}\n${near}\n`, { headBytes: 4 });
    expect(d.text).not.toContain('yyyy');
    expect(d.text).toContain("'libcudnn.so.8'; dlerror");
    expect(d.clippedLines).toBe(1);
  });
});

describe('lines that made the patterns quadratic get an answer', () => {
  // Each was seconds to minutes per line before (issue 37, X1/X2); a vitest timeout of 5 s is generous for all.
  const hostile = [
    `driver version ${'1'.repeat(1 << 20)}`,
    `Driver Version: ${'1.'.repeat(1 << 19)}`,
    `${'1.1.1'.repeat(200_000)}-microsoft`,
    `${'a'.repeat(1 << 20)}.whl is not a supported wheel on this platform`,
    `lib${'a'.repeat(1 << 20)}`,
  ];
  it.each(hostile.map((l) => [l.slice(0, 24), l]))('%s…: read, clipped and answered', (_, line) => {
    const text = `${line}\n${CUDNN_LINE}\n`;
    const e = explainLog(catalog, digestText(text).text);
    expect(e.findings.map((f) => f.id)).toContain('missing-cudnn');
  }, 5000);
});

describe('a pasted line is text, a file name is a file name', () => {
  it.each([
    [CUDNN_LINE, true],
    ["Could not load dynamic library 'libcudart.so.11.0'", true],
    ['line one\nline two', true],
    ['tf.log', false],
    ['my run.txt', false],
    ['logs/2024 run of tensorflow.txt', false],
  ])('%s → %s', (arg, text) => {
    expect(looksLikeLogText(arg)).toBe(text);
  });
});
