import { describe, expect, it } from 'vitest';
import { machineFs } from '../../src/probe/machine-fs.js';
import { probePython } from '../../src/probe/python.js';
import { fakeTensorflow, fixtureMachine, hostPython } from '../fixtures/machine.js';

describe('Python and TensorFlow probe', () => {
  it("runs the real interpreter and reads pip's tensorflow 2.3.0 and its build info", async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin:/bin' });
    await fakeTensorflow(m, '/opt/site', '2.3.0', { cuda_version: '10.1', cudnn_version: '7', is_cuda_build: true });
    await m.script('/usr/bin/python3', `PYTHONPATH="${m.hostPath('/opt/site')}" exec "${await hostPython()}" "$@"`);
    const facts = await probePython(m.host, machineFs('linux', m.root));
    expect(facts.state).toBe('found');
    expect(facts.command).toBe('/usr/bin/python3');
    expect(facts.version).toMatch(/^3\.\d+\.\d+$/);
    expect(facts.bits).toBe(64);
    expect(facts.tensorflow).toEqual({
      version: '2.3.0',
      package: 'tensorflow',
      importable: true,
      buildInfo: { cuda_version: '10.1', cudnn_version: '7', is_cuda_build: true },
    });
  });

  it('says TensorFlow is not installed when pip has none, and reports an import failure as it is', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await m.script('/usr/bin/python3', `PYTHONPATH="${m.hostPath('/opt/site')}" exec "${await hostPython()}" "$@"`);
    expect((await probePython(m.host, machineFs('linux', m.root))).tensorflow).toBeUndefined();
    await m.file('/opt/site/tensorflow-2.3.0.dist-info/METADATA', 'Name: tensorflow\nVersion: 2.3.0\n');
    await m.file('/opt/site/tensorflow/__init__.py', 'raise ImportError("libcudart.so.10.1: cannot open shared object file: No such file or directory")\n');
    const facts = await probePython(m.host, machineFs('linux', m.root));
    expect(facts.tensorflow).toMatchObject({ version: '2.3.0', importable: false, importError: 'ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory' });
  });

  it('uses --python when given, and says so when it does not exist', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    const missing = await probePython(m.host, machineFs('linux', m.root), '/opt/py38/bin/python');
    expect(missing).toEqual({ state: 'not-found', evidence: 'none of /opt/py38/bin/python found' });
    await m.script('/opt/py38/bin/python', `exec "${await hostPython()}" "$@"`);
    expect((await probePython(m.host, machineFs('linux', m.root), '/opt/py38/bin/python')).command).toBe('/opt/py38/bin/python');
  });

  it('reports an interpreter that answers nonsense as "could not collect" with its first line', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await m.script('/usr/bin/python3', 'echo "pyenv: python3: command not found" >&2; exit 127');
    const facts = await probePython(m.host, machineFs('linux', m.root));
    expect(facts).toMatchObject({ state: 'could-not-collect', evidence: 'pyenv: python3: command not found' });
  });
});
