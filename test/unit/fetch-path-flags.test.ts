// Path flags are settled before anything runs: a relative --cuda-root becomes absolute, a newline in
// any path flag is refused (it would reach /etc/ld.so.conf.d as a second line), and a toolkit root
// whose name holds the search-path separator (";" on Windows, ":" on Linux) is refused.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';
import { checkedPath } from '../../src/path-flags.js';
import { runCli } from '../helpers/cli.js';

const parse = (...argv: string[]) => parseArgv(argv, {}, false);

describe('path flags', () => {
  it('resolves a relative --cuda-root, --cache-dir and a command flag against the current folder', () => {
    const r = parse('install', '--tf', '2.3', '--cuda-root', 'cuda-root', '--cache-dir', './cache', '--cudnn-archive', 'cudnn.tgz');
    expect(r.globals.cudaRoot).toBe(path.resolve('cuda-root'));
    expect(r.globals.cacheDir).toBe(path.resolve('cache'));
    expect(r.values['cudnn-archive']).toBe(path.resolve('cudnn.tgz'));
  });

  it('refuses a newline or another control character in any path flag, naming the flag', () => {
    expect(() => parse('install', '--tf', '2.3', '--cuda-root', '/usr/local\ninclude /tmp/evil')).toThrow('--cuda-root contains a control character');
    expect(() => parse('download', 'cuda', '--version', '10.1', '--dest', '/tmp/a\tb')).toThrow('--dest contains a control character');
    expect(() => parseArgv(['doctor'], { CUDAWIZ_CACHE_DIR: '/tmp/c\rd' }, false)).toThrow('--cache-dir contains a control character');
  });

  it('refuses ";" in a Windows toolkit root and ":" in a Linux one, which would split PATH / LD_LIBRARY_PATH', () => {
    expect(() => checkedPath('--cuda-root', 'C:\\CUDA;C:\\evil', { resolve: true, listEntry: true }, 'windows')).toThrow(UsageError);
    expect(() => checkedPath('--cuda-root', '/opt/cu:da', { resolve: true, listEntry: true }, 'linux')).toThrow('which would split the library search path');
    expect(checkedPath('--cuda-root', 'D:\\CUDA', { resolve: true, listEntry: true }, 'windows')).toBe('D:\\CUDA');
    // A path that is not a search-path entry may hold them.
    expect(checkedPath('--dest', '/media/usb;1', { resolve: true }, 'linux')).toBe('/media/usb;1');
  });

  it('ends the run with exit 2 and a fix before anything happens', async () => {
    const r = await runCli(['install', '--tf', '2.3', '--cuda-root', '/tmp/x\ninclude /tmp/evil', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--cuda-root contains a control character (a newline or tab); refused.');
    expect(r.stderr).toContain('→ Give --cuda-root as a plain path');
  });
});
