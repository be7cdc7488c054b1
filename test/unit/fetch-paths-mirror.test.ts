import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheEntryOf, cachePaths, resolveCacheDir } from '../../src/fetch/cache-paths.js';
import { applyMirror, isLoopbackHost, parseMirror } from '../../src/fetch/mirror.js';
import { UsageError } from '../../src/errors.js';

const RUN_URL = 'https://developer.download.nvidia.com/compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run';

describe('cache paths', () => {
  it('every entry of a download derives from one function and maps back to the same file and kind', () => {
    for (const file of ['cuda_10.1.243_418.87.00_linux.run', 'cudnn-10.1-windows10-x64-v7.6.5.32.zip', 'x.json', 'part']) {
      const p = cachePaths('/home/ana/.cache/cudawiz', file);
      for (const kind of ['final', 'part', 'partState', 'verified'] as const) {
        expect(cacheEntryOf(p[kind])).toEqual({ dir: '/home/ana/.cache/cudawiz', file, kind });
      }
      expect(new Set([p.final, p.part, p.partState, p.verified]).size).toBe(4);
    }
  });

  it('refuses a catalog file name that would climb out of the cache', () => {
    for (const bad of ['../../etc/passwd', 'a/b.run', 'a\\b.exe', '..', '', 'x.run.part', 'x.run.verified.json']) expect(() => cachePaths('/c', bad)).toThrow(UsageError);
  });

  it('uses --cache-dir / CUDAWIZ_CACHE_DIR when given, otherwise a cudawiz folder in the user cache', () => {
    expect(resolveCacheDir('/mnt/big/cw')).toBe('/mnt/big/cw');
    expect(path.basename(resolveCacheDir(undefined))).toBe('cudawiz');
  });
});

describe('--mirror', () => {
  it("swaps both of NVIDIA's hosts for the mirror and keeps the path, under the mirror's own prefix", () => {
    expect(applyMirror(RUN_URL, 'https://mirror.example.com/nvidia/')).toBe(
      'https://mirror.example.com/nvidia/compute/cuda/10.1/Prod/local_installers/cuda_10.1.243_418.87.00_linux.run',
    );
    expect(applyMirror('https://developer.nvidia.com/compute/cuda/10.0/Prod/local_installers/cuda_10.0.130_411.31_win10', 'http://127.0.0.1:8080')).toBe(
      'http://127.0.0.1:8080/compute/cuda/10.0/Prod/local_installers/cuda_10.0.130_411.31_win10',
    );
  });

  it('leaves URLs of other hosts alone, and everything alone without a mirror', () => {
    expect(applyMirror('https://files.example.org/a.run', 'https://mirror.example.com')).toBe('https://files.example.org/a.run');
    expect(applyMirror(RUN_URL, undefined)).toBe(RUN_URL);
  });

  it('accepts plain http only for this machine', () => {
    expect(() => parseMirror('http://mirror.example.com')).toThrow(/not HTTPS/);
    expect(() => parseMirror('not a url')).toThrow(/not a URL/);
    expect(parseMirror('http://localhost:9000').host).toBe('localhost:9000');
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.evil.com')).toBe(false);
  });
});
