// The remedies table and the load-order plan as data: every failing finding becomes a step, a stop or
// a listed line (never dropped), and load order appends after the user's own lines, never editing them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { finding } from '../../src/doctor/finding.js';
import { loadOrderExportLine, planLoadOrder } from '../../src/env/index.js';
import { leftToUserStep, planRepair, rowFor } from '../../src/plan/remedies/index.js';

const places = { ldSoConfDir: '/etc/ld.so.conf.d', configDir: '/home/me/.config/cudawiz', journalFile: '/home/me/.config/cudawiz/env-journal.json', home: '/home/me' };
const script = '/home/me/.config/cudawiz/env-cuda-11.8.sh';

describe('the remedies table', () => {
  it('takes the most specific row: library:cudnn imports cuDNN, another library installs the toolkit, the driver library stops', () => {
    expect(rowFor('library:cudnn')).toEqual({ finding: 'library:cudnn', remedy: 'import-cudnn' });
    expect(rowFor('library:cublas')).toEqual({ finding: 'library', remedy: 'install-toolkit' });
    expect(rowFor('library:cuda')).toEqual({ finding: 'library:cuda', stop: 'driver' });
    expect(rowFor('load-order:/usr/local/cuda-11.8/lib64')).toEqual({ finding: 'load-order', remedy: 'load-order' });
    expect(rowFor('no-such-kind')).toBeUndefined();
  });

  it('lists a failing finding it has no row for, with its own fix, and the plan shows it as a step that changes nothing', async () => {
    const odd = finding('something-new' as never, 'fail', 'A thing no row knows', [], 'Do this by hand');
    const plan = planRepair([odd, finding('gpu', 'pass', 'GPU ok')]);
    expect(plan.items).toEqual([{ finding: odd }]);
    expect(plan.remedies).toEqual([]);
    const step = leftToUserStep(plan.items);
    expect(step.title).toBe('Left to you: A thing no row knows');
    expect(await step.run({} as never, {} as never)).toEqual({ summary: '1 finding no step of repair fixes, each with what to do', evidence: ['no step fixes "A thing no row knows": Do this by hand'] });
  });

  it('a blocking stop (the driver) ends the run before any remedy; a Python outside the range is left to the user and the remedies still run', () => {
    const lo = finding('load-order:/x/lib64', 'fail', 'stale first');
    const blocked = planRepair([finding('driver', 'fail', 'Driver 470 is too old', [], 'Update to 525.60.13'), lo]);
    expect(blocked.stops.map((s) => [s.stop, s.action])).toEqual([['driver', 'Update to 525.60.13']]);
    const python = planRepair([finding('python', 'fail', 'Python 3.12 is outside 3.8–3.11', [], 'Install Python 3.11'), lo]);
    expect(python.stops).toEqual([]);
    expect(python.leftToUser.map((s) => s.stop)).toEqual(['python']);
    expect(python.remedies).toEqual(['load-order']);
  });
});

describe('load order for new shells', () => {
  const input = (rc: string | null, shell = '/bin/bash') => ({
    tf: '2.12', cuda: '11.8', dirs: ['/usr/local/cuda-11.8/lib64'], places, env: {},
    state: { ldSoConf: [], files: { [script]: null, '/home/me/.bashrc': rc }, shell },
  });

  it('writes its own script and appends one line after the user\'s, keeping theirs byte for byte', () => {
    const rc = 'export LD_LIBRARY_PATH=/usr/local/cuda-11.2/lib64:$LD_LIBRARY_PATH';
    const plan = planLoadOrder(input(rc));
    expect(plan.changes.map((c) => [c.kind, c.target])).toEqual([['env-script', script], ['rc-line', '/home/me/.bashrc']]);
    expect(plan.changes[0].after).toContain(loadOrderExportLine(['/usr/local/cuda-11.8/lib64']));
    expect(plan.changes[1].after!.startsWith(`${rc}\n`)).toBe(true);
    expect(plan.changes.some((c) => c.kind === 'ld-so-conf' || c.kind === 'ldconfig')).toBe(false);
  });

  it('adds the line again at the end when a later export of the user\'s would win over it', () => {
    const ours = `[ -f '${script}' ] && . '${script}'  # cudawiz`;
    const later = `${ours}\nexport LD_LIBRARY_PATH=/opt/old/lib:$LD_LIBRARY_PATH\n`;
    expect(planLoadOrder(input(later)).changes.map((c) => c.kind)).toEqual(['env-script', 'rc-line']);
    expect(planLoadOrder(input(`export X=1\n${ours}\n`)).changes.map((c) => c.kind)).toEqual(['env-script']);
  });

  it('speaks fish to fish, and refuses a folder name that would break the line', () => {
    const fish = planLoadOrder({ ...input(null, '/usr/bin/fish'), state: { ldSoConf: [], files: {}, shell: '/usr/bin/fish' } });
    expect(fish.changes[0].target).toBe(path.posix.join(places.configDir, 'env-cuda-11.8.fish'));
    expect(fish.changes[0].after).toContain("set -gx LD_LIBRARY_PATH '/usr/local/cuda-11.8/lib64' $LD_LIBRARY_PATH");
    const bad = planLoadOrder({ ...input(null), dirs: ['/opt/cuda\nrm -rf ~'] });
    expect(bad.changes).toEqual([]);
    expect(bad.refusals).toHaveLength(1);
  });
});

