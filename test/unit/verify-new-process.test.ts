// Verify after a PATH change on Windows: the change lives in the registry and reaches new processes
// only, so the libraries are judged by the saved Machine + User PATH, not by this process's own
// (the Windows lane's first-install exit 1, reference/wine.md finding 1). A fixture Windows machine:
// its C:\ in a temp dir, the registry behind stand-in reg.exe/powershell.exe scripts.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.js';
import type { Host } from '../../src/host.js';
import { createPlanContext } from '../../src/plan/context.js';
import { verifySetup } from '../../src/verify/index.js';
import { fixtureMachine, TOOLKIT_LIBRARIES } from '../fixtures/machine.js';
import { windowsMachine } from './env-fixtures.js';

const V101 = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1';
const SYSTEM = '%SystemRoot%\\system32;%SystemRoot%;%SystemRoot%\\System32\\Wbem';
const ENV = { SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files' };

/** The seed's laptop right after cudawiz wrote the Machine PATH: CUDA 10.1 + cuDNN 7.6.5 in place, this process's PATH from before. */
async function laptopAfterPathWrite(savedMachinePath: string, processPath = 'C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem') {
  const m = await fixtureMachine('windows', ENV);
  await m.toolkit(V101, { version: '10.1.243', versionFile: 'version.txt', libraries: [...TOOLKIT_LIBRARIES.windows['10.1']], cudnn: '7.6.5' });
  await m.file('C:\\Windows\\System32\\nvcuda.dll', 'MZ');
  const reg = await windowsMachine({ processPath, env: ENV });
  await reg.setPersisted('HKLM', savedMachinePath);
  const host: Host = { ...m.host, env: reg.host.env, run: reg.host.run };
  return createPlanContext(loadCatalog(), host, { tf: '2.3', configureEnv: 'yes', command: 'cudawiz' });
}

describe('verify on Windows, right after the PATH change', () => {
  it("passes the libraries layer from the saved PATH the moment cudawiz has written it, and says a new terminal is needed", async () => {
    const ctx = await laptopAfterPathWrite(`${V101}\\bin;${V101}\\extras\\CUPTI\\lib64;${SYSTEM}`);
    const libraries = (await verifySetup(ctx)).find((l) => l.id === 'libraries')!;
    expect(libraries.status, libraries.evidence.join('\n')).toBe('pass');
    expect(libraries.evidence[0]).toContain('open a new terminal');
    expect(libraries.evidence).toContain(`cudart64_101.dll → ${V101}\\bin`);
  });

  it('still fails when the saved PATH does not reach the toolkit either', async () => {
    const ctx = await laptopAfterPathWrite(SYSTEM);
    const libraries = (await verifySetup(ctx)).find((l) => l.id === 'libraries')!;
    expect(libraries.status).toBe('fail');
    // The doctor's one load-order finding for the libraries that folder decides: its fix puts it first.
    expect(libraries.fix).toContain(`puts ${V101}\\bin first for your new shells`);
  });

  it('says nothing about a new terminal when this process already has the saved PATH', async () => {
    const ctx = await laptopAfterPathWrite(`${V101}\\bin;${SYSTEM}`, `${V101}\\bin;C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem`);
    const libraries = (await verifySetup(ctx)).find((l) => l.id === 'libraries')!;
    expect(libraries.status).toBe('pass');
    expect(libraries.evidence.join('\n')).not.toContain('new terminal');
  });
});
