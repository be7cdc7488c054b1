// Every command line in the READMEs' code blocks that runs `cudawiz`, run as written right after the
// quick start (`npm ci && npm start`, then `npm link`): `npm link` into a temp npm prefix, then each line
// in a fresh `bash -c` whose PATH has only that prefix's bin, the fixture laptop's (nvidia-smi, python)
// and the system's, in a temp home, against the loopback mirror (CUDAWIZ_MIRROR, CUDAWIZ_CATALOG: the
// environment a user sets, not a flag on the line). Each exit is the one the README's exit-code table
// gives for that line on this laptop (RTX 2060, driver 525, no CUDA of its own, no TensorFlow), as
// `nobody` where root can switch, so nothing outside the temp folders can be written.
import { chmod, copyFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { NOBODY, runningAsRoot } from '../fixtures/cuda-installer/unprivileged.js';
import { repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { startMirror } from '../helpers/mirror.js';
import { asOtherUser, canSwitchToNobody, otherUserLabel } from '../helpers/other-user.js';
import { serveRedistFixtures } from '../helpers/redist-fixture.js';
import { tempDir } from '../helpers/tmp.js';

const withoutComment = (line: string) => line.replace(/\s+#.*$/, '').trim();

/** The lines of the code blocks that run cudawiz: at the start (after a `$ ` prompt) or after a pipe; never a capture's title line. */
export function cudawizLines(markdown: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) continue;
    const command = line.replace(/^\$ /, '');
    if (/^(?:[^#|]*\|\s*)?cudawiz(?:\s+[a-z#-]|\s*$)/.test(command)) out.push(command);
  }
  return out;
}

/**
 * What each command does on this fixture laptop (no TensorFlow pip-installed), by the README's exit-code
 * table: 0 done or healthy, 1 problems found or a step failed, 2 usage, 3 waiting on you.
 */
const EXPECTED: [RegExp, number, string][] = [
  [/^cudawiz\s*(#|$)/, 2, 'the wizard with no terminal names the headless command to run instead and exits 2'],
  // The recommended route (redist, no administrator) is the default now (#40): this laptop's mirror serves only the Windows bundle's archives.
  [/^cudawiz install --tf 2\.10 --yes/, 1, "a step failed: this laptop's mirror has no Linux redist archives of CUDA 11.8 (the route is named: redist, with why)"],
  [/^cudawiz requirements --tf 2\.3 --os windows/, 0, 'the answer'],
  [/^cudawiz doctor --tf 2\.12/, 1, "problems found: no CUDA 11.8 or cuDNN 8 here (the README's transcript is another machine's)"],
  [/^cudawiz doctor/, 0, 'no TensorFlow installed here to check against: nothing wrong'],
  [/\| cudawiz explain -/, 1, 'problems found: TensorFlow could not load libcudnn.so.8'],
  [/^cudawiz repair --tf 2\.12 --yes/, 1, "a step failed: this laptop's mirror has no CUDA 11.8 installer"],
  [/^cudawiz repair --yes/, 2, 'no TensorFlow pip-installed here: it asks for --tf'],
  [/^cudawiz download --tf 2\.10 --route redist --os windows --dest \.\/tf-2\.10/, 0, 'a complete bundle'],
  [/^cudawiz install --from \.\/tf-2\.10 --yes/, 1, 'the bundle was made for Windows and this laptop runs Linux: refused, nothing changed'],
  [/^cudawiz rollback/, 0, 'nothing cudawiz wrote: nothing to undo'],
];

const CUDNN_WINDOWS = { file: 'cudnn-11.2-windows-x64-v8.1.0.77.zip', urlPath: 'compute/redist/cudnn/v8.1.0/cudnn-11.2-windows-x64-v8.1.0.77.zip' };

/** The fixture laptop a new user has after the quick start, and `cudawiz` linked by `npm link` into a temp prefix. */
async function afterQuickStart() {
  const base = await tempDir('cw-readme-');
  await chmod(base, 0o755);
  const home = path.join(base, 'home');
  const bin = path.join(home, 'bin');
  const driverLib = path.join(base, 'driver-lib');
  await mkdir(bin, { recursive: true });
  await mkdir(driverLib);
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/rtx2060-laptop.sh'), path.join(bin, 'nvidia-smi'));
  await copyFile(path.join(repoRoot, 'test/fixtures/nvidia-smi/answer-query.sh'), path.join(bin, 'answer-query.sh'));
  await writeFile(path.join(bin, 'python'), '#!/bin/sh\nexec python3 "$@"\n');
  await chmod(path.join(bin, 'python'), 0o755);
  await writeFile(path.join(driverLib, 'libcuda.so.1'), 'fixture driver library');
  await writeFile(path.join(home, '.bashrc'), "# the user's own bashrc\n");
  // train.py as TF 2.12 prints it on a machine without cuDNN 8.
  await writeFile(path.join(home, 'train.py'), "import sys\nprint(\"2023-05-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\", file=sys.stderr)\n");

  // The mirror serves what the README's bundle line takes: TF 2.10's redist archives for Windows and its cuDNN.
  const mirror = await startMirror({ root: await tempDir('cw-mirror-') });
  const cudnn = await buildCudnnArchive(await tempDir('cw-cudnn-'), { era: 'windows-cuda-folder', version: '8.1.0.77', cuda: '11.2', fileName: CUDNN_WINDOWS.file });
  const served = await mirror.addFile(CUDNN_WINDOWS.urlPath, await readFile(cudnn.file));
  const fixture = await serveRedistFixtures(mirror, await tempDir('cw-redist-fixture-'), { platform: 'windows-x86_64', kib: 1, overlayExtra: { cudnn: [{ version: '8.1.0.77', cuda: '11.2', archives: { windows: { sha256: served.sha256 } } }] } });
  const overlay = path.join(base, 'overlay.json');
  await copyFile(fixture.overlay, overlay);
  await chmod(overlay, 0o644);
  if (canSwitchToNobody) await execa('chown', ['-R', `${NOBODY}:${NOBODY}`, home]);

  // `npm link` of the package as the checkout lays it out (package.json, dist/), where every user can read it.
  const pkg = path.join(base, 'cudawiz');
  await mkdir(pkg);
  await copyFile(path.join(repoRoot, 'package.json'), path.join(pkg, 'package.json'));
  await cp(path.join(repoRoot, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  await execa('chmod', ['-R', 'a+rX', pkg]);
  const prefix = path.join(base, 'npm-global');
  const npmEnv = { HOME: base, PATH: process.env.PATH ?? '', npm_config_prefix: prefix, npm_config_cache: path.join(base, 'npm-cache'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const link = await execa('npm', ['link'], { cwd: pkg, env: npmEnv, extendEnv: false, reject: false });
  if (link.exitCode !== 0) throw new Error(`npm link failed: ${link.stdout}${link.stderr}`);
  await execa('chmod', ['-R', 'a+rX', prefix]);

  const env = {
    HOME: home,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    PATH: `${path.join(prefix, 'bin')}:${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
    LD_LIBRARY_PATH: driverLib,
    CUDAWIZ_MIRROR: mirror.url,
    CUDAWIZ_CATALOG: overlay,
  };
  /** One README line, as written, in a fresh non-interactive bash. */
  const run = async (line: string) => {
    const [file, ...args] = asOtherUser(['bash', '-c', line]);
    const r = await execa(file, args, { env, extendEnv: false, cwd: home, reject: false, stdin: 'ignore' });
    return { code: r.exitCode ?? -1, out: `${r.stdout}\n${r.stderr}` };
  };
  /** `npx cudawiz …` from the package's folder, with no link on PATH (the README's other way). */
  const npx = async (args: string[]) => {
    const r = await execa('npx', ['cudawiz', ...args], { cwd: pkg, env: { ...npmEnv, npm_config_prefix: path.join(base, 'npm-no-link') }, extendEnv: false, reject: false, stdin: 'ignore' });
    return { code: r.exitCode ?? -1, out: `${r.stdout}\n${r.stderr}` };
  };
  return { run, npx, mirror, prefix };
}

describe(`the READMEs' commands, as written after the quick start (${otherUserLabel})`, { timeout: 300_000 }, () => {
  it('every line of README.md and README.zh-CN.md that runs cudawiz finds it and exits as the README says', async () => {
    // In README order, English first; a line the Chinese README has word for word (its comment aside) runs once.
    const lines: string[] = [];
    for (const readme of ['README.md', 'README.zh-CN.md']) {
      const found = cudawizLines(await readFile(path.join(repoRoot, readme), 'utf8'));
      expect(found.length, readme).toBeGreaterThanOrEqual(10);
      for (const line of found) if (!lines.some((l) => withoutComment(l) === withoutComment(line))) lines.push(line);
    }
    const world = await afterQuickStart();
    try {
      const ran: string[] = [];
      for (const line of lines) {
        const plain = line.replace(/\s+--lang zh\b/, '');
        const expected = EXPECTED.find(([re]) => re.test(plain));
        expect(expected, `no expected exit for the README line: ${line}`).toBeDefined();
        // Root that cannot become another user would write the real /usr/local: only the lines that change nothing run then.
        if (runningAsRoot && !canSwitchToNobody && /install|repair|rollback/.test(plain)) continue;
        const r = await world.run(line);
        expect(r.out, line).not.toMatch(/command not found|No such file or directory.*cudawiz|Unknown command|unknown option/i);
        expect(r.code, `${line}  (${expected![2]})\n${r.out}`).toBe(expected![1]);
        // A headless install says which route it took and why, and how to take another (one rule with the wizard's).
        if (/^cudawiz install --tf/.test(plain)) expect(r.out, line).toMatch(/Route: redist\. Recommended: no administrator[\s\S]*--route toolkit|路线/);
        ran.push(line);
      }
      expect(ran.length).toBeGreaterThanOrEqual(canSwitchToNobody || !runningAsRoot ? 13 : 5);
      const npx = await world.npx(['requirements', '--tf', '2.3', '--os', 'windows']);
      expect(npx.code, npx.out).toBe(0);
      expect(npx.out).toContain('CUDA 10.1');
    } finally {
      await world.mirror.close();
    }
  });

  it('finds the lines a README has, and not the title line of a captured screen', () => {
    const md = '```\ncudawiz — TensorFlow on your NVIDIA GPU\n```\n```sh\ncudawiz doctor   # x\npython train.py 2>&1 | cudawiz explain -\n```\n```\n$ cudawiz repair --yes\n```\n`cudawiz rollback` in prose\n';
    expect(cudawizLines(md)).toEqual(['cudawiz doctor   # x', 'python train.py 2>&1 | cudawiz explain -', 'cudawiz repair --yes']);
  });
});