describe("the package manager's command, by consent (--package-manager)", () => {
  const prefix = '/home/me/miniconda3/envs/tf';
  const replace = { manager: 'conda' as const, command: `conda install -p ${prefix} "cudnn>=8.6,<9"`, run: { file: 'conda', args: ['install', '--yes', '-p', prefix, 'cudnn>=8.6,<9'] }, packages: ['cudnn'], target: prefix };
  const owner = { manager: 'conda' as const, prefix, packages: [{ name: 'cudnn', version: '8.1.0.77' }] };
  const linux = { ...finding('load-order:/usr/local/cuda-11.8/lib64', 'fail', "conda's cuDNN 8.1 first"), cause: { kind: 'load-order' as const, files: ['libcudnn.so.8'], staleDirs: [{ dir: `${prefix}/lib`, via: 'LD_LIBRARY_PATH' as const }], shadowed: ['libcudnn.so.8'], stale: ['cuDNN 8.1.0.77'], rightDirs: ['/usr/local/cuda-11.8/lib64'], right: ['cuDNN 8.6.0'], owner, replace } };
  const windows = { ...linux, id: 'load-order:C:\\cuda\\bin' as const, cause: { ...linux.cause, staleDirs: [{ dir: `${prefix}\\Library\\bin`, via: 'conda env' as const }] } };

  it('yes: the command instead of the load-order workaround (one or the other), first of the remedies', () => {
    const plan = planRepair([linux, finding('cudnn', 'fail', 'cuDNN 8.1 is older than 8.6')], 'linux', 'yes');
    expect(plan.items[0]).toEqual({ finding: linux, remedy: 'package-manager', replace });
    expect(plan.remedies).toEqual(['package-manager', 'import-cudnn']);
  });

  it('no (and headless without the flag): the workaround, with the command kept to list; --yes has no say here', () => {
    for (const plan of [planRepair([linux], 'linux', 'no'), planRepair([linux])]) {
      expect(plan.items[0]).toMatchObject({ remedy: 'load-order', replace });
      expect(plan.remedies).toEqual(['load-order']);
    }
  });

  it('ask: the command offered first, the workaround kept for a no', () => {
    const plan = planRepair([linux], 'linux', 'ask');
    expect(plan.items[0]).toMatchObject({ remedy: 'load-order', replace, ask: true });
    expect(plan.remedies).toEqual(['package-manager', 'load-order']);
  });

  it("Windows, conda's Library\\bin (no PATH order beats it): a stop without consent, the command with it, asked without blocking", () => {
    expect(planRepair([windows], 'windows', 'no').stops.map((s) => s.stop)).toEqual(['package-manager']);
    const yes = planRepair([windows], 'windows', 'yes');
    expect([yes.stops, yes.remedies]).toEqual([[], ['package-manager']]);
    const ask = planRepair([windows], 'windows', 'ask');
    expect(ask.stops).toEqual([]);
    expect(ask.items[0]).toMatchObject({ ask: true, action: windows.fix ?? windows.title });
    expect(ask.remedies).toEqual(['package-manager']);
  });

  it('a finding without a package command is planned as before, whatever the consent', () => {
    const plain = { ...linux, cause: { ...linux.cause, owner: { manager: 'none' as const }, replace: undefined } };
    expect(planRepair([plain], 'linux', 'yes').items[0]).toEqual({ finding: plain, remedy: 'load-order' });
  });
});
