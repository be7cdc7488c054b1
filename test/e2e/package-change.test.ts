// The package manager's change as repair makes it, for pip and apt (conda: repair-package-manager.test.ts):
// the command the doctor names (packageReplacement), what the manager holds read from the manager
// itself, the journal written first, the manager run, and rollback running the manager's own way
// back. Real child processes: a real venv whose `python -m pip` installs real .whl files from
// PIP_FIND_LINKS (test/fixtures/venv/module-pip), and apt-get/dpkg-query under a temp root
// (test/fixtures/apt, APT_CONFIG and DPKG_ADMINDIR as apt and dpkg read them).
import { chmod, cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { requirementsFor } from '../../src/catalog/queries.js';
import { packageReplacement } from '../../src/doctor/group.js';
import { applyPackageChange, readEnvJournal, readPackageState, rollbackEnvChanges } from '../../src/env/index.js';
import { runCommand, type Host } from '../../src/host.js';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';
import { hostPython } from '../fixtures/machine.js';
import { repoRoot } from '../helpers/cli.js';

const req = requirementsFor(builtinCatalog(), '2.12', 'linux');
const hostWith = (home: string, env: Record<string, string>): Host => ({ os: 'linux', env, home, run: (f, a, o = {}) => runCommand(f, a, { ...o, env: o.env ?? env }) });

/** A real wheel: a zip of site-packages-relative files with its dist-info (METADATA, WHEEL, RECORD). */
async function wheel(dir: string, name: string, version: string, lib: string): Promise<void> {
  const dist = `${name.replace(/-/g, '_')}-${version}.dist-info`;
  const files: Record<string, string> = {
    'nvidia/__init__.py': '',
    'nvidia/cudnn/__init__.py': '',
    [`nvidia/cudnn/lib/${lib}`]: `ELF cuDNN ${version}`,
    [`${dist}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
    [`${dist}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: bdist_wheel (0.37.1)\nRoot-Is-Purelib: true\nTag: py3-none-manylinux1_x86_64\n',
  };
  files[`${dist}/RECORD`] = [...Object.keys(files), `${dist}/RECORD`].map((f) => `${f},,`).join('\n') + '\n';
  const script = 'import json, sys, zipfile\nfiles = json.loads(sys.argv[2])\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    [z.writestr(k, v) for k, v in files.items()]\n';
  await execa(await hostPython(), ['-c', script, path.join(dir, `${name.replace(/-/g, '_')}-${version}-py3-none-manylinux1_x86_64.whl`), JSON.stringify(files)]);
}

async function venvWithPip() {
  const home = await tempDir('cw-pkg-pip-');
  const venv = path.join(home, 'tf');
  const links = path.join(home, 'wheels');
  await execa(await hostPython(), ['-m', 'venv', '--without-pip', venv]);
  const python = path.join(venv, 'bin', 'python');
  const site = (await execa(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'])).stdout.trim();
  await cp(path.join(repoRoot, 'test/fixtures/venv/module-pip/pip'), path.join(site, 'pip'), { recursive: true });
  await execa('mkdir', ['-p', links]);
  await wheel(links, 'nvidia-cudnn-cu11', '8.5.0.96', 'libcudnn.so.8');
  await wheel(links, 'nvidia-cudnn-cu11', '8.6.0.163', 'libcudnn.so.8');
  await wheel(links, 'nvidia-cudnn-cu11', '9.0.0.312', 'libcudnn.so.9');
  const env = { HOME: home, PATH: `${path.join(venv, 'bin')}:/usr/bin:/bin`, PIP_NO_INDEX: '1', PIP_FIND_LINKS: links, PYTHONDONTWRITEBYTECODE: '1' };
  await execa(python, ['-m', 'pip', 'install', 'nvidia-cudnn-cu11==8.5.0.96'], { env, extendEnv: false });
  const host = hostWith(home, env);
  const replace = packageReplacement({ files: ['libcudnn.so.8'], owner: { manager: 'pip', venv, python, packages: [{ name: 'nvidia-cudnn-cu11', version: '8.5.0.96' }] } }, req)!;
  return { home, venv, python, site, host, replace, journal: path.join(home, '.config', 'cudawiz', 'env-journal.json') };
}

describe("pip: the venv's python -m pip replaces the stale wheel, rollback reinstalls the exact version it replaced", () => {
  it('records nvidia-cudnn-cu11==8.5.0.96 from pip itself, installs 8.6, and rollback puts 8.5.0.96 back byte for byte', async () => {
    const v = await venvWithPip();
    expect(v.replace.command).toBe(`${v.venv}/bin/pip install "nvidia-cudnn-cu11>=8.6,<9"`);
    expect(v.replace.run).toEqual({ file: v.python, args: ['-m', 'pip', 'install', 'nvidia-cudnn-cu11>=8.6,<9'] });
    const siteBefore = await treeDigest(v.site);
    const before = await readPackageState(v.host, v.replace);
    expect(before).toEqual({ versions: { 'nvidia-cudnn-cu11': '8.5.0.96' } });

    const r = await applyPackageChange(v.host, v.replace, before as Exclude<typeof before, string>, v.journal, 'replace the stale copy');
    expect(r.ok).toBe(true);
    expect(r.tail.at(-1)).toBe('Successfully installed nvidia-cudnn-cu11-8.6.0.163');
    // The journal keeps the program cudawiz ran and its owner, for rollback's check (#37).
    expect(r.undo).toEqual({ file: v.python, args: ['-m', 'pip', 'install', 'nvidia-cudnn-cu11==8.5.0.96'], owner: process.getuid?.() });
    expect(await readFile(path.join(v.site, 'nvidia/cudnn/lib/libcudnn.so.8'), 'utf8')).toBe('ELF cuDNN 8.6.0.163');
    const j = await readEnvJournal(v.journal);
    expect(j.entries.map((e) => [e.state, e.change.kind, e.change.target, e.change.before, e.change.after])).toEqual([['applied', 'package', v.python, 'nvidia-cudnn-cu11==8.5.0.96', 'nvidia-cudnn-cu11==8.6.0.163']]);

    const undo = await rollbackEnvChanges(v.journal, { host: v.host });
    expect(undo).toMatchObject({ ok: true, failed: [] });
    expect(await treeDigest(v.site)).toEqual(siteBefore);
    expect((await readEnvJournal(v.journal)).entries).toEqual([]);
  });

  it('pip cannot find a matching wheel: not ok, its error lines kept, the journal entry taken out, the venv as it was', async () => {
    const v = await venvWithPip();
    const siteBefore = await treeDigest(v.site);
    const strict = { ...v.replace, run: { ...v.replace.run, args: ['-m', 'pip', 'install', 'nvidia-cudnn-cu11>=8.7,<9'] } };
    const before = (await readPackageState(v.host, strict)) as { versions: Record<string, string> };
    const r = await applyPackageChange(v.host, strict, before, v.journal, 'replace the stale copy');
    expect([r.ok, r.exitCode, r.journalled]).toEqual([false, 1, false]);
    expect(r.tail).toContain('ERROR: No matching distribution found for nvidia-cudnn-cu11');
    expect((await readEnvJournal(v.journal)).entries).toEqual([]);
    expect(await treeDigest(v.site)).toEqual(siteBefore);
  });
});

async function aptRoot() {
  const home = await tempDir('cw-pkg-apt-');
  const root = path.join(home, 'root');
  const bin = path.join(home, 'bin');
  const lib = 'usr/lib/x86_64-linux-gnu';
  const pkg = async (version: string, file: string) => {
    const dir = path.join(root, 'var/cache/apt/archives', `libcudnn8_${version}_amd64`);
    await execa('mkdir', ['-p', path.join(dir, lib)]);
    await writeFile(path.join(dir, lib, file), `ELF cuDNN ${version}`);
    await execa('ln', ['-s', file, path.join(dir, lib, 'libcudnn.so.8')]);
    await writeFile(path.join(dir, 'files'), `${lib}/${file}\n${lib}/libcudnn.so.8\n`);
  };
  await pkg('8.5.0.96-1+cuda11.7', 'libcudnn.so.8.5.0');
  await pkg('8.6.0.163-1+cuda11.8', 'libcudnn.so.8.6.0');
  await execa('mkdir', ['-p', path.join(root, lib), path.join(root, 'var/lib/dpkg'), path.join(root, 'etc/apt'), bin]);
  await cp(path.join(root, 'var/cache/apt/archives/libcudnn8_8.5.0.96-1+cuda11.7_amd64', lib), path.join(root, lib), { recursive: true, verbatimSymlinks: true });
  await writeFile(path.join(root, 'var/lib/dpkg/status'), 'Package: libcudnn8\nStatus: install ok installed\nPriority: optional\nSection: libs\nArchitecture: amd64\nVersion: 8.5.0.96-1+cuda11.7\nDescription: cuDNN runtime libraries\n');
  await writeFile(path.join(root, 'etc/apt/apt.conf'), `Dir "${root}/";\n`);
  for (const tool of ['apt-get', 'dpkg-query']) {
    await writeFile(path.join(bin, tool), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'test/fixtures/apt', `${tool}.mjs`)}" "$@"\n`);
    await chmod(path.join(bin, tool), 0o755);
  }
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin`, APT_CONFIG: path.join(root, 'etc/apt/apt.conf'), DPKG_ADMINDIR: path.join(root, 'var/lib/dpkg') };
  const replace = packageReplacement({ files: ['libcudnn.so.8'], owner: { manager: 'apt', dir: path.join(root, lib) } }, req)!;
  return { root, bin, lib: path.join(root, lib), host: hostWith(home, env), replace, journal: path.join(home, '.config', 'cudawiz', 'env-journal.json') };
}

describe.runIf(process.getuid?.() === 0)('apt (as root): apt-get installs the version TF needs, rollback installs the old one back', () => {
  it("records libcudnn8's version from dpkg-query, replaces it, and rollback runs apt-get install -y libcudnn8=<old>", async () => {
    const a = await aptRoot();
    expect(a.replace.command).toBe('sudo apt-get install libcudnn8=8.6.0.163-1+cuda11.8');
    expect(a.replace.run).toEqual({ file: 'apt-get', args: ['install', '-y', 'libcudnn8=8.6.0.163-1+cuda11.8'] });
    const libBefore = await treeDigest(a.lib);
    const before = await readPackageState(a.host, a.replace);
    expect(before).toEqual({ versions: { libcudnn8: '8.5.0.96-1+cuda11.7' } });
    const r = await applyPackageChange(a.host, a.replace, before as Exclude<typeof before, string>, a.journal, 'replace the stale copy');
    expect(r.ok, r.tail.join('\n')).toBe(true);
    expect(r.tail).toContain('Setting up libcudnn8 (8.6.0.163-1+cuda11.8) ...');
    // The apt-get cudawiz located on PATH, by absolute path, and its owner (#37).
    expect(r.undo).toEqual({ file: `${a.bin}/apt-get`, args: ['install', '-y', 'libcudnn8=8.5.0.96-1+cuda11.7'], owner: 0 });
    expect(await readFile(path.join(a.lib, 'libcudnn.so.8'), 'utf8')).toBe('ELF cuDNN 8.6.0.163-1+cuda11.8');

    const undo = await rollbackEnvChanges(a.journal, { host: a.host });
    expect(undo).toMatchObject({ ok: true, failed: [] });
    expect(await treeDigest(a.lib)).toEqual(libBefore);
  });

  it("rollback that apt cannot do (the old version gone from the archives): fails with the exact command to run, the entry kept", async () => {
    const a = await aptRoot();
    const before = (await readPackageState(a.host, a.replace)) as { versions: Record<string, string> };
    expect((await applyPackageChange(a.host, a.replace, before, a.journal, 'x')).ok).toBe(true);
    await execa('rm', ['-r', path.join(a.root, 'var/cache/apt/archives/libcudnn8_8.5.0.96-1+cuda11.7_amd64')]);
    const undo = await rollbackEnvChanges(a.journal, { host: a.host });
    expect(undo.ok).toBe(false);
    expect(undo.failed[0].message).toBe(`could not go back (E: Version '8.5.0.96-1+cuda11.7' for 'libcudnn8' was not found); run it yourself: ${a.bin}/apt-get install -y libcudnn8=8.5.0.96-1+cuda11.7`);
    expect((await readEnvJournal(a.journal)).entries).toHaveLength(1);
  });
});
