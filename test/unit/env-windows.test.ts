import { describe, expect, it } from 'vitest';
import {
  applyEnvChanges,
  describeEnvChange,
  envPlaces,
  parseRegQueryPath,
  planEnvChanges,
  readWindowsEnvState,
  rollbackEnvChanges,
  type EnvPlanInput,
  type ToolkitLibraries,
} from '../../src/env/index.js';
import { powershellCommand, setPersistedPathScript } from '../../src/platform.js';
import { tempDir } from '../helpers/tmp.js';
import { windowsMachine, type WindowsMachine } from './env-fixtures.js';

const CUDA = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA';
const V110 = `${CUDA}\\v11.0`;
const V112 = `${CUDA}\\v11.2`;
// TF 2.5–2.10 on Windows: CUDA 11.2 + cuDNN 8.1. 11.0 shares cudart64_110.dll and cublas64_11.dll with 11.2.
const TF25 = ['cudart64_110.dll', 'cublas64_11.dll', 'cublasLt64_11.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusolver64_11.dll', 'cusparse64_11.dll', 'cudnn64_8.dll'];
const TOOLKITS: ToolkitLibraries[] = [
  { version: '11.0', dir: V110, files: ['cudart64_110.dll', 'cublas64_11.dll', 'cublasLt64_11.dll', 'cufft64_10.dll', 'curand64_10.dll', 'cusparse64_11.dll'] },
  { version: '11.2', dir: V112, files: TF25 },
];
const SYSTEM = '%SystemRoot%\\system32;%SystemRoot%;%SystemRoot%\\System32\\Wbem';
// What the 11.0 then 11.2 installers leave: each adds its bin and libnvvp, 11.0's ahead.
const MACHINE = `${SYSTEM};${V110}\\bin;${V110}\\libnvvp;${V112}\\bin;${V112}\\libnvvp`;
const USER = 'C:\\Users\\ada\\AppData\\Local\\Programs\\Python\\Python38\\Scripts\\;C:\\Users\\ada\\AppData\\Local\\Programs\\Python\\Python38\\';
const EXPANDED = (v: string) => v.replace(/%SystemRoot%/g, 'C:\\Windows');

async function planFor(m: WindowsMachine, elevated: boolean, env: Record<string, string | undefined> = m.host.env) {
  const places = envPlaces({ host: m.host, configDir: await tempDir('cudawiz-config-') });
  const input: EnvPlanInput = {
    os: 'windows',
    tf: '2.5',
    cuda: '11.2',
    toolkitDir: V112,
    requiredFiles: TF25,
    toolkits: TOOLKITS,
    elevated,
    env,
    places,
    windows: await readWindowsEnvState(m.host),
  };
  return { plan: planEnvChanges(input), places };
}

