import { execa } from 'execa';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyEnvChanges,
  describeEnvChange,
  describeEnvPlan,
  envLinesToRunYourself,
  prepareEnvPlan,
  readEnvJournal,
  rollbackEnvChanges,
} from '../../src/env/index.js';
import { linuxMachine, makeLinuxToolkit, tfLibraryFiles, type LinuxMachine } from './env-fixtures.js';

const TF23 = tfLibraryFiles('2.3', 'linux');

async function planFor(m: LinuxMachine, toolkitDir: string, options: { elevated: boolean; others?: { version: string; dir: string }[]; rcLine?: boolean }) {
  return prepareEnvPlan({
    host: m.host,
    tf: '2.3',
    cuda: '10.1',
    toolkitDir,
    requiredFiles: TF23,
    toolkits: options.others ?? [],
    elevated: options.elevated,
    rcLine: options.rcLine,
    root: m.root,
  });
}

describe('Linux: a toolkit installed into /usr/local as root', () => {
  it('gets an ld.so.conf.d file with lib64 and CUPTI, then ldconfig runs and ldconfig -p shows the libraries', async () => {
    const m = await linuxMachine();
    const cuda = path.join(m.root, 'usr/local/cuda-10.1');
    await makeLinuxToolkit(cuda, [...TF23, 'libcupti.so.10.1']);
    const { plan, places } = await planFor(m, cuda, { elevated: true });

    expect(plan.refusals).toEqual([]);
    expect(plan.changes.map((c) => c.kind)).toEqual(['ld-so-conf', 'ldconfig']);
    const conf = path.join(m.root, 'etc/ld.so.conf.d/cudawiz-cuda-10.1.conf');
    expect(plan.changes[0].target).toBe(conf);
    expect(describeEnvChange(plan.changes[0])[0]).toBe(`Create ${conf} — tell the loader where CUDA 10.1 for TensorFlow 2.3 keeps its libraries:`);
    expect(describeEnvChange(plan.changes[1])).toEqual(['Run: ldconfig — rebuild the loader cache so the new folders count']);
    expect(await m.calls()).toEqual([]); // planning changes nothing
    expect(describeEnvPlan(plan).slice(0, 5)).toEqual([
      `1. Create ${conf} — tell the loader where CUDA 10.1 for TensorFlow 2.3 keeps its libraries:`,
      '       # Written by cudawiz: CUDA 10.1 for TensorFlow 2.3. `cudawiz rollback` removes it.',
      `       ${cuda}/lib64`,
      `       ${cuda}/extras/CUPTI/lib64`,
      '2. Run: ldconfig — rebuild the loader cache so the new folders count',
    ]);

    const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(result.ok).toBe(true);
    expect(await readFile(conf, 'utf8')).toBe(
      `# Written by cudawiz: CUDA 10.1 for TensorFlow 2.3. \`cudawiz rollback\` removes it.\n${cuda}/lib64\n${cuda}/extras/CUPTI/lib64\n`,
    );
    expect(await m.calls()).toEqual(['ldconfig ', 'ldconfig -p']);
    expect(result.ldconfigLines).toContain(`\tlibcudart.so.10.1 (libc6,x86-64) => ${cuda}/lib64/libcudart.so.10.1`);
    expect(result.ldconfigLines).toHaveLength(TF23.length);

    const journal = await readEnvJournal(places.journalFile);
    expect(journal.entries.map((e) => [e.change.kind, e.state])).toEqual([
      ['ld-so-conf', 'applied'],
      ['ldconfig', 'applied'],
    ]);

    // Running again finds the file in place and plans nothing.
    const again = await planFor(m, cuda, { elevated: true });
    expect(again.plan.changes).toEqual([]);

    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo.ok).toBe(true);
    await expect(readFile(conf, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(m.root, 'etc/ld.so.conf.d/libc.conf'), 'utf8')).toBe('# libc default configuration\n/usr/local/lib\n');
    expect((await m.calls()).at(-1)).toBe('ldconfig ');
    expect((await readEnvJournal(places.journalFile)).entries).toEqual([]);
  });

  it('never shadows the system\'s newer copy globally (#26.3): with 10.2\'s libcublas.so.10 already resolved, 10.1 goes first per user, not in ld.so.conf.d', async () => {
    const m = await linuxMachine();
    const cuda101 = path.join(m.root, 'usr/local/cuda-10.1');
    const cuda102 = path.join(m.root, 'usr/local/cuda-10.2');
    await makeLinuxToolkit(cuda101, TF23);
    await makeLinuxToolkit(cuda102, ['libcudart.so.10.2', 'libcublas.so.10', 'libcufft.so.10']);
    // NVIDIA's package for 10.2 left its own conf file: the system resolves 10.2's libcublas.so.10.
    await writeFile(path.join(m.root, 'etc/ld.so.conf.d/cuda-10-2.conf'), `${cuda102}/lib64\n`);
    const { plan } = await planFor(m, cuda101, { elevated: true, others: [{ version: '10.2', dir: cuda102 }] });

    expect(plan.changes.map((c) => c.kind)).not.toContain('ld-so-conf');
    expect(plan.changes.map((c) => c.kind)).not.toContain('ldconfig');
    expect(plan.changes[0]).toMatchObject({ kind: 'env-script' });
    expect(plan.changes[0].after).toContain(`${cuda101}/lib64`);
    expect(plan.notes).toContain(
      "Not for the whole machine: every program keeps loading CUDA 10.2's libcublas.so.10, libcufft.so.10, which the system already resolves; CUDA 10.1's go first only in programs started from your new shells (the env script), so a loader file would never put the older copy ahead for everyone.",
    );
  });

  it('still sorts its conf file ahead of an older toolkit\'s: a newer copy first for everyone shadows nothing', async () => {
    const m = await linuxMachine();
    const cuda101 = path.join(m.root, 'usr/local/cuda-10.1');
    const cuda100 = path.join(m.root, 'usr/local/cuda-10.0');
    await makeLinuxToolkit(cuda101, TF23);
    await makeLinuxToolkit(cuda100, ['libcudart.so.10.0', 'libcublas.so.10', 'libcufft.so.10']);
    await writeFile(path.join(m.root, 'etc/ld.so.conf.d/cuda-10-0.conf'), `${cuda100}/lib64\n`);
    const { plan, places } = await planFor(m, cuda101, { elevated: true, others: [{ version: '10.0', dir: cuda100 }] });
    expect(plan.changes[0].target).toBe(path.join(m.root, 'etc/ld.so.conf.d/00-cudawiz-cuda-10.1.conf'));
    const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    const cublas = result.ldconfigLines.filter((l) => l.trim().startsWith('libcublas.so.10 '));
    expect(cublas[0]).toContain(`${cuda101}/lib64/libcublas.so.10`);
  });

  it('does not write into /etc without root: it prints the exact lines to run instead', async () => {
    const m = await linuxMachine();
    const cuda = path.join(m.root, 'usr/local/cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const { plan } = await planFor(m, cuda, { elevated: false });
    expect(plan.changes).toEqual([]);
    expect(plan.manual).toEqual([
      `printf '%s\\n' '${cuda}/lib64' '${cuda}/extras/CUPTI/lib64' | sudo tee '${m.root}/etc/ld.so.conf.d/cudawiz-cuda-10.1.conf'`,
      'sudo ldconfig',
    ]);
  });
});

