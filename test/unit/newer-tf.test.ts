// A TensorFlow newer than the catalog (a few months after a release, pip has it and cudawiz does
// not): every command says so and what still works, from one decision in src/catalog/newer-tf.ts.
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { tfBeyondCatalog } from '../../src/catalog/newer-tf.js';
import { compareDotted } from '../../src/version.js';
import { runCli } from '../helpers/cli.js';
import { fakeTensorflow, fixtureMachine, hostPython } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const newest = [...catalog.tensorflow.linux].sort((a, b) => compareDotted(b.version, a.version))[0];
const end = newest.version.split('.').slice(0, 2).join('.');
const next = `${end.split('.')[0]}.${Number(end.split('.')[1]) + 1}.0`;

/** A Linux machine whose python3 has TensorFlow `next` pip-installed. */
async function machineWithNewerTf() {
  const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
  const site = '/home/me/.local/lib/python3/site-packages';
  await fakeTensorflow(m, site, next, { cuda_version: '12.5', cudnn_version: '9', is_cuda_build: true });
  await m.script('/usr/bin/python3', `PYTHONPATH="${m.hostPath(site)}" exec "${await hostPython()}" "$@"`);
  return m;
}

describe('the decision', () => {
  it(`${next} is newer than the catalog; a known line, an older one and a far-off typo are not`, () => {
    const b = tfBeyondCatalog(catalog, next, 'linux');
    expect(b).toMatchObject({ tf: next, catalogEnd: end, newest: { version: newest.version, cuda: newest.cuda }, pip: `tensorflow[and-cuda]==${next}` });
    // TF kept CUDA 12.5 / cuDNN 9.3 from 2.18 to 2.21: that run is what makes the newest row a fair guess.
    expect(b!.newest.sameSince).toBe('2.18.0');
    expect(tfBeyondCatalog(catalog, newest.version, 'linux')).toBeUndefined();
    expect(tfBeyondCatalog(catalog, '2.3.1', 'linux')).toBeUndefined();
    expect(tfBeyondCatalog(catalog, '2.99', 'linux')).toBeUndefined();
    // …unless pip says it is installed: then it exists, however far ahead.
    expect(tfBeyondCatalog(catalog, '2.99.0', 'linux', { installed: true })?.tf).toBe('2.99.0');
    // pip's release candidates are that release.
    expect(tfBeyondCatalog(catalog, next.replace(/\.0$/, '.0rc1'), 'linux', { installed: true })?.pip).toBe(`tensorflow[and-cuda]==${next.replace(/\.0$/, '.0rc1')}`);
    // Native Windows: no pip route there (only inside WSL2).
    expect(tfBeyondCatalog(catalog, next, 'windows')?.pip).toBeUndefined();
  });
});

describe('every command takes the path', () => {
  it(`requirements --tf ${next}: the catalog's end, then what still works (exit 1, not a usage error)`, async () => {
    const r = await runCli(['requirements', '--tf', next, '--os', 'linux']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cudawiz's catalog ends at ${end}; TensorFlow ${next} came later.`);
    expect(r.stderr).toContain(`pip install "tensorflow[and-cuda]==${next}"`);
    expect(r.stderr).toContain(`cudawiz install --tf ${end}`);
    expect(r.stderr).toContain('--catalog FILE');
    expect(r.stderr).toContain('npm install -g cudawiz@latest');
    expect(r.stderr).not.toContain('Unknown TensorFlow version');
  });

  it('requirements --json carries the options as data', async () => {
    const r = await runCli(['requirements', '--tf', next, '--os', 'linux', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc.error).toMatchObject({ code: 'tf-newer-than-catalog', catalogEnd: end });
    expect(doc.error.options.map((o: { id: string }) => o.id)).toEqual(['pip', 'same-cuda', 'overlay', 'upgrade']);
  });

  it(`install --tf ${next}: nothing is changed, the path is printed (exit 1)`, async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const r = await runCli(['install', '--tf', next, '--dry-run', '--cuda-root', m.hostPath('/usr/local')], { host: m.host });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`TensorFlow ${next} came later`);
  });

  it(`doctor with pip's ${next}: a warning that says where the version came from and what still works`, async () => {
    const m = await machineWithNewerTf();
    const r = await runCli(['doctor', '--json'], { host: m.host });
    const f = JSON.parse(r.stdout).findings.find((x: { id: string }) => x.id === 'tf-target');
    expect(f.status).toBe('warn');
    expect(f.title).toBe(`cudawiz's catalog ends at ${end}; TensorFlow ${next} came later. (pip-installed tensorflow ${next})`);
    expect(f.evidence.join('\n')).toContain(`tensorflow[and-cuda]==${next}`);
    expect(f.fix).not.toContain('--tf');
  });

  it(`doctor --tf ${next}: scans and warns instead of refusing`, async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    const r = await runCli(['doctor', '--tf', next, '--json'], { host: m.host });
    const f = JSON.parse(r.stdout).findings.find((x: { id: string }) => x.id === 'tf-target');
    expect(f).toMatchObject({ status: 'warn', title: expect.stringContaining('(from --tf)') });
  });

  it(`repair with pip's ${next}: nothing to repair against; the path (exit 1)`, async () => {
    const m = await machineWithNewerTf();
    const r = await runCli(['repair', '--yes', '--cuda-root', m.hostPath('/usr/local')], { host: m.host });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`TensorFlow ${next} came later`);
    expect(r.stderr).toContain('pip install');
  });
});

describe('the overlay option', () => {
  it(`a --catalog overlay that adds a ${next} row makes it known: requirements answers from it`, async () => {
    const dir = await fixtureMachine('linux');
    const overlay = await dir.file('/overlay.json', JSON.stringify({ tensorflow: { linux: [{ version: next, python: ['3.10-3.13'], cuda: '12.5', cudnn: '9.3' }] } }));
    const r = await runCli(['requirements', '--tf', next, '--os', 'linux', '--json', '--catalog', overlay]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tensorflow: next, row: next, cuda: '12.5', cudnn: '9.3' });
  });
});