describe('Windows: 11.0 bin ahead of 11.2 on the machine PATH', () => {
  it('plans moving 11.2 bin and CUPTI ahead, writes it through PowerShell with the old value journalled, and rollback restores it exactly', async () => {
    const m = await windowsMachine({ processPath: EXPANDED(`${MACHINE};${USER}`), env: { SystemRoot: 'C:\\Windows', CUDA_PATH: V112 } });
    await m.setPersisted('HKLM', MACHINE);
    await m.setPersisted('HKCU', USER);
    const { plan, places } = await planFor(m, true);

    expect(await m.calls()).toEqual([
      'reg.exe query HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment /v Path',
      'reg.exe query HKCU\\Environment /v Path',
    ]);
    expect(plan.refusals).toEqual([]);
    expect(plan.changes).toHaveLength(1);
    const change = plan.changes[0];
    const wanted = `${V112}\\bin;${V112}\\extras\\CUPTI\\lib64;${SYSTEM};${V110}\\bin;${V110}\\libnvvp;${V112}\\libnvvp`;
    expect(change).toMatchObject({ kind: 'windows-path', target: 'Machine', before: MACHINE, after: wanted, valueKind: 'REG_EXPAND_SZ' });
    expect(change.command?.script).toBe(
      "$k = [Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment', $true); " +
        `$k.SetValue('Path', '${wanted}', [Microsoft.Win32.RegistryValueKind]::ExpandString); $k.Close(); ` +
        "[Environment]::SetEnvironmentVariable('CUDAWIZ_PATH_CHANGED', $null, 'User')",
    );
    expect(change.command?.file).toBe('powershell.exe');
    expect(change.command?.args.slice(0, 5)).toEqual(['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand']);
    expect(Buffer.from(change.command!.args[5], 'base64').toString('utf16le')).toBe(change.command?.script);
    expect(plan.notes).toContain(`cudart64_110.dll now loads from ${V110}\\bin (Machine PATH) first; moving ${V112}\\bin ahead of it, because TensorFlow 2.5 needs CUDA 11.2's copy.`);
    expect(plan.notes.some((n) => n.startsWith('After the PATH change: Close and reopen every terminal'))).toBe(true);
    expect(describeEnvChange(change)[0]).toBe(`Set the Machine PATH (the old value is saved for rollback) — put ${V112}\\bin and its CUPTI folder first in the Machine PATH. New order:`);

    const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(result.ok).toBe(true);
    expect(await m.persisted('HKLM')).toEqual({ value: wanted, kind: 'REG_EXPAND_SZ' });
    expect(await m.persisted('HKCU')).toEqual({ value: USER, kind: 'REG_EXPAND_SZ' });
    expect((await m.calls()).filter((c) => c.startsWith('script: '))).toEqual([`script: ${change.command?.script}`]);

    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo.ok).toBe(true);
    expect(await m.persisted('HKLM')).toEqual({ value: MACHINE, kind: 'REG_EXPAND_SZ' });
  });

  it('never runs setx: every write is the PowerShell registry call', async () => {
    const script = setPersistedPathScript('User', "C:\\it's mine", 'REG_SZ');
    expect(script).toBe(
      "$k = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Environment', $true); $k.SetValue('Path', 'C:\\it''s mine', [Microsoft.Win32.RegistryValueKind]::String); $k.Close(); [Environment]::SetEnvironmentVariable('CUDAWIZ_PATH_CHANGED', $null, 'User')",
    );
    expect(powershellCommand(script).args.join(' ')).not.toMatch(/setx/i);
  });

  it('refuses without admin rights when the shadowing folder is machine-wide, and says how to elevate', async () => {
    const m = await windowsMachine({ processPath: EXPANDED(`${MACHINE};${USER}`), env: { SystemRoot: 'C:\\Windows' } });
    await m.setPersisted('HKLM', MACHINE);
    await m.setPersisted('HKCU', USER);
    const { plan } = await planFor(m, false);
    expect(plan.changes).toEqual([]);
    expect(plan.refusals[0].fix).toBe('Open "Terminal (Admin)" (or an elevated PowerShell) and run: cudawiz install --tf 2.5 --configure-env yes');
  });

  it('refuses a PATH longer than Windows allows and names the limit and its source', async () => {
    // A machine PATH a few characters under the limit: moving 11.2 ahead adds its CUPTI folder and tips it over.
    const tools: string[] = [];
    const machineOf = () => [...tools, `${V110}\\bin`, `${V112}\\bin`].join(';');
    while (machineOf().length < 32_767 - 60) tools.push(`C:\\Tools\\tool-${String(tools.length).padStart(4, '0')}\\bin`);
    const machine = machineOf();
    expect(machine.length).toBeLessThanOrEqual(32_767);
    const m = await windowsMachine({ processPath: machine, env: { SystemRoot: 'C:\\Windows' } });
    await m.setPersisted('HKLM', machine);
    await m.setPersisted('HKCU', '');
    const { plan } = await planFor(m, true);
    expect(plan.changes).toEqual([]);
    expect(plan.refusals).toHaveLength(1);
    expect(plan.refusals[0].reason).toMatch(/^The new Machine PATH would be \d+ characters; Windows allows at most 32767 \(https:\/\/learn\.microsoft\.com\/.+SetEnvironmentVariable/i);
  });

  it('says which programs to restart when this window still has the PATH from before the install', async () => {
    const m = await windowsMachine({ processPath: EXPANDED(`${SYSTEM};${USER}`), env: { SystemRoot: 'C:\\Windows' } });
    const fixed = `${V112}\\bin;${V112}\\extras\\CUPTI\\lib64;${SYSTEM}`;
    await m.setPersisted('HKLM', fixed);
    await m.setPersisted('HKCU', USER);
    const { plan } = await planFor(m, true);
    expect(plan.changes).toEqual([]);
    expect(plan.notes).toContain(`Every DLL TensorFlow needs resolves first from ${V112}\\bin.`);
    const notice = plan.notes.find((n) => n.startsWith("This window's PATH differs from the saved one"));
    expect(notice).toContain(`it lacks ${V112}\\bin, ${V112}\\extras\\CUPTI\\lib64`);
    expect(notice).toContain('restart the Jupyter server itself');
    expect(notice).toContain('VS Code');

    // The saved PATH in this window, plus a folder `conda activate` put in front: no restart notice.
    const same = await windowsMachine({ processPath: EXPANDED(`C:\\Users\\ada\\miniconda3\\envs\\tf\\Library\\bin;${fixed};${USER}`), env: { SystemRoot: 'C:\\Windows' } });
    await same.setPersisted('HKLM', fixed);
    await same.setPersisted('HKCU', USER);
    expect((await planFor(same, true)).plan.notes.some((n) => n.includes('differs from the saved one'))).toBe(false);
  });

  it('tells a user whose CUDA_PATH points at another toolkit that TensorFlow does not read it', async () => {
    const m = await windowsMachine({ processPath: '', env: { CUDA_PATH: `${CUDA}\\v12.1` } });
    await m.setPersisted('HKLM', `${V112}\\bin;${V112}\\extras\\CUPTI\\lib64`);
    const { plan } = await planFor(m, true);
    expect(plan.notes).toContain(`CUDA_PATH points at ${CUDA}\\v12.1. TensorFlow does not read CUDA_PATH (it finds its DLLs through PATH), so it can stay as it is.`);
  });

  it('puts the folders in the user PATH without admin rights when nothing machine-wide shadows them', async () => {
    const m = await windowsMachine({ processPath: '', env: { SystemRoot: 'C:\\Windows' } });
    await m.setPersisted('HKLM', SYSTEM);
    // no HKCU Path value at all: reg.exe says it cannot find it
    const { plan, places } = await planFor(m, false);
    // null, not '': the journal says there was no value, so rollback deletes it rather than writing an empty one.
    expect(plan.changes[0]).toMatchObject({ target: 'User', before: null, after: `${V112}\\bin;${V112}\\extras\\CUPTI\\lib64` });
    const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(result.ok).toBe(true);
    expect(await m.persisted('HKCU')).toEqual({ value: `${V112}\\bin;${V112}\\extras\\CUPTI\\lib64`, kind: 'REG_EXPAND_SZ' });
    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo).toMatchObject({ ok: true, kept: [], failed: [] });
    expect(await m.exists('HKCU')).toBe(false);
    expect((await m.calls()).filter((c) => c.includes("DeleteValue('Path', $false)"))).toHaveLength(1);
  });

  it('leaves a PATH the user changed after cudawiz alone at rollback, and says how to restore it', async () => {
    const m = await windowsMachine({ processPath: '', env: { SystemRoot: 'C:\\Windows' } });
    await m.setPersisted('HKLM', MACHINE);
    await m.setPersisted('HKCU', USER);
    const { plan, places } = await planFor(m, true);
    await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    const edited = `${plan.changes[0].after};D:\\Go\\bin`;
    await m.setPersisted('HKLM', edited);
    const undo = await rollbackEnvChanges(places.journalFile, { host: m.host });
    expect(undo.kept[0].reason).toBe('the Machine PATH was changed after cudawiz set it');
    expect(undo.kept[0].fix).toContain(MACHINE);
    expect((await m.persisted('HKLM')).value).toBe(edited);
  });

  it('writes nothing when the saved PATH changed between plan and apply', async () => {
    const m = await windowsMachine({ processPath: '', env: { SystemRoot: 'C:\\Windows' } });
    await m.setPersisted('HKLM', MACHINE);
    await m.setPersisted('HKCU', USER);
    const { plan, places } = await planFor(m, true);
    await m.setPersisted('HKLM', `${MACHINE};C:\\NewTool`);
    const result = await applyEnvChanges(plan.changes, { host: m.host, journalFile: places.journalFile });
    expect(result.ok).toBe(false);
    expect(result.failed?.message).toBe('The Machine PATH changed since the plan was made; nothing was written.');
    expect((await m.persisted('HKLM')).value).toBe(`${MACHINE};C:\\NewTool`);
  });
});

