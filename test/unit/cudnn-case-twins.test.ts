// A zip whose names differ only by case is one file twice on Windows (found by the Windows lane:
// the second copy replaced the first after it was hashed, and verify failed the install). On Linux
// they are two files, and the archive is judged on its other merits.
import { describe, expect, it } from 'vitest';
import { inspectCudnnArchive } from '../../src/cudnn/inspect.js';
import { cudnnHeader, peBytes, writeArchive } from '../helpers/cudnn-archive.js';
import { tempDir } from '../helpers/tmp.js';

async function zipWithCaseTwins(): Promise<string> {
  return writeArchive(`${await tempDir('cw-case-')}/cudnn-twins.zip`, 'zip', [
    { name: 'cuda/include/cudnn.h', data: cudnnHeader('7.6.5')['cudnn.h'] },
    { name: 'cuda/bin/cudnn64_7.dll', data: peBytes('x64') },
    { name: 'cuda/bin/CUDNN64_7.DLL', data: peBytes('x64', 512) },
    { name: 'cuda/lib/x64/cudnn.lib', data: 'lib' },
  ]);
}

describe('cuDNN zip entries that differ only by case', () => {
  it('are refused for a Windows toolkit, naming both', async () => {
    const report = await inspectCudnnArchive(await zipWithCaseTwins(), { os: 'windows', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(report.problems).toContainEqual(expect.objectContaining({ code: 'duplicate-entry', message: 'The archive holds "cuda/bin/cudnn64_7.dll" and "cuda/bin/CUDNN64_7.DLL": on Windows these are one file, so the second would replace the first.' }));
  });

  it('are not duplicates for a Linux toolkit', async () => {
    const report = await inspectCudnnArchive(await zipWithCaseTwins(), { os: 'linux', tfCudnn: '7.6', cudaVersion: '10.1' });
    expect(report.problems.filter((p) => p.code === 'duplicate-entry')).toEqual([]);
  });
});
