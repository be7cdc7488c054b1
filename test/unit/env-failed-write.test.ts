// A PATH write that fails leaves nothing in the journal when the saved value is as it was, so a later
// rollback neither claims to undo it nor mistakes the user's own edit for one of cudawiz's.
// (Seen in the Windows lane with a PowerShell that writes nothing: reference/wine.md finding 2.)
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { applyEnvChanges, envPlaces, planEnvChanges, readWindowsEnvState, rollbackEnvChanges } from '../../src/env/index.js';
import { tempDir } from '../helpers/tmp.js';
import { tfLibraryFiles, windowsMachine } from './env-fixtures.js';

const V101 = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1';
const SYSTEM = '%SystemRoot%\\system32;%SystemRoot%;%SystemRoot%\\System32\\Wbem';

async function failedWrite(powershell: Record<string, string>) {
  const m = await windowsMachine({ processPath: '', env: { SystemRoot: 'C:\\Windows', ...powershell } });
  await m.setPersisted('HKLM', SYSTEM);
  await m.setPersisted('HKCU', '');
  const files = tfLibraryFiles('2.3', 'windows');
  const places = envPlaces({ host: m.host, configDir: await tempDir('cudawiz-config-') });
  const plan = planEnvChanges({ os: 'windows', tf: '2.3', cuda: '10.1', toolkitDir: V101, requiredFiles: files, toolkits: [{ version: '10.1', dir: V101, files }], elevated: true, env: m.host.env, places, windows: await readWindowsEnvState(m.host) });
  const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
  return { m, places, result };
}

describe('a Machine PATH write that does not happen', () => {
  it('fails with the read-back, keeps no journal entry, and a later rollback leaves the user\'s own edit alone', async () => {
    // FIXTURE_POWERSHELL_FAIL: PowerShell refuses (exit 1) and writes nothing.
    const { m, places, result } = await failedWrite({ FIXTURE_POWERSHELL_FAIL: '1' });
    expect(result.ok).toBe(false);
    expect(result.failed?.message).toMatch(/^Could not set the Machine PATH: /);
    // A journal with nothing in it is not left behind (#39: rollback leaves no empty journal).
    expect(await readFile(places.journalFile, 'utf8').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ENOENT');
    await m.setPersisted('HKLM', `${SYSTEM};D:\\Go\\bin`);
    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo).toMatchObject({ ok: true, undone: [], kept: [], failed: [] });
    expect((await m.persisted('HKLM')).value).toBe(`${SYSTEM};D:\\Go\\bin`);
  });
});
