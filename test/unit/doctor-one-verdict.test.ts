// The doctor as one diagnosis (#39.5, #40): a library's version read from its file name where no header
// says it, a copy of unknown version ahead of the right one never a pass, one verdict per file (the
// runtime-serving rule decides "serves this TF" for the runtime finding and the library finding alike),
// and a distribution's CUDA complete when it has every CUDA library TF loads (cuDNN is its own finding).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/catalog/load.js';
import { diagnose, type Finding } from '../../src/doctor/diagnose.js';
import { probeMachine } from '../../src/probe/index.js';
import { aptCuda } from '../fixtures/apt-cuda.js';
import { fixtureMachine, TOOLKIT_LIBRARIES } from '../fixtures/machine.js';

const catalog = builtinCatalog();
const byId = (fs: Finding[]) => Object.fromEntries(fs.map((f) => [f.id, f]));
const CUDA118 = [...TOOLKIT_LIBRARIES.linux['11.2']];

/** CUDA 11.8 + cuDNN 8.6 in /usr/local/cuda-11.8 (the ld cache), and `first` ahead of it on LD_LIBRARY_PATH. */
async function machine(first: (m: Awaited<ReturnType<typeof fixtureMachine>>) => Promise<void>) {
  const m = await fixtureMachine('linux');
  await m.toolkit('/usr/local/cuda-11.8', { version: '11.8.89', versionFile: 'version.json', libraries: CUDA118, cudnn: '8.6.0' });
  await m.script('/sbin/ldconfig', `cat <<'EOF'\n9 libs found in cache \`/etc/ld.so.cache'\n${[...CUDA118, 'libcudnn.so.8'].map((f) => `\t${f} (libc6,x86-64) => /usr/local/cuda-11.8/lib64/${f}`).join('\n')}\nEOF`);
  await first(m);
  return probeMachine({ ...m.host, env: { PATH: '/usr/bin', LD_LIBRARY_PATH: '/opt/old/lib' } }, { cudaRoot: '/usr/local' });
}

describe('a version read from the file name', () => {
  it('libcudnn.so.8 → libcudnn.so.8.0.4 first on LD_LIBRARY_PATH, no header, TF 2.12 needing 8.6: a failure naming 8.0.4, not a pass', async () => {
    const facts = await machine(async (m) => {
      await m.file('/opt/old/lib/libcudnn.so.8.0.4', 'ELF');
      await m.link('/opt/old/lib/libcudnn.so.8', 'libcudnn.so.8.0.4');
    });
    expect(facts.cudnn.find((c) => c.path === '/opt/old/lib')).toMatchObject({ version: '8.0.4', header: '/opt/old/lib/libcudnn.so.8.0.4' });
    const findings = diagnose(catalog, facts, { tf: '2.12' });
    const cudnnLib = findings.filter((f) => f.evidence.join('\n').includes('libcudnn.so.8') || f.id === 'library:cudnn');
    expect(cudnnLib.some((f) => f.status === 'pass' && f.id === 'library:cudnn')).toBe(false);
    const lo = findings.find((f) => f.id === 'load-order:/usr/local/cuda-11.8/lib64');
    expect(lo).toMatchObject({ status: 'fail' });
    expect(lo!.title).toContain('cuDNN 8.0.4');
  });

  it('a cuDNN of unknown version (no header, no version in any file name) ahead of the right one: a warning with the right folder first, never a pass', async () => {
    const facts = await machine(async (m) => {
      await m.file('/opt/old/lib/libcudnn.so.8', 'ELF');
    });
    const f = byId(diagnose(catalog, facts, { tf: '2.12' }))['library:cudnn'];
    expect(f).toMatchObject({ status: 'warn', title: 'libcudnn.so.8 resolves to /opt/old/lib, whose cuDNN version cudawiz cannot read (no version header, no version in its file name), ahead of cuDNN 8.6.0 in /usr/local/cuda-11.8/lib64' });
    expect(f.fix).toContain('/usr/local/cuda-11.8/lib64');
  });
});

