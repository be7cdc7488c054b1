#!/usr/bin/env node
// Runs scripts/capture-screens.ts under vitest (its fixtures are the test helpers, which clean up
// through vitest's hooks) and prints the captures to stdout; vitest's own report goes to stderr.
//
//   npm run build && node scripts/capture-screens.mjs [NAME…] > screens.txt
//   npm run build && node scripts/capture-screens.mjs --write [NAME…]   rewrite the pages' captures
//   npm run build && node scripts/capture-screens.mjs --check [NAME…]   exit 1 when a page's capture differs
//   NAME: a capture's name or part of it (wizard, route, cudnn, fails, verbose, errors …)
// The pages hold a capture under `<!-- capture: TITLE -->` (scripts/capture-screens.pages.ts).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(path.join(root, 'dist/cli.js'))) {
  console.error('dist/cli.js is missing: run `npm run build` first.');
  process.exit(2);
}
const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-screens-'));
process.env.CAPTURE_FILE = path.join(dir, 'screens.txt');
const args = process.argv.slice(2);
if (args.includes('--write')) process.env.CAPTURE_WRITE = '1';
if (args.includes('--check')) process.env.CAPTURE_CHECK = '1';
const names = args.filter((a) => a !== '--write' && a !== '--check');
const vitest = await startVitest(
  'test',
  [],
  {
    root,
    include: ['scripts/capture-screens.ts'],
    watch: false,
    testTimeout: 180_000,
    // One terminal at a time: the captures must not slow each other down.
    fileParallelism: false,
    ...(names.length ? { testNamePattern: new RegExp(names.join('|'), 'i') } : {}),
  },
  {},
  { stdout: process.stderr },
);
const failed = vitest.state.getCountOfFailedTests() > 0;
await vitest.close();
if (existsSync(process.env.CAPTURE_FILE) && !process.env.CAPTURE_WRITE && !process.env.CAPTURE_CHECK) process.stdout.write(await readFile(process.env.CAPTURE_FILE, 'utf8'));
await rm(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
