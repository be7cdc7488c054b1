// Runs every capture (scripts/capture-screens.captures.ts) under vitest: its fixtures are the test
// helpers, which clean up through vitest's hooks. Each capture is appended under its title to
// $CAPTURE_FILE; with CAPTURE_WRITE=1 the pages' marked blocks are rewritten with them afterwards, and
// with CAPTURE_CHECK=1 the pages are compared with them (scripts/capture-screens.mjs sets these).
//
//   npm run build && node scripts/capture-screens.mjs [NAME…] > screens.txt
//   npm run build && node scripts/capture-screens.mjs --write [NAME…]   (rewrite the pages' captures)
//   npm run build && node scripts/capture-screens.mjs --check [NAME…]   (exit 1 when a page differs)
import { appendFile } from 'node:fs/promises';
import { afterAll, describe, it } from 'vitest';
import { repoRoot } from '../test/helpers/cli.js';
import { cleanCapture, cudnnWait, errors, installerFails, route, samples, setup, verbose, type Sink } from './capture-screens.captures.js';
import { comparePages, writePages } from './capture-screens.pages.js';

const captured = new Map<string, string>();
const show: Sink = async (title, text) => {
  const body = cleanCapture(text);
  captured.set(title, body);
  await appendFile(process.env.CAPTURE_FILE ?? '/dev/stdout', `===== ${title}\n${body}\n\n`);
};

afterAll(async () => {
  if (process.env.CAPTURE_WRITE === '1') {
    const written = await writePages(repoRoot, captured);
    process.stderr.write(`capture-screens: rewrote ${written.length} block(s): ${written.join(', ') || 'none'}\n`);
  }
  if (process.env.CAPTURE_CHECK === '1') {
    const { differ } = await comparePages(repoRoot, captured);
    if (differ.length) throw new Error(`These pages' captures differ from what the built CLI draws now (node scripts/capture-screens.mjs --write rewrites them):\n${differ.join('\n')}`);
  }
});

describe('the pages\' screens', () => {
  it('wizard: a first-time TF 2.3 setup', () => setup(show));
  it('zh wizard: the same setup in Chinese', () => setup(show, 'zh'));
  it('wizard: waiting for cuDNN', () => cudnnWait(show));
  it('zh wizard: waiting for cuDNN in Chinese', () => cudnnWait(show, 'zh'));
  it('wizard: route question', () => route(show));
  it('wizard: the installer fails', () => installerFails(show));
  it('zh wizard: the installer fails in Chinese', () => installerFails(show, 'zh'));
  it('headless samples', () => samples(show));
  it('headless verbose', () => verbose(show));
  it('headless errors', () => errors(show));
});