describe('reading reg.exe output', () => {
  it('keeps a REG_EXPAND_SZ value unexpanded, CRLF and all', () => {
    const out = '\r\nHKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment\r\n    Path    REG_EXPAND_SZ    %SystemRoot%\\system32;%SystemRoot%\r\n\r\n';
    expect(parseRegQueryPath(out)).toEqual({ kind: 'REG_EXPAND_SZ', value: '%SystemRoot%\\system32;%SystemRoot%' });
    expect(parseRegQueryPath('\r\nHKEY_CURRENT_USER\\Environment\r\n    Path    REG_SZ    \r\n')).toEqual({ kind: 'REG_SZ', value: '' });
  });

  it('reads a User scope without a Path as an empty one on a Chinese Windows too, where reg.exe says "not found" in Chinese', async () => {
    const m = await windowsMachine({ processPath: '', env: { SystemRoot: 'C:\\Windows' }, regLang: 'zh' });
    await m.setPersisted('HKLM', SYSTEM);
    const state = await readWindowsEnvState(m.host);
    expect(state.unreadable).toEqual([]);
    expect(state.persisted).toEqual({ Machine: { value: SYSTEM, kind: 'REG_EXPAND_SZ' }, User: { value: '', kind: 'REG_EXPAND_SZ', absent: true } });
    // The language-free check: the whole key listed, without a Path line.
    expect(await m.calls()).toContain('reg.exe query HKCU\\Environment');
  });
});