describe('one verdict per file', () => {
  it('a CUDA 11.2 runtime (its version only in its file name) first on the path for TF 2.12: the runtime finding and libcudart.so.11.0 agree it does not serve 2.12', async () => {
    const facts = await machine(async (m) => {
      await m.file('/opt/old/lib/libcudart.so.11.2.152', 'ELF');
      await m.link('/opt/old/lib/libcudart.so.11.0', 'libcudart.so.11.2.152');
    });
    const f = byId(diagnose(catalog, facts, { tf: '2.12' }));
    expect(f['cuda-runtime:/opt/old/lib']).toMatchObject({ status: 'warn', title: 'CUDA 11.2.152 runtime at /opt/old/lib (libcudart.so.11.0) serves TensorFlow 2.5–2.11, not 2.12 (built with CUDA 11.8)' });
    const cudart = Object.values(f).filter((x) => x.id === 'library:cudart' || (x.id.startsWith('load-order:') && x.title.includes('/opt/old/lib')));
    expect(cudart.map((x) => x.status)).toEqual(['fail']);
    // For TF 2.11 the same runtime serves: both say so.
    const f211 = byId(diagnose(catalog, facts, { tf: '2.11' }));
    expect(f211['cuda-runtime:/opt/old/lib'].status).toBe('pass');
    expect(f211['library:cudart']).toMatchObject({ status: 'pass' });
  });
});

describe("a distribution's CUDA (Debian's nvidia-cuda-toolkit 11.8.89 in /usr)", () => {
  it('plain doctor: the toolkit is complete (every CUDA library TF loads), and the missing cuDNN is its own finding', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin' });
    await aptCuda(m, { ldconfig: true });
    const facts = await probeMachine(m.host, { cudaRoot: '/usr/local' });
    const f = byId(diagnose(catalog, facts));
    expect(f['toolkit:/usr']).toMatchObject({ status: 'pass' });
    expect(f['toolkit:/usr'].title).not.toContain('partial');
    expect(f['toolkit:/usr'].fix).toBeNull();
    expect(f['cudnn:/usr']).toMatchObject({ status: 'warn', title: expect.stringMatching(/^No cuDNN beside CUDA 11\.8\.89 at \/usr/) });
    expect(f['cuda-runtime:/usr/lib/x86_64-linux-gnu']).toMatchObject({ status: 'pass' });
    // Nothing says "partial" or "needs a full toolkit" about it.
    expect(JSON.stringify(Object.values(f))).not.toMatch(/partial|full toolkit/);
  });
});

describe('each distinct fix once', () => {
  it("TF 2.6 over CUDA 11.0 alone (the same file names, an older minor): one toolkit finding names the 7 libraries, not 7 × \"Install the right one\"", async () => {
    const m = await fixtureMachine('linux');
    await m.toolkit('/usr/local/cuda-11.0', { version: '11.0.221', versionFile: 'version.json', libraries: CUDA118, cudnn: '8.1.1' });
    await m.script('/sbin/ldconfig', `cat <<'EOF'\n8 libs found in cache \`/etc/ld.so.cache'\n${[...CUDA118, 'libcudnn.so.8'].map((f) => `\t${f} (libc6,x86-64) => /usr/local/cuda-11.0/lib64/${f}`).join('\n')}\nEOF`);
    const facts = await probeMachine({ ...m.host, env: { PATH: '/usr/bin' } }, { cudaRoot: '/usr/local' });
    const findings = diagnose(catalog, facts, { tf: '2.6' });
    const fixes = findings.filter((f) => f.status !== 'pass' && f.fix).map((f) => f.fix);
    expect(fixes.filter((x) => x!.includes('cudawiz install --tf 2.6'))).toHaveLength(1);
    expect(findings.some((f) => f.fix?.startsWith('Install the right one'))).toBe(false);
    const toolkit = byId(findings).toolkit;
    expect(toolkit.status).toBe('fail');
    expect(toolkit.evidence).toContain("7 of TensorFlow's libraries load a wrong copy, and no right one is on this machine: libcudart.so.11.0, libcublas.so.11, libcublasLt.so.11, libcufft.so.10, libcurand.so.10, libcusolver.so.11, libcusparse.so.11");
  });
});
