// Hostile class: words from files and flags are data (issue 37, item 7 and S3). A log line, a flag or the
// environment carrying terminal escape sequences, a carriage return, a bell or a newline is printed with
// those shown as escapes, never obeyed; a mirror's `user:pass@` is masked with or without a scheme, on
// stderr and in --json alike. Through the built CLI in a child process, as a user runs it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleText } from '../../src/i18n/bundle.js';
import { ownLines, setValueStyle } from '../../src/i18n/localized.js';
import { pipText } from '../../src/i18n/pip.js';
import { stepsText } from '../../src/i18n/steps.js';
import { trustText } from '../../src/i18n/trust.js';
import { forTerminal, redactCredentials } from '../../src/redact.js';
import { runBuilt } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Clear the screen, retitle the terminal (OSC … BEL), go back to column 0, and a right-to-left override.
const HOSTILE = '\u001B[2J\u001B]0;owned\u0007\r\u202E';
/** Anything a terminal would act on: ESC, BEL, CR, other C0/C1 controls, bidi overrides. */
const OBEYED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

describe('control characters from a log, a flag and the environment are shown, never obeyed', () => {
  it('a log whose missing library name carries escape sequences: explain names it with the escapes written out', async () => {
    const dir = await tempDir('cudawiz-hostile-words-');
    const log = path.join(dir, 'tf.log');
    await writeFile(log, `W dso_loader.cc:64] Could not load dynamic library 'lib${HOSTILE}cudnn.so.8'; dlerror: no such file\n`);
    const r = await runBuilt(['explain', log], { env: { HOME: dir } });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(OBEYED);
    expect(r.stdout).toContain('lib\\e[2J\\e]0;owned\\x07\\r\\u202ecudnn.so.8');
    // --json escapes them its own way, and a parser gets the bytes back as data.
    const json = await runBuilt(['explain', '--json', log], { env: { HOME: dir } });
    expect(json.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(json.stdout).findings[0].meaning).toContain(`lib${HOSTILE}cudnn.so.8`);
  });

  it('a flag with an escape sequence and a newline: the error says it on its own lines, nothing starts a line of its own', async () => {
    const r = await runBuilt(['requirements', '--tf', `2.1${HOSTILE}\nDone. Your machine is ready for TensorFlow.`]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(OBEYED);
    expect(r.stderr).toContain('\\e[2J');
    // Every line but the first is indented under "cudawiz:": the flag's "Done." cannot pass for cudawiz's own.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^cudawiz: /);
    for (const l of lines.slice(1)) expect(l).toMatch(/^\s/);
  });

  it('a pasted line with escape sequences is read as text and printed escaped', async () => {
    const r = await runBuilt(['explain', `Could not load dynamic library 'libcudart.so.11.0${HOSTILE}'; dlerror: libcudart.so.11.0: cannot open shared object file`]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(OBEYED);
    expect(r.stdout).toContain('\\e]0;owned\\x07');
  });
});

describe('a mirror\'s user:pass@ is masked with or without a scheme (S3)', () => {
  const secret = 'alice:s3cr3t-pass@mirror.example';
  it.each([
    ['--mirror, plain', ['download', '--tf', '2.15', '--os', 'linux', '--mirror', secret], {}],
    ['--mirror, --json', ['download', '--tf', '2.15', '--os', 'linux', '--json', '--mirror', secret], {}],
    ['CUDAWIZ_MIRROR, plain', ['download', '--tf', '2.15', '--os', 'linux'], { CUDAWIZ_MIRROR: secret }],
    ['CUDAWIZ_MIRROR, --json', ['download', '--tf', '2.15', '--os', 'linux', '--json'], { CUDAWIZ_MIRROR: secret }],
  ] as const)('%s: refused (not HTTPS), the password nowhere in what is printed', async (_, argv, env) => {
    const dir = await tempDir('cudawiz-hostile-mirror-');
    const r = await runBuilt([...argv, '--dest', path.join(dir, 'bundle')], { env: { HOME: dir, ...env } });
    expect(r.code).toBe(2);
    const said = r.stdout + r.stderr;
    expect(said).toContain('***@mirror.example');
    expect(said).not.toContain('s3cr3t');
    expect(said).not.toContain('alice');
  });

  it('the same rule masks what goes to the run log and crash reports (redactCredentials), and leaves plain words alone', () => {
    expect(redactCredentials('mirror alice:pass@host:8443/x')).toBe('mirror ***@host:8443/x');
    expect(redactCredentials('"mirror": "alice:pass@host"')).toBe('"mirror": "***@host"');
    expect(redactCredentials('https://alice:pass@host/x')).toBe('https://***@host/x');
    for (const plain of ['user@host', 'git@github.com:org/repo', 'at 10:11:12 @ noon', 'pip install tensorflow==2.15.0', 'C:\\Users\\me']) {
      expect(redactCredentials(plain)).toBe(plain);
    }
    expect(forTerminal('alice:pass@host \u001B[31mred')).toBe('***@host \\e[31mred');
  });
});

describe('a newline inside words from a file or a path is data: it never starts a line of its own (#37 item 7)', () => {
  const FAKE = 'Done. Your machine is ready for TensorFlow.';
  /** No printed line is the file's text posing as cudawiz's own. */
  const noForgedLine = (text: string) => expect(text.split('\n').filter((l) => l.trim().startsWith('Done.'))).toEqual([]);

  it("a bundle manifest whose TF field holds a newline: install --from names it with the newline written \\n", async () => {
    const dir = await tempDir('cudawiz-hostile-manifest-');
    const bundle = path.join(dir, 'B');
    await mkdir(bundle);
    const manifest = { format: 1, cudawiz: '0.0.0', tensorflow: `2.10\n${FAKE}`, route: 'redist', os: 'linux', cuda: '11.8', cudnn: '8.1', complete: true, created: new Date(0).toISOString(), files: [] };
    await writeFile(path.join(bundle, 'cudawiz-bundle.json'), JSON.stringify(manifest));
    const r = await runBuilt(['install', '--from', bundle, '--tf', '2.3', '--yes'], { env: { HOME: dir } });
    expect(r.code).not.toBe(0);
    const said = r.stdout + r.stderr;
    noForgedLine(said);
    expect(said).toContain(`2.10\\n${FAKE}`);
  });

  it('a folder name holding a newline, given as a flag: refused as it is, nothing of it printed as a line', async () => {
    const dir = await tempDir('cudawiz-hostile-path-');
    const bundle = path.join(dir, `B\n${FAKE}`);
    await mkdir(bundle);
    const r = await runBuilt(['install', '--from', bundle, '--yes'], { env: { HOME: dir } });
    expect(r.code).not.toBe(0);
    const said = r.stdout + r.stderr;
    noForgedLine(said);
    expect(said).toContain('--from contains a control character');
  });

  it("the formatter: a value's newline is escaped in plain output, its control characters too on the wizard's screens; cudawiz's own multi-line messages pass whole; --json keeps the value", () => {
    try {
      setValueStyle('plain');
      expect(bundleText.otherTf(`2.10\n${FAKE}`, '2.3')).toBe(`it is for TensorFlow 2.10\\n${FAKE}, not 2.3`);
      // Another message of the tables, quoted by a message: its own line breaks stay.
      const ownTwoLines = trustText.refusedFix('/opt', 'conda install x');
      expect(ownTwoLines).toContain('\n');
      expect(stepsText.willStopBecause(ownTwoLines)).toContain(ownTwoLines);
      expect(pipText.addToProfile(ownLines('export A=1\nexport B=2'))).toContain('export A=1\nexport B=2');
      setValueStyle('screen');
      expect(bundleText.otherTf(`2.10${HOSTILE}`, '2.3')).toBe('it is for TensorFlow 2.10\\e[2J\\e]0;owned\\x07\\r\\u202e, not 2.3');
      setValueStyle('json');
      expect(bundleText.otherTf(`2.10\n${HOSTILE}`, '2.3')).toBe(`it is for TensorFlow 2.10\n${HOSTILE}, not 2.3`);
    } finally {
      setValueStyle('plain');
    }
  });
});
