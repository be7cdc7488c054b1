// A venv fix that works for the venv's python run without activation (#39.5): `venv/bin/python train.py`,
// cron and IDEs never source bin/activate. A real venv, wheel libraries glibc's loader really maps
// (test/helpers/shared-object.ts), and a stand-in tensorflow that opens them by soname with dlopen, as
// TF's dso_loader does: before the fix a direct run fails; with only cudawiz's activate block the doctor
// says it holds only in an activated shell; with the venv's loader file a direct run, with no
// LD_LIBRARY_PATH at all, loads them; rollback takes the file and the block out, every file as before.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { rollbackEnvChanges } from '../../src/env/index.js';
import { runCommand, type Host } from '../../src/host.js';
import { applyWheelLibraryFix, planWheelLibraryFix, probePipCuda, undoWheelLibraryFix, whichLibraryTfLoads } from '../../src/pip/index.js';
import { applyVenvFixJournalled } from '../../src/plan/venv-fix.js';
import { VENV_LOADER_PTH } from '../../src/wheels/venv-loader.js';
import { fixtureVenv } from '../fixtures/venv/fixture-venv.js';
import { treeDigest } from '../helpers/cudnn-archive.js';
import { sharedObject } from '../helpers/shared-object.js';
import { tempDir } from '../helpers/tmp.js';

const WHEELS = [
  { name: 'nvidia-cuda-runtime-cu12', version: '12.3.101', part: 'cuda_runtime', libs: ['libcudart.so.12'] },
  { name: 'nvidia-cudnn-cu12', version: '8.9.7.29', part: 'cudnn', libs: ['libcudnn.so.8'] },
];

/** TF 2.16.1 (its RUNPATH misses the wheels, tensorflow/tensorflow#63362), opening its libraries by soname only. */
const TF = `import ctypes
for _lib in ("libcudart.so.12", "libcudnn.so.8"):
    ctypes.CDLL(_lib)
__version__ = "2.16.1"
`;

async function machine() {
  const home = await tempDir('cw-venvload-');
  const venv = await fixtureVenv(path.join(home, 'venvs', 'ml'));
  const python = path.join(venv, 'bin', 'python');
  const site = (await execa(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'])).stdout.trim();
  for (const w of WHEELS) {
    const lib = path.join(site, 'nvidia', w.part, 'lib');
    await mkdir(lib, { recursive: true });
    for (const l of w.libs) await writeFile(path.join(lib, l), sharedObject(l));
    const dist = path.join(site, `${w.name.replace(/-/g, '_')}-${w.version}.dist-info`);
    await mkdir(dist);
    await writeFile(path.join(dist, 'METADATA'), `Metadata-Version: 2.1\nName: ${w.name}\nVersion: ${w.version}\n`);
    await writeFile(path.join(dist, 'RECORD'), w.libs.map((l) => `nvidia/${w.part}/lib/${l},,\n`).join(''));
  }
  await mkdir(path.join(site, 'tensorflow'));
  await writeFile(path.join(site, 'tensorflow', '__init__.py'), TF);
  await mkdir(path.join(site, 'tensorflow-2.16.1.dist-info'));
  await writeFile(path.join(site, 'tensorflow-2.16.1.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.16.1\n');
  await chmod(home, 0o700);
  // A new shell that never activates the venv: no LD_LIBRARY_PATH at all.
  const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const host: Host = { os: 'linux', env, home, run: (f, a, o = {}) => runCommand(f, a, { ...o, env: o.env ?? env }) };
  const direct = () => execa(python, ['-B', '-c', 'import tensorflow; print("TF", tensorflow.__version__)'], { env, extendEnv: false, reject: false });
  return { home, venv, python, site, host, direct };
}

describe("a venv's wheel libraries for its python run without activation", () => {
  it("activate block only: the doctor's direct run says it holds only in an activated shell; the loader file makes a direct run load them; rollback takes both out", async () => {
    const m = await machine();
    // Every file (folders aside: cudawiz's config folder stays, empty), Python's bytecode cache aside.
    const files = async () => Object.fromEntries(Object.entries(await treeDigest(m.home)).filter(([k, v]) => !/__pycache__/.test(k) && !v.startsWith('dir:')));
    const before = await files();
    const failing = await m.direct();
    expect(failing.exitCode).not.toBe(0);
    expect(failing.stderr).toContain('libcudart.so.12: cannot open shared object file');

    // What an older cudawiz left: the block in bin/activate, nothing for a direct run.
    const first = planWheelLibraryFix(await probePipCuda(m.host, m.python));
    expect(first).toMatchObject({ needed: true, blockApplied: false, loaderInPlace: false });
    await applyWheelLibraryFix(first, { consent: true });
    const blockOnly = planWheelLibraryFix(await probePipCuda(m.host, m.python));
    expect(blockOnly).toMatchObject({ blockApplied: true, loaderInPlace: false, activatedOnly: true, needed: true, alreadyApplied: false });
    expect(blockOnly.why.join('\n')).toContain('holds only in an activated shell');
    expect((await m.direct()).exitCode).not.toBe(0);
    await undoWheelLibraryFix(m.venv);

    // cudawiz's fix now: the block and the venv's loader file, each journalled.
    const r = await applyVenvFixJournalled(m.host, first, 'test');
    expect(r).toMatchObject({ applied: true, loaderFile: path.join(m.site, VENV_LOADER_PTH) });
    const ok = await m.direct();
    expect(ok.stderr + ok.stdout).toBe('TF 2.16.1');
    const facts = await probePipCuda(m.host, m.python);
    const after = planWheelLibraryFix(facts);
    expect(after).toMatchObject({ alreadyApplied: true, loaderInPlace: true, activatedOnly: false });
    expect(whichLibraryTfLoads(facts, 'libcudnn.so.8', { ldLibraryPath: [], systemDirs: [] })).toMatchObject({ from: 'wheels', via: 'preload' });
    // pip and every script that never imports tensorflow load nothing.
    const plain = await execa(m.python, ['-B', '-c', 'print(open("/proc/self/maps").read().count("nvidia/"))'], { env: m.host.env as Record<string, string>, extendEnv: false });
    expect(plain.stdout.trim()).toBe('0');

    const journal = path.join(m.home, '.config', 'cudawiz', 'env-journal.json');
    expect(JSON.parse(await readFile(journal, 'utf8')).entries.map((e: { change: { kind: string } }) => e.change.kind)).toEqual(['venv-activate', 'venv-loader']);
    const undo = await rollbackEnvChanges(journal, { host: m.host, undoVenv: async (v) => (await undoWheelLibraryFix(v), { outcome: 'undone' }) });
    expect(undo.ok).toBe(true);
    expect(undo.undone.map((c) => c.kind)).toEqual(['venv-loader', 'venv-activate']);
    expect(await files()).toEqual(before);
    expect((await m.direct()).exitCode).not.toBe(0);
  });
});
