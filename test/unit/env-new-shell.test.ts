// newShellHost reads back only what cudawiz wrote: the rc line that sources its env script, and the
// script's exports. bash itself is the oracle: what it gets from sourcing the script is what the
// parser says, for folder names with quotes, spaces and dollars.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { envPlaces, planEnvChanges } from '../../src/env/plan.js';
import { rcSourceLine } from '../../src/env/linux-plan.js';
import { newShellHost, scriptPrepends, sourcedScript } from '../../src/env/new-shell.js';
import type { Host } from '../../src/host.js';
import { runCommand } from '../../src/host.js';
import { tempDir } from '../helpers/tmp.js';

const ODD = `/data/it's a "cuda" $HOME \`x\` folder/cuda-11.8`;

function userHost(home: string, shell: string, env: Record<string, string> = {}): Host {
  return { os: 'linux', home, env: { HOME: home, SHELL: shell, LD_LIBRARY_PATH: '/driver', ...env }, run: (file, args, o = {}) => runCommand(file, args, o) };
}

async function planned(home: string, shell: string) {
  const host = userHost(home, shell);
  const places = envPlaces({ host, configDir: path.join(home, '.config/cudawiz') });
  const plan = planEnvChanges({ os: 'linux', cuda: '11.8', toolkitDir: ODD, requiredFiles: [], toolkits: [], elevated: false, env: host.env, places, forUser: true, linux: { ldSoConf: [], files: {}, shell } });
  return { host, plan };
}

describe('the new shell as cudawiz left it', () => {
  it('reads its own posix script as bash does, folder names with quotes, spaces and $ included', async () => {
    const home = await tempDir('cw-newshell-');
    const { plan } = await planned(home, '/bin/bash');
    const script = plan.changes.find((c) => c.kind === 'env-script')!;
    expect(plan.changes.map((c) => c.kind)).toEqual(['env-script', 'rc-line']);
    await mkdir(path.dirname(script.target), { recursive: true });
    await writeFile(script.target, script.after!);
    const bash = await execa('bash', ['-c', '. "$0" && printf %s "$LD_LIBRARY_PATH"', script.target], { env: { LD_LIBRARY_PATH: '/driver' }, extendEnv: false });
    const ld = scriptPrepends(script.after!).find((v) => v.name === 'LD_LIBRARY_PATH')!;
    expect([...ld.dirs, '/driver'].join(':')).toBe(bash.stdout);
    expect(ld.dirs[0]).toBe(`${ODD}/lib64`);
    expect(sourcedScript(rcSourceLine(script.target, 'posix'))).toBe(script.target);
    expect(sourcedScript(rcSourceLine(`/tmp/it's`, 'fish'))).toBe(`/tmp/it's`);
  });

  it('is this process\'s environment until the rc file sources the script, and then has its folders first', async () => {
    const home = await tempDir('cw-newshell-');
    const { host, plan } = await planned(home, '/bin/bash');
    const script = plan.changes.find((c) => c.kind === 'env-script')!;
    const rc = plan.changes.find((c) => c.kind === 'rc-line')!;
    await mkdir(path.dirname(script.target), { recursive: true });
    await writeFile(script.target, script.after!);
    // The script alone is not sourced by anything: a new shell does not have it.
    expect(await newShellHost(host)).toMatchObject({ changed: false, sourced: [] });
    await writeFile(rc.target, rc.after!);
    const shell = await newShellHost(host);
    expect(shell).toMatchObject({ changed: true, sourced: [script.target] });
    expect(shell.host.env.LD_LIBRARY_PATH).toBe(`${ODD}/lib64:${ODD}/extras/CUPTI/lib64:/driver`);
    // An rc line whose script is gone is skipped, as its `[ -f … ]` skips it.
    await writeFile(rc.target, `${rc.after}${rcSourceLine(path.join(home, 'missing.sh'), 'posix')}\n`);
    expect((await newShellHost(host)).sourced).toEqual([script.target]);
  });

  it('reads fish\'s script and config.fish too', async () => {
    const home = await tempDir('cw-newshell-');
    const { host, plan } = await planned(home, '/usr/bin/fish');
    for (const c of plan.changes) {
      await mkdir(path.dirname(c.target), { recursive: true });
      await writeFile(c.target, c.after!);
    }
    const shell = await newShellHost(host);
    expect(shell.host.env.LD_LIBRARY_PATH).toBe(`${ODD}/lib64:${ODD}/extras/CUPTI/lib64:/driver`);
    expect(shell.host.env.PATH?.split(':')[0]).toBe(`${ODD}/bin`);
  });
});
