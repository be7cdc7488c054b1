// The finder on the error paths users hit: the built CLI with --lang zh against real parts (the local
// mirror, real archives, the fixture installer and nvidia-smi), each run failing as it would for a
// user, and its output passed through the English finder. Every run here also fails in English, and
// its English output has a sentence the finder sees, so the check can fail.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realHost } from '../../src/host.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { laptop, type Laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';

let m: Laptop | undefined;
afterAll(async () => m?.mirror.close());

async function both(argv: string[], l: Laptop, env: Record<string, string> = {}) {
  const host = { ...realHost({ ...l.env, ...env }), home: l.home };
  const zh = await runCli([...argv, '--lang', 'zh', '--no-color', ...l.globals], { host });
  const en = await runCli([...argv, '--lang', 'en', '--no-color', ...l.globals], { host });
  return { zh, en };
}

describe('error paths with --lang zh (the Linux laptop, TF 2.3)', () => {
  const cases: [string, (l: Laptop) => Promise<string[]>, Record<string, string>?][] = [
    ['a file that is not an archive as --cudnn-archive', async () => {
      const file = path.join(await tempDir('cw-zh-bad-'), 'cudnn-10.1-linux-x64-v7.6.5.32.tgz');
      await writeFile(file, 'this is not a tgz\n');
      return ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', file];
    }],
    ['cuDNN 8 where TF 2.3 needs cuDNN 7', async () => {
      const a = await buildCudnnArchive(await tempDir('cw-zh-v8-'), { era: 'linux-cuda-folder', version: '8.0.5.39', cuda: '10.1' });
      return ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', a.file];
    }],
    ['the Windows cuDNN zip on Linux', async () => {
      const a = await buildCudnnArchive(await tempDir('cw-zh-win-'), { era: 'windows-cuda-folder' });
      return ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', a.file];
    }],
    ['the CUDA installer failing (exit 1, "Installation failed")', async (l) => ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', l.archive], { CUDA_FIXTURE_FAIL: 'exit:1' }],
    ['the installer refusing the compiler', async (l) => ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', l.archive], { CUDA_FIXTURE_FAIL: 'gcc' }],
    ['a mirror that does not have the installer', async (l) => {
      l.mirror.fault({ mode: '500', path: '.run', times: Infinity });
      return ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', l.archive, '--retries', '0'];
    }],
    ['an unknown TensorFlow version', async () => ['install', '--tf', '1.99', '--dry-run']],
    ['a mirror that sends other bytes for the installer (checksum mismatch)', async (l) => {
      l.mirror.fault({ mode: 'wrong-bytes', path: '.run', times: Infinity });
      return ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', l.archive];
    }],
    ['a mirror that redirects the installer to plain http', async (l) => {
      l.mirror.fault({ mode: 'hostile-redirect', path: '.run', times: Infinity });
      return ['download', '--tf', '2.3'];
    }],
  ];
  for (const [name, argv, env] of cases) {
    it(`${name}: exits non-zero, in Chinese, with no English sentence`, async () => {
      // The installer's and the mirror's failures need a machine where CUDA is not in yet.
      const l = env || name.startsWith('a mirror') ? await laptop() : (m ??= await laptop());
      const args = await argv(l);
      const { zh, en } = await both(args, l, env);
      if (l !== m) await l.mirror.close();
      expect(zh.code).not.toBe(0);
      expect(en.code).toBe(zh.code);
      const out = zh.stdout + zh.stderr;
      expect(out).toMatch(/[\u4e00-\u9fff]/);
      expect(englishIn(out)).toEqual([]);
      expect(englishIn(en.stdout + en.stderr).length).toBeGreaterThan(0);
    });
  }
});
