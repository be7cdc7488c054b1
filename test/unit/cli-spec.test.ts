// The command line is defined once (src/cli/spec.ts): global flags go anywhere, unknown flags are
// usage errors that say where the flag belongs, and --help is read off the spec, in the run's language.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { beforeEach, describe, expect, it } from 'vitest';
import { commandHelp, mainHelp, usageLine } from '../../src/cli/help.js';
import { parseArgv } from '../../src/cli/args.js';
import { COMMAND_NAMES, COMMAND_SPECS, GLOBAL_FLAGS, type FlagSpec } from '../../src/cli/spec.js';
import { setLang } from '../../src/i18n/localized.js';
import { builtCli, runBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

beforeEach(() => setLang('en')); // main() in-process sets the language of the run it answers

describe('global flags', () => {
  it('go before the command as well as after it', async () => {
    const before = await runCli(['--json', 'requirements', '--tf', '2.3', '--os', 'linux']);
    const after = await runCli(['requirements', '--tf', '2.3', '--os', 'linux', '--json']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
    const plain = await runCli(['--no-color', '--lang', 'en', 'requirements', '--tf', '2.3', '--os', 'linux']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('libcudart.so.10.1');
  });

  it('take their value before the command without it being read as the command (`--cuda-root DIR doctor`)', () => {
    const p = parseArgv(['--cuda-root', '/opt/cuda', '--json', 'doctor', '--tf', '2.3'], {}, false);
    expect(p.command).toBe('doctor');
    expect(p.globals).toMatchObject({ cudaRoot: '/opt/cuda', json: true });
    expect(p.values.tf).toBe('2.3');
  });

  it('`cudawiz --json doctor` runs the doctor (the built CLI), not the wizard', async () => {
    const root = await tempDir('cudawiz-cli-doctor-');
    const r = await runBuilt(['--json', '--cuda-root', root, 'doctor', '--python', path.join(root, 'no-python')], { env: { HOME: root } });
    expect(r.code).not.toBe(2);
    expect(JSON.parse(r.stdout)).toHaveProperty('findings');
  });

  it('`cudawiz --no-color requirements` still takes the fast path, the one file for requirements', async () => {
    // A copy holding only the bin and requirements' own file: the full program is not there to answer.
    const dir = await tempDir('cudawiz-cli-fast-');
    const dist = path.dirname(builtCli);
    await mkdir(path.join(dir, 'dist', 'chunks'), { recursive: true });
    for (const file of ['cli.js', 'package.json', 'chunks/requirements.cjs', 'chunks/package.json']) await copyFile(path.join(dist, file), path.join(dir, 'dist', file));
    const r = await execa(process.execPath, [path.join(dir, 'dist', 'cli.js'), '--no-color', '--lang', 'en', 'requirements', '--tf', '2.3', '--os', 'linux', '--json'], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tensorflow: '2.3', cuda: '10.1' });
  });
});

describe('usage errors (exit 2)', () => {
  it('an unknown flag, before or after the command, is named with the command it was given to', async () => {
    for (const argv of [
      ['requirements', '--tf', '2.3', '--frobnicate'],
      ['--frobnicate', 'requirements', '--tf', '2.3'],
    ]) {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Unknown flag --frobnicate for cudawiz requirements.');
      expect(r.stderr).toContain('cudawiz requirements --help');
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    }
  });

  it("says which commands take a flag given to one that does not (doctor --yes)", async () => {
    const r = await runCli(['doctor', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown flag --yes for cudawiz doctor.');
    expect(r.stderr).toContain('--yes belongs to: install, repair, rollback.');
    const tf = await runCli(['--no-color', 'rollback', '--tf', '2.3']);
    expect(tf.code).toBe(2);
    expect(tf.stderr).toContain('--tf belongs to: requirements, doctor, explain, download, install, repair.');
  });

  it('a flag without its value, a value given to a switch, and a stray argument', async () => {
    const missing = await runCli(['install', '--tf']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--tf needs a value.');
    expect(missing.stderr).toContain('For example: cudawiz install --tf 2.3');
    const valued = await runCli(['requirements', '--tf', '2.3', '--json=yes']);
    expect(valued.code).toBe(2);
    expect(valued.stderr).toContain('--json takes no value.');
    const stray = await runCli(['doctor', 'now']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('cudawiz doctor takes no arguments, but got "now".');
    const unknown = await runCli(['--json', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.message).toBe('Unknown command "frobnicate".');
  });

  it('a required flag or argument the spec names is asked for with an example', async () => {
    const r = await runCli(['install', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--tf is required.');
    expect(r.stderr).toContain('For example: cudawiz install --tf 2.3');
    const d = await runCli(['download', '--version', '10.1']);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('cudawiz download needs one of: cuda, cudnn.');
  });

  it('are said in the language asked for', async () => {
    const r = await runCli(['--lang', 'zh', 'doctor', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cudawiz doctor 没有参数 --yes');
  });
});

describe('help, read off the spec', () => {
  it('lists every command and every global flag; each command page lists each of its flags', () => {
    const main = mainHelp();
    for (const name of COMMAND_NAMES) expect(main).toContain(`  ${name}  `);
    for (const flag of Object.keys(GLOBAL_FLAGS)) expect(main).toContain(`--${flag}`);
    for (const name of COMMAND_NAMES) {
      const page = commandHelp(name);
      expect(page.split('\n')[0]).toBe(`Usage: ${usageLine(name)}`);
      for (const [flag, f] of Object.entries(COMMAND_SPECS[name].flags) as [string, FlagSpec][]) {
        expect(page).toContain(`--${flag}${f.value ? ` ${f.value}` : ''}`);
        expect(usageLine(name)).toContain(`--${flag}`);
      }
      for (const example of COMMAND_SPECS[name].examples) expect(page).toContain(example);
    }
  });

  it('a flag added to a spec appears in --help and the usage line, and the parser takes it', async () => {
    const flags = COMMAND_SPECS.doctor.flags as Record<string, FlagSpec>;
    flags['keep-going'] = { type: 'boolean', help: 'planDryRun' };
    try {
      const r = await runCli(['doctor', '--help']);
      expect(r.stdout).toMatch(/--keep-going +print the plan and change nothing/);
      expect(r.stdout).toContain('[--keep-going]');
      expect(parseArgv(['doctor', '--keep-going'], {}, false).values['keep-going']).toBe(true);
    } finally {
      delete flags['keep-going'];
    }
    expect((await runCli(['doctor', '--keep-going'])).code).toBe(2);
  });

  it('is in Chinese with --lang zh, wherever the flags stand', async () => {
    const main = await runCli(['--lang', 'zh', '--help']);
    expect(main.code).toBe(0);
    expect(main.stdout).toContain('命令：');
    expect(main.stdout).toContain('检查这台机器，对每一项给出结论和修复方法。');
    const doctor = await runCli(['doctor', '--help', '--lang', 'zh']);
    expect(doctor.stdout).toContain('要检查的 Python 解释器');
    const viaHelp = await runCli(['help', 'doctor']);
    expect(viaHelp.stdout).toContain('the Python interpreter to inspect');
  });

  it('answers even when the other flags are wrong (help is what such a user needs)', async () => {
    const r = await runCli(['install', '--frobnicate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: cudawiz install [--tf V]');
  });
});
