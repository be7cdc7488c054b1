// The plan's and the environment's words with --lang zh: a file cudawiz writes reads the same in
// every language (a zh run, then an en one, finds nothing to change), the notes and refusals a user
// reads are Chinese, and the commands' own flags errors and rollback report are too.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyEnvChanges, describeEnvPlan, prepareEnvPlan } from '../../src/env/index.js';
import { setLang } from '../../src/i18n/localized.js';
import { realHost } from '../../src/host.js';
import { runCli } from '../helpers/cli.js';
import { englishIn } from '../helpers/english-runs.js';
import { laptop } from '../helpers/laptop.js';
import { linuxMachine, makeLinuxToolkit, tfLibraryFiles } from './env-fixtures.js';

afterEach(() => setLang('en'));

const TF23 = tfLibraryFiles('2.3', 'linux');

describe('the environment plan in Chinese', () => {
  it('writes the same file in either language: after a zh run an en plan has nothing to change', async () => {
    const m = await linuxMachine();
    const cuda = path.join(m.root, 'usr/local/cuda-10.1');
    await makeLinuxToolkit(cuda, [...TF23, 'libcupti.so.10.1']);
    const input = { host: m.host, tf: '2.3', cuda: '10.1', toolkitDir: cuda, requiredFiles: TF23, toolkits: [], elevated: true, root: m.root };
    setLang('zh');
    const zh = await prepareEnvPlan(input);
    const described = describeEnvPlan(zh.plan).join('\n');
    expect(described).toMatch(/[\u4e00-\u9fff]/);
    expect((await applyEnvChanges(zh.plan.changes, { host: m.host, journalFile: zh.places.journalFile })).ok).toBe(true);
    const conf = await readFile(path.join(m.root, 'etc/ld.so.conf.d/cudawiz-cuda-10.1.conf'), 'utf8');
    expect(conf).toMatch(/^# Written by cudawiz: CUDA 10\.1 for TensorFlow 2\.3\. `cudawiz rollback` removes it\.\n/);
    setLang('en');
    const en = await prepareEnvPlan(input);
    expect(en.plan.changes.filter((c) => c.kind === 'ld-so-conf')).toEqual([]);
    expect(en.plan.notes.join('\n')).toContain('is already in place.');
  });

  it('says in Chinese why a shadowing LD_LIBRARY_PATH entry and an unknown shell need the user', async () => {
    const m = await linuxMachine();
    const home = m.host.home!;
    const cuda = path.join(home, '.local/cuda-10.1');
    const other = path.join(m.root, 'usr/local/cuda-11.0');
    await makeLinuxToolkit(cuda, [...TF23, 'libcupti.so.10.1']);
    await makeLinuxToolkit(other, ['libcudart.so.10.1']);
    const host = { ...m.host, env: { ...m.host.env, SHELL: '/bin/tcsh', LD_LIBRARY_PATH: `${other}/lib64` } };
    const input = { host, tf: '2.3', cuda: '10.1', toolkitDir: cuda, requiredFiles: TF23, toolkits: [{ version: '11.0', dir: other }], elevated: false, root: m.root };
    setLang('en');
    const en = (await prepareEnvPlan(input)).plan.notes.join('\n');
    expect(en).toContain('is not one of them');
    expect(englishIn(en).length).toBeGreaterThan(0);
    setLang('zh');
    const zh = (await prepareEnvPlan(input)).plan.notes.join('\n');
    expect(zh).toContain('tcsh');
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(englishIn(zh)).toEqual([]);
  });
});

describe('the commands in Chinese', () => {
  const cases: [string, string[]][] = [
    ['a wrong --route', ['install', '--tf', '2.3', '--route', 'conda']],
    ['--venv on the toolkit route', ['install', '--tf', '2.3', '--venv', '/tmp/v']],
    ['a wrong --connections', ['install', '--tf', '2.3', '--connections', '99', '--dry-run']],
    ['a wrong --configure-env', ['install', '--tf', '2.3', '--configure-env', 'maybe', '--dry-run']],
    ['rollback of a folder that is not there', ['rollback', '--cuda-dir', '/nonexistent/cuda-10.1']],
    ['install without --yes and without a terminal', ['install', '--tf', '2.3', '--configure-env', 'no']],
  ];
  for (const [name, argv] of cases) {
    it(`${name}: Chinese, no English sentence; the English run has one`, async () => {
      const l = await laptop();
      try {
        const host = { ...realHost(l.env), home: l.home };
        const zh = await runCli([...argv, '--lang', 'zh', '--no-color', ...l.globals], { host });
        const en = await runCli([...argv, '--lang', 'en', '--no-color', ...l.globals], { host });
        expect(zh.code).toBe(en.code);
        expect(zh.code).not.toBe(0);
        expect(zh.stdout + zh.stderr).toMatch(/[\u4e00-\u9fff]/);
        expect(englishIn(zh.stdout + zh.stderr)).toEqual([]);
        expect(englishIn(en.stdout + en.stderr).length).toBeGreaterThan(0);
      } finally {
        await l.mirror.close();
      }
    });
  }
});

describe('what a damaged or unsafe cuDNN archive is, in Chinese', () => {
  it('a .tgz whose tar header checksum is wrong: the reason is Chinese too', async () => {
    const { gzipSync } = await import('node:zlib');
    const { writeFile } = await import('node:fs/promises');
    const { tempDir } = await import('../helpers/tmp.js');
    const file = path.join(await tempDir('cw-zh-tar-'), 'cudnn-7.6.5-damaged.tgz');
    const block = Buffer.alloc(1024);
    block.write('cuda/include/cudnn.h', 0);
    block.write('not-octal', 148); // the checksum field
    await writeFile(file, gzipSync(block));
    const l = await laptop();
    try {
      const host = { ...realHost(l.env), home: l.home };
      const argv = ['install', '--tf', '2.3', '--yes', '--configure-env', 'no', '--cudnn-archive', file, ...l.globals];
      const zh = await runCli([...argv, '--lang', 'zh', '--no-color'], { host });
      const en = await runCli([...argv, '--lang', 'en', '--no-color'], { host });
      expect(en.stdout + en.stderr).toMatch(/header checksum does not match|unreadable number/);
      expect(zh.code).toBe(en.code);
      expect(zh.stdout + zh.stderr).toMatch(/校验和不符|无法读取的数字/);
      expect(englishIn(zh.stdout + zh.stderr)).toEqual([]);
    } finally {
      await l.mirror.close();
    }
  });

  it('a 32-bit zlibwapi.dll: the fix says so in Chinese and keeps the URL and file names', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { checkZlibwapi } = await import('../../src/cudnn/index.js');
    const { peBytes } = await import('../helpers/cudnn-archive.js');
    const { tempDir } = await import('../helpers/tmp.js');
    const dir = await tempDir('cw-zh-zlib-');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'zlibwapi.dll'), peBytes('x86'));
    const en = await checkZlibwapi([dir]);
    setLang('zh');
    const zh = await checkZlibwapi([dir]);
    expect(en.fix).toContain('Only non-64-bit copies were found');
    expect(zh.fix).toContain('http://www.winimage.com/zLibDll/zlib123dllx64.zip');
    expect(zh.fix).toContain('dll_x64\\zlibwapi.dll');
    expect(zh.fix).toContain('64 位');
    expect(englishIn(zh.fix ?? '')).toEqual([]);
  });
});