describe('Linux: a toolkit under the home directory', () => {
  it('gets an env script and one source line in ~/.bashrc; a second run adds nothing; rollback restores .bashrc byte for byte', async () => {
    const m = await linuxMachine({ homeName: 'ada lovelace' });
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const bashrc = path.join(m.home, '.bashrc');
    const original = "# ada's settings\nalias ll='ls -l'"; // no newline at the end
    await writeFile(bashrc, original);

    const { plan, places } = await planFor(m, cuda, { elevated: false });
    expect(plan.changes.map((c) => c.kind)).toEqual(['env-script', 'rc-line']);
    const script = path.join(places.configDir, 'env-cuda-10.1.sh');
    const line = `[ -f '${script}' ] && . '${script}'  # cudawiz`;
    expect(plan.changes[1]).toMatchObject({ target: bashrc, line });

    const first = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(first.ok).toBe(true);
    expect(await readFile(bashrc, 'utf8')).toBe(`${original}\n${line}\n`);

    // The script really works in bash, with the space in the path: 10.1 comes first.
    const shell = await execa('bash', ['-c', `PATH=/usr/bin:/bin; . '${script}'; printf '%s\\n%s' "$LD_LIBRARY_PATH" "$PATH"`], { env: { LD_LIBRARY_PATH: '/opt/other/lib', PATH: '/usr/bin:/bin' }, extendEnv: false });
    expect(shell.stdout).toBe(`${cuda}/lib64:${cuda}/extras/CUPTI/lib64:/opt/other/lib\n${cuda}/bin:/usr/bin:/bin`);

    // A second run plans nothing, and re-applying the first plan duplicates nothing.
    const again = await planFor(m, cuda, { elevated: false });
    expect(again.plan.changes).toEqual([]);
    expect(again.plan.notes).toContain(`${bashrc} already sources ${script}.`);
    const second = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(second.skipped.map((s) => s.reason)).toEqual(['already there', 'already there']);
    expect((await readFile(bashrc, 'utf8')).split(line).length - 1).toBe(1);

    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo.ok).toBe(true);
    expect(await readFile(bashrc, 'utf8')).toBe(original);
    await expect(readFile(script, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('takes out only its own line when the user edited .bashrc after cudawiz wrote to it', async () => {
    const m = await linuxMachine();
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const bashrc = path.join(m.home, '.bashrc');
    await writeFile(bashrc, 'export EDITOR=vim\n');
    const { plan, places } = await planFor(m, cuda, { elevated: false });
    await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    await writeFile(bashrc, `${await readFile(bashrc, 'utf8')}alias gs='git status'\n`);

    await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(await readFile(bashrc, 'utf8')).toBe("export EDITOR=vim\nalias gs='git status'\n");
  });

  it('creates ~/.bashrc when there is none, and rollback removes it again', async () => {
    const m = await linuxMachine();
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const { plan, places } = await planFor(m, cuda, { elevated: false });
    expect(plan.changes[1]).toMatchObject({ kind: 'rc-line', before: null });
    await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    await rollbackEnvChanges(places.journalFile, { host: m.host });
    await expect(readFile(path.join(m.home, '.bashrc'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('without consent for the rc file, writes the script and prints the line to add', async () => {
    const m = await linuxMachine({ shell: '/usr/bin/zsh' });
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const { plan, places } = await planFor(m, cuda, { elevated: false, rcLine: false });
    const script = path.join(places.configDir, 'env-cuda-10.1.sh');
    expect(plan.changes.map((c) => c.kind)).toEqual(['env-script']);
    // With --configure-env no, these are the lines to add by hand.
    expect(envLinesToRunYourself(plan).slice(-3)).toEqual([
      "# add to your shell's startup file:",
      `export PATH="${cuda}/bin\${PATH:+:\${PATH}}"`,
      `export LD_LIBRARY_PATH="${cuda}/lib64:${cuda}/extras/CUPTI/lib64\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`,
    ]);
    expect(plan.manual).toEqual([`# add to ${path.join(m.home, '.zshrc')}:`, `[ -f '${script}' ] && . '${script}'  # cudawiz`]);
  });

  it('speaks fish to fish users: a .fish script and a line in config.fish', async () => {
    const m = await linuxMachine({ shell: '/usr/bin/fish' });
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const { plan, places } = await planFor(m, cuda, { elevated: false });
    const script = path.join(places.configDir, 'env-cuda-10.1.fish');
    expect(plan.changes[0]).toMatchObject({ kind: 'env-script', target: script });
    expect(plan.changes[0].after).toContain(`set -gx LD_LIBRARY_PATH '${cuda}/lib64' '${cuda}/extras/CUPTI/lib64' $LD_LIBRARY_PATH\n`);
    expect(plan.changes[1]).toMatchObject({ kind: 'rc-line', target: path.join(m.home, '.config/fish/config.fish'), line: `test -f '${script}'; and source '${script}'  # cudawiz` });
  });

  it('refuses to guess for tcsh and prints the lines instead', async () => {
    const m = await linuxMachine({ shell: '/bin/tcsh' });
    const cuda = path.join(m.home, 'cuda-10.1');
    await makeLinuxToolkit(cuda, TF23);
    const { plan } = await planFor(m, cuda, { elevated: false });
    expect(plan.changes.map((c) => c.kind)).toEqual(['env-script']);
    expect(plan.notes).toContain('cudawiz writes startup lines for bash, zsh and fish only; your shell (/bin/tcsh) is not one of them.');
    expect(plan.manual[1]).toBe(`export LD_LIBRARY_PATH="${cuda}/lib64:${cuda}/extras/CUPTI/lib64\${LD_LIBRARY_PATH:+:\${LD_LIBRARY_PATH}}"`);
  });
});
