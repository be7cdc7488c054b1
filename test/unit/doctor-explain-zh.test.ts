// `doctor` and `explain` with --lang zh: every sentence a user reads is Chinese. The check flags runs of
// three or more English words that are not commands, paths, versions, file or product names; --json and
// the English output stay as they were.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { condaOnOldDriver } from '../fixtures/conda-env.js';
import { fixtureMachine } from '../fixtures/machine.js';
import { seedLaptop } from '../fixtures/seed-laptop.js';
import { englishIn, englishRuns } from '../helpers/english-runs.js';

const logs = path.join(repoRoot, 'test', 'fixtures', 'logs');

describe('the check itself', () => {
  it('flags an English sentence and lets commands, paths, versions and names through', () => {
    expect(englishRuns('✗ CUDA 10.1 is not installed (found 11.0.228)')).toEqual(['is not installed found']);
    expect(englishRuns('[ok] python: Python 3.8.5（64 位）')).toEqual([]);
    expect(englishRuns('    → 安装 CUDA 10.1：cudawiz install --tf 2.3.0 --cudnn-archive FILE')).toEqual([]);
    expect(englishRuns('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.1\\bin (PATH)')).toEqual([]);
    expect(englishRuns('安装 Microsoft Visual C++ Redistributable for Visual Studio 2015–2022（x64）')).toEqual([]);
    expect(englishRuns('改用 WSL2，并在里面 pip install "tensorflow[and-cuda]==2.12.0"。')).toEqual([]);
    expect(englishRuns('wins: /usr/lib (toolkit (not on the search path))')).toEqual(['toolkit not on the search path']);
  });
});

describe('doctor --lang zh', () => {
  const machines: [string, () => Promise<{ host: import('../../src/host.js').Host }>, string[]][] = [
    ["the seed's Windows laptop (CUDA 11.0, TF 2.3 wanted)", () => seedLaptop(), []],
    ['the same laptop, fixed', () => seedLaptop({ fixed: true }), []],
    ['a Linux box with no GPU and no toolkit', () => fixtureMachine('linux', { PATH: '/usr/bin:/bin' }), ['--tf', '2.3']],
    ['a conda env whose CUDA 10.1 is too new for driver 410.72', () => condaOnOldDriver(), ['--tf', '2.1']],
  ];
  for (const [story, machine, args] of machines) {
    it(`${story}: no English sentence, and --json stays English`, async () => {
      const m = await machine();
      const zh = await runCli(['doctor', ...args, '--lang', 'zh', '--no-color'], { host: m.host });
      expect(zh.stdout).toMatch(/[\u4e00-\u9fff]/);
      expect(englishIn(zh.stdout)).toEqual([]);
      // The same check on the English report finds its sentences: it can fail.
      expect(englishIn((await runCli(['doctor', ...args, '--no-color'], { host: m.host })).stdout).length).toBeGreaterThan(0);
      const json = JSON.parse((await runCli(['doctor', ...args, '--lang', 'zh', '--json'], { host: m.host })).stdout);
      for (const f of json.findings) expect(`${f.title} ${f.fix ?? ''}`, f.id).not.toMatch(/[\u4e00-\u9fff]/);
    });
  }
});

describe('explain --lang zh', () => {
  const files = readdirSync(logs).filter((f) => f.endsWith('.log'));

  it('reads every fixture log (and each again as from WSL) with no English sentence', async () => {
    const bad: string[] = [];
    for (const file of files) {
      for (const os of [[], ['--os', 'wsl'], ['--os', 'windows']]) {
        const r = await runCli(['explain', path.join(logs, file), ...os, '--lang', 'zh', '--no-color']);
        expect(r.stdout, file).toMatch(/[\u4e00-\u9fff]/);
        bad.push(...englishIn(r.stdout).map((b) => `${file} ${os.join(' ')}: ${b}`));
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps --json English under --lang zh, and the usage errors are Chinese too', async () => {
    const doc = JSON.parse((await runCli(['explain', path.join(logs, 'windows-cudnn-cnn-infer-126.log'), '--lang', 'zh', '--json'])).stdout);
    expect(doc.findings[0].meaning).toContain('zlibwapi.dll (zlib)');
    const missing = await runCli(['explain', path.join(logs, 'no-such.log'), '--lang', 'zh']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('文件不存在');
  });

  it('the English text is the table\'s en side, word for word (a fixture line each)', async () => {
    const r = await runCli(['explain', path.join(logs, 'windows-cudnn-ops-infer-126.log'), '--no-color']);
    expect(r.stdout).toContain('cudnn_ops_infer64_8.dll is there, but Windows could not load it (error 126: a DLL it depends on is missing).');
    expect(readFileSync(path.join(logs, 'windows-cudnn-ops-infer-126.log'), 'utf8')).toContain('Error code 126');
  });
});