describe("cudawiz's own bookkeeping, unreadable, in Chinese", () => {
  it('a manifest entry without its sha256: the reason is read in the run language', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { readManifest } = await import('../../src/cudnn/manifest.js');
    const { tempDir } = await import('../helpers/tmp.js');
    const dir = await tempDir('cw-zh-manifest-');
    await mkdir(path.join(dir, '.cudawiz'), { recursive: true });
    const manifest = { tool: 'cudawiz', schema: 1, what: 'cudnn', state: 'complete', os: 'linux', toolkitDir: dir, archive: { file: 'a.tgz', format: 'tar.gz', layout: 'cuda-folder', version: '7.6.5' }, startedAt: 'x', createdDirs: [], files: [{ type: 'file', path: 'lib64/libcudnn.so.7', source: 'cuda/lib64/libcudnn.so.7', size: 1 }] };
    await writeFile(path.join(dir, '.cudawiz', 'manifest.json'), JSON.stringify(manifest));
    const en = await readManifest(dir).catch((e: Error) => e.message);
    setLang('zh');
    const zh = await readManifest(dir).catch((e: Error) => e.message);
    expect(String(en)).toContain('a file needs its size and sha256');
    expect(String(zh)).toContain('文件的记录需要大小和 sha256');
  });
});
