// A bug of ours reaches the user as one line and a file to attach, never as a stack trace; --json
// says it as an error object. The details file holds the stack and the command.
import { readFile, rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli.js';
import { setLang } from '../../src/i18n/localized.js';

afterEach(() => setLang('en'));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (d) => out.push(String(d)));
  stderr.on('data', (d) => err.push(String(d)));
  return { io: { stdout, stderr, stdin: new PassThrough() } as never, out: () => out.join(''), err: () => err.join('') };
}

const bug = () => {
  try {
    (undefined as unknown as { cuda: string }).cuda.toString();
  } catch (error) {
    return error;
  }
};

describe('an unexpected error', () => {
  it('prints one line and where the details are, exit 1; the file holds the stack', async () => {
    const t = io();
    expect(reportError(bug(), t.io, false, ['install', '--tf', '2.3'])).toBe(1);
    const said = t.err();
    expect(said).toMatch(/^cudawiz: unexpected error: Cannot read properties of undefined \(reading 'cuda'\)\n/);
    expect(said).not.toMatch(/\n\s+at /);
    const file = /the details in (\S+)\.\n$/.exec(said)?.[1];
    expect(file).toBeDefined();
    const details = await readFile(file!, 'utf8');
    expect(details).toMatch(/TypeError: Cannot read properties of undefined/);
    expect(details).toMatch(/\n\s+at /);
    expect(details).toContain('cudawiz install --tf 2.3');
    await rm(file!);
  });

  it('--json: an error object with code "internal" and the report file; zh: in Chinese', async () => {
    const t = io();
    reportError(bug(), t.io, true);
    const json = JSON.parse(t.out()) as { error: { code: string; message: string; report: string } };
    expect(json.error).toMatchObject({ code: 'internal', message: "Cannot read properties of undefined (reading 'cuda')" });
    await rm(json.error.report);
    setLang('zh');
    const z = io();
    reportError(bug(), z.io, false);
    expect(z.err()).toMatch(/^cudawiz: 意外错误：/);
    expect(z.err()).not.toMatch(/\n\s+at /);
    await rm(/和 (\S+) 里的详情/.exec(z.err())![1]);
  });
});
