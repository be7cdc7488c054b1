import { describe, expect, it } from 'vitest';
import { checksumFromManifest, parseMd5sumList } from '../../src/fetch/checksum.js';
import { parseContentRange } from '../../src/fetch/part-state.js';
import { parseRetryAfter } from '../../src/fetch/retry-policy.js';
import { percentReporter } from '../../src/commands/download.js';
import type { DownloadProgress } from '../../src/fetch/progress.js';

describe("NVIDIA's checksum lists", () => {
  it('reads md5sum.txt lines as NVIDIA writes them, binary marker and Windows paths included', () => {
    const list = parseMd5sumList(
      'a3f0c3a1d7e9a9bb2f1b0e0d9a8b7c6d  cuda_10.1.243_418.87.00_linux.run\r\n' +
        '0123456789ABCDEF0123456789abcdef *local_installers\\cuda_10.1.243_426.00_win10.exe\n' +
        'garbage line\n',
    );
    expect(list.get('cuda_10.1.243_418.87.00_linux.run')).toBe('a3f0c3a1d7e9a9bb2f1b0e0d9a8b7c6d');
    expect(list.get('cuda_10.1.243_426.00_win10.exe')).toBe('0123456789abcdef0123456789abcdef');
    expect(list.size).toBe(2);
  });

  it('finds a file in a redist manifest, CUDA (platform level) and cuDNN (cudaNN level) shapes alike', () => {
    const sha = 'd08a1b73'.padEnd(64, '0');
    const cuda = { release_label: '11.4.1', cuda_cudart: { 'linux-x86_64': { relative_path: 'cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-11.4.108-archive.tar.xz', sha256: sha, md5: 'da198656'.padEnd(32, '0'), size: '828300' } } };
    expect(checksumFromManifest(cuda, 'cuda_cudart-linux-x86_64-11.4.108-archive.tar.xz')?.sha256).toBe(sha);
    const cudnn = { cudnn: { 'windows-x86_64': { cuda12: { relative_path: 'cudnn/windows-x86_64/cudnn-windows-x86_64-8.9.4.25_cuda12-archive.zip', sha256: sha } } } };
    expect(checksumFromManifest(cudnn, 'cudnn-windows-x86_64-8.9.4.25_cuda12-archive.zip')).toEqual({ sha256: sha, md5: undefined });
    expect(checksumFromManifest(cudnn, 'other.zip')).toBeUndefined();
  });
});

describe('HTTP details the resume depends on', () => {
  it('parses Content-Range and Retry-After (seconds or a date)', () => {
    expect(parseContentRange('bytes 100-199/1000')).toEqual({ start: 100, end: 200, total: 1000 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0, end: 10, total: null });
    expect(parseContentRange('items 1-2/3')).toBeUndefined();
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('plain progress lines', () => {
  it('says one line per 10 %, however many events arrive', () => {
    const lines: string[] = [];
    const report = percentReporter('big.run', (l) => lines.push(l));
    const total = 1024 * 1024;
    for (let b = 0; b <= total; b += 1024) report({ bytes: b, total, speed: 5 * 1024 * 1024, eta: (total - b) / (5 * 1024 * 1024), resumedFrom: 0, connections: 4 } satisfies DownloadProgress);
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toMatch(/100%\s+\(1\.0 MiB of 1\.0 MiB, 5\.0 MiB\/s\)/);
  });

  it('announces a resume once, with how much was already there', () => {
    const lines: string[] = [];
    const report = percentReporter('big.run', (l) => lines.push(l));
    report({ bytes: 400 * 1024, total: 1024 * 1024, speed: 0, resumedFrom: 400 * 1024, connections: 1 });
    report({ bytes: 500 * 1024, total: 1024 * 1024, speed: 1e5, eta: 5, resumedFrom: 400 * 1024, connections: 1 });
    expect(lines[0]).toBe('  resuming big.run at 400.0 KiB of 1.0 MiB');
    expect(lines.filter((l) => l.includes('resuming'))).toHaveLength(1);
  });
});
