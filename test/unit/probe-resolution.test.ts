import { describe, expect, it } from 'vitest';
import { windowsRuntimeFindings } from '../../src/doctor/checks-libraries.js';
import { probeMachine } from '../../src/probe/index.js';
import { parseLdCache, resolveLibrary } from '../../src/probe/resolution.js';
import { peBits } from '../../src/probe/windows-extras.js';
import { fixtureMachine } from '../fixtures/machine.js';

/** The first bytes of a PE file for that machine type (MZ header, e_lfanew = 0x40, PE signature, machine). */
function peHeader(machine: number): Buffer {
  const b = Buffer.alloc(0x80);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x40, 0x3c);
  b.write('PE\0\0', 0x40, 'latin1');
  b.writeUInt16LE(machine, 0x44);
  return b;
}

describe('library search path', () => {
  it('reads `ldconfig -p`, keeping 64-bit entries only', () => {
    const text = [
      '1234 libs found in cache `/etc/ld.so.cache\'',
      '\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudart.so.13',
      '\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1',
      '\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1',
    ].join('\n');
    expect(parseLdCache(text)).toEqual([
      { name: 'libcudart.so.13', path: '/usr/local/cuda-13.0/lib/libcudart.so.13' },
      { name: 'libcuda.so.1', path: '/usr/lib/x86_64-linux-gnu/libcuda.so.1' },
    ]);
  });

  it('reads a library folder with a space in it from the ld cache, to the end of its line (#37)', () => {
    const text = '2 libs found in cache `/etc/ld.so.cache\'\n\tlibcudnn.so.8 (libc6,x86-64) => /opt/NVIDIA cuDNN/lib/libcudnn.so.8\n\tlibcudart.so.11.0 (libc6,x86-64) => /opt/cuda 11/lib64/libcudart.so.11.0  \n';
    expect(parseLdCache(text)).toEqual([
      { name: 'libcudnn.so.8', path: '/opt/NVIDIA cuDNN/lib/libcudnn.so.8' },
      { name: 'libcudart.so.11.0', path: '/opt/cuda 11/lib64/libcudart.so.11.0' },
    ]);
  });

  it('on Linux, LD_LIBRARY_PATH comes before the ld cache, and a toolkit off the path is listed last', async () => {
    const m = await fixtureMachine('linux', { PATH: '/usr/bin', LD_LIBRARY_PATH: '/opt/old-cudnn/lib64' });
    await m.file('/opt/old-cudnn/lib64/libcudnn.so.7', 'ELF');
    await m.file('/usr/lib/x86_64-linux-gnu/libcudnn.so.7', 'ELF');
    await m.script('/sbin/ldconfig', `printf '\\tlibcudnn.so.7 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.7\\n'`);
    await m.toolkit('/usr/local/cuda-10.1', { version: '10.1.243', versionFile: 'version.txt', libraries: ['libcudart.so.10.1'], cudnn: '7.6.5' });
    const facts = await probeMachine(m.host);
    expect(resolveLibrary(facts.search, 'libcudnn.so.7')).toEqual({
      file: 'libcudnn.so.7',
      candidates: [
        { dir: '/opt/old-cudnn/lib64', via: 'LD_LIBRARY_PATH' },
        { dir: '/usr/lib/x86_64-linux-gnu', via: 'ld cache' },
        { dir: '/usr/local/cuda-10.1/lib64', via: 'toolkit (not on the search path)' },
      ],
      winner: { dir: '/opt/old-cudnn/lib64', via: 'LD_LIBRARY_PATH' },
    });
    // Every copy is listed, with the version its header says when it has one.
    expect(facts.cudnn.map((c) => [c.path, c.version ?? `${c.major}.x`, c.where])).toEqual([
      ['/usr/local/cuda-10.1', '7.6.5', 'toolkit'],
      ['/opt/old-cudnn/lib64', '7.x', 'search path'],
      ['/usr/lib/x86_64-linux-gnu', '7.x', 'search path'],
    ]);
  });

  it('on Windows, System32 comes before PATH, and file names match case-insensitively', async () => {
    const m = await fixtureMachine('windows', { PATH: 'C:\\tools\\cuda\\bin', SystemRoot: 'C:\\Windows' });
    await m.file('C:\\Windows\\System32\\nvcuda.dll', 'MZ');
    await m.file('C:\\tools\\cuda\\bin\\cuDNN64_7.dll', 'MZ');
    const facts = await probeMachine(m.host);
    expect(resolveLibrary(facts.search, 'nvcuda.dll').winner).toEqual({ dir: 'C:\\Windows\\System32', via: 'System32' });
    expect(resolveLibrary(facts.search, 'cudnn64_7.dll').winner).toEqual({ dir: 'C:\\tools\\cuda\\bin', via: 'PATH' });
  });
});

describe('Windows extras', () => {
  it('reads whether a DLL is 32- or 64-bit from its PE header', () => {
    expect(peBits(peHeader(0x8664))).toBe(64);
    expect(peBits(peHeader(0x14c))).toBe(32);
    expect(peBits(Buffer.from('ELF'))).toBeUndefined();
  });

  it('with cuDNN 8.3+, a 32-bit zlibwapi.dll fails, and a missing MSVC runtime names the redistributable', async () => {
    const m = await fixtureMachine('windows', { PATH: 'C:\\zlib', SystemRoot: 'C:\\Windows' });
    await m.file('C:\\zlib\\zlibwapi.dll', peHeader(0x14c).toString('latin1'));
    await m.file('C:\\Windows\\System32\\msvcp140.dll', 'MZ');
    const facts = await probeMachine(m.host);
    expect(facts.windows?.zlibwapi).toEqual({ path: 'C:\\zlib\\zlibwapi.dll', bits: 32 });
    const [msvc, zlib] = windowsRuntimeFindings(facts, '8.9.7');
    expect(msvc).toMatchObject({ id: 'msvc-runtime', status: 'fail', title: 'Microsoft C++ runtime missing: msvcp140_1.dll' });
    expect(msvc.fix).toContain('vc_redist.x64.exe');
    expect(zlib).toMatchObject({ id: 'zlibwapi', status: 'fail', title: 'C:\\zlib\\zlibwapi.dll is 32-bit; cuDNN needs the 64-bit zlibwapi.dll' });
    expect(windowsRuntimeFindings(facts, '8.1.0').map((f) => f.id)).toEqual(['msvc-runtime']);
  });
});
