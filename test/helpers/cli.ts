// Runs the CLI two ways: in-process through main() with captured streams (fast, for services and
// commands), and as the built dist/cli.js in a real child process (for exit codes and start-up).
import { PassThrough, Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { main } from '../../src/cli.js';
import { realHost, type Host } from '../../src/host.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const builtCli = path.join(repoRoot, 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let buf = '';
  stream.on('data', (c) => (buf += String(c)));
  return { stream, text: () => buf };
}

export async function runCli(argv: string[], options: { host?: Partial<Host>; stdin?: string; signal?: AbortSignal } = {}): Promise<CliResult> {
  const out = capture();
  const err = capture();
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]);
  const host: Host = { ...realHost(), ...options.host };
  const code = await main(argv, { io: { stdout: out.stream, stderr: err.stream, stdin }, host, signal: options.signal ?? new AbortController().signal });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** The built CLI in a child process, with a clean environment plus `env`. */
export async function runBuilt(argv: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  const r = await execa(process.execPath, [builtCli, ...argv], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    extendEnv: false,
    input: options.input,
    cwd: options.cwd,
    reject: false,
  });
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}
