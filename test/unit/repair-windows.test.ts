// The Windows classes of a broken install, as data on Linux (path.win32 machines under a temp root):
// the doctor's grouped findings, the repair plan the table makes of them, and the PATH change load
// order plans. The Wine lane runs the real win32 build; here every verdict is asserted exactly.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose } from '../../src/doctor/diagnose.js';
import type { Finding } from '../../src/doctor/finding.js';
import { planEnvChanges } from '../../src/env/index.js';
import { planRepair } from '../../src/plan/remedies/index.js';
import { probeMachine } from '../../src/probe/index.js';
import { condaRecord } from '../fixtures/conda-env.js';
import { TOOLKIT_LIBRARIES, fixtureMachine } from '../fixtures/machine.js';
import { CUDA, seedLaptop } from '../fixtures/seed-laptop.js';

const catalog = builtinCatalog();
const byId = (fs: Finding[]) => Object.fromEntries(fs.map((f) => [f.id, f]));

async function windowsBox(path: string[], extra: (m: Awaited<ReturnType<typeof fixtureMachine>>) => Promise<void>, env: Record<string, string> = {}) {
  const m = await fixtureMachine('windows', { Path: ['C:\\Windows\\System32', ...path].join(';'), SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', ...env });
  await m.nvidiaSmi('C:\\Windows\\System32\\nvidia-smi.exe', 'rtx2060-laptop');
  for (const dll of ['nvcuda.dll', 'msvcp140.dll', 'msvcp140_1.dll']) await m.file(`C:\\Windows\\System32\\${dll}`, 'MZ');
  await extra(m);
  return m;
}

describe('repair on Windows, class by class (data)', () => {
  it("another CUDA's bin earlier on PATH: one load-order finding, the load-order remedy, and the saved PATH with v10.1\\bin first", async () => {
    const m = await seedLaptop({ fixed: true, cuda110First: true });
    const facts = await probeMachine(m.host, { catalog });
    const findings = diagnose(catalog, facts);
    const f = byId(findings)[`load-order:${CUDA}\\v10.1\\bin`];
    expect(f.status).toBe('fail');
    const plan = planRepair(findings, 'windows');
    expect(plan.stops).toEqual([]);
    expect(plan.remedies).toEqual(['load-order']);
    expect(plan.items.find((i) => i.finding === f)?.remedy).toBe('load-order');
    // What the step then writes, from the same PATH an elevated run reads back.
    const saved = m.env.Path;
    const env = planEnvChanges({
      os: 'windows', tf: '2.3', cuda: '10.1', toolkitDir: `${CUDA}\\v10.1`, requiredFiles: ['cudart64_101.dll', 'cufft64_10.dll'],
      toolkits: [{ version: '10.1', dir: `${CUDA}\\v10.1`, files: ['cudart64_101.dll', 'cufft64_10.dll'] }, { version: '11.0', dir: `${CUDA}\\v11.0`, files: ['cufft64_10.dll'] }],
      elevated: true, env: m.env, places: { ldSoConfDir: '', configDir: '', journalFile: '', home: 'C:\\Users\\me' },
      windows: { processPath: saved, persisted: { Machine: { value: saved, kind: 'REG_EXPAND_SZ' }, User: { value: '', kind: 'REG_EXPAND_SZ', absent: true } }, unreadable: [] },
    });
    expect(env.changes).toHaveLength(1);
    expect(env.changes[0].target).toBe('Machine');
    const dirs = env.changes[0].after!.split(';');
    expect(dirs.indexOf(`${CUDA}\\v10.1\\bin`)).toBeLessThan(dirs.indexOf(`${CUDA}\\v11.0\\bin`));
  });

  it('cuDNN copied into the wrong vX.Y folder: no download advice for the 7.6.5 already on the machine; listed with the copy to make, nothing downloaded', async () => {
    const m = await windowsBox([`${CUDA}\\v10.1\\bin`], async (x) => {
      await x.toolkit(`${CUDA}\\v10.1`, { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.windows['10.1']] });
      await x.toolkit(`${CUDA}\\v11.0`, { version: '11.0.228', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.windows['11.0']], cudnn: '7.6.5' });
    }, { CUDA_PATH: `${CUDA}\\v10.1` });
    const findings = diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.3' });
    // v11.0\bin first would put 11.0's cufft64_10.dll ahead of 10.1's: no load order offered there.
    expect(findings.some((x) => x.id.startsWith('load-order:'))).toBe(false);
    const cudnn = byId(findings).cudnn;
    expect(cudnn.status).toBe('fail');
    expect(cudnn.fix).toBe(`cuDNN 7.6.5 is already at ${CUDA}\\v11.0: nothing to download — copy its cudnn files (bin or lib, include) into ${CUDA}\\v10.1, the CUDA folder TensorFlow uses`);
    // cuDNN's own "not on the search path" line is the same fact, said once: its fix (v11.0\\bin first on PATH) would shadow 10.1.
    expect(findings.filter((x) => x.status === 'fail' && /cudnn/i.test(x.id)).map((x) => x.id)).toEqual(['cudnn']);
    expect(cudnn.evidence).toContain(`the same cause: cudnn64_7.dll is in ${CUDA}\\v11.0\\bin but not on the library search path`);
    const plan = planRepair(findings, 'windows');
    // Listed with that fix, never dropped, and no step downloads a cuDNN for it.
    expect(plan.remedies).not.toContain('import-cudnn');
    expect(plan.items.find((i) => i.finding.id === 'cudnn')).toEqual({ finding: cudnn });
  });

  it("Anaconda's Library\\bin with an older cudnn64_7.dll: conda's copy wins before PATH, so repair stops with conda's own command", async () => {
    const prefix = 'C:\\Users\\me\\anaconda3';
    const m = await windowsBox([`${prefix}\\Library\\bin`, `${CUDA}\\v10.1\\bin`], async (x) => {
      await x.toolkit(`${CUDA}\\v10.1`, { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.windows['10.1']], cudnn: '7.6.5' });
      await x.file(`${prefix}\\Library\\bin\\cudnn64_7.dll`, 'MZ');
      await x.file(`${prefix}\\conda-meta\\cudnn-7.3.1-cuda10.0_0.json`, condaRecord('cudnn', '7.3.1', 'cuda10.0_0', 'win-64', ['Library/bin/cudnn64_7.dll']));
    }, { CONDA_PREFIX: prefix, CUDA_PATH: `${CUDA}\\v10.1` });
    const findings = diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.3' });
    const f = findings.find((x) => x.id.startsWith('load-order:'))!;
    expect(f.cause).toMatchObject({ kind: 'load-order', files: ['cudnn64_7.dll'], staleDirs: [{ dir: `${prefix}\\Library\\bin`, via: 'conda env' }], owner: { manager: 'conda', prefix } });
    // Only conda's command: no PATH order beats Library\\bin for conda's Python, so neither repair nor $env:Path is offered.
    expect(f.fix).toBe(`Replace the stale copy with its package manager: conda install -p ${prefix} "cudnn>=7.6,<8"`);
    const plan = planRepair(findings, 'windows');
    // (This bare box has no Python either: that stop is its own line.)
    expect(plan.stops.map((s) => [s.finding.id, s.stop])).toContainEqual([f.id, 'package-manager']);
    expect(plan.stops.find((s) => s.stop === 'package-manager')!.why).toBe("conda's Python loads the env's Library\\bin before any folder on PATH, so only conda can replace the copy there");
  });

  it('cuDNN 8.3 or newer without zlibwapi.dll: listed, left to the user, with where the 64-bit DLL comes from', async () => {
    const m = await windowsBox([`${CUDA}\\v11.2\\bin`], async (x) => {
      await x.toolkit(`${CUDA}\\v11.2`, { version: '11.2.2', versionFile: 'version.json', libraries: ['cudart64_110.dll', 'cublas64_11.dll', 'cublasLt64_11.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_11.dll', 'cusparse64_11.dll'], cudnn: '8.6.0' });
    }, { CUDA_PATH: `${CUDA}\\v11.2` });
    const findings = diagnose(catalog, await probeMachine(m.host, { catalog }), { tf: '2.10' });
    expect(byId(findings).zlibwapi).toMatchObject({ status: 'fail' });
    const plan = planRepair(findings, 'windows');
    // Not a blocking stop: the other remedies still run; it is listed with the action, left to the user.
    const stop = plan.leftToUser.find((s) => s.finding.id === 'zlibwapi')!;
    expect(stop.stop).toBe('runtime');
    expect(stop.action).toContain('zlib123dllx64.zip');
  });
});
