// The built wizard in a real terminal (tmux, 80×24), driven by keystrokes: a first-time setup of
// TF 2.3 on a Linux laptop whose pip already has TensorFlow 2.3, against the local NVIDIA mirror.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, repoRoot } from '../helpers/cli.js';
import { buildCudnnArchive } from '../helpers/cudnn-archive.js';
import { importInChild, installByHand, laptop, type Laptop } from '../helpers/laptop.js';
import { tempDir } from '../helpers/tmp.js';
import { downUntil } from '../helpers/plan-scroll.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
let machine: Laptop | undefined;
afterEach(async () => {
  await term?.kill();
  await machine?.mirror.close();
  term = undefined;
  machine = undefined;
});

describe('the wizard in a real terminal', () => {
  it('walks a first-time setup of TF 2.3 by keystrokes, from the scan to "ready"', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu') });
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: machine.env });
    let screen = await term.waitFor('New setup', 30_000);
    expect(screen).toContain('NVIDIA GeForce RTX 2060');
    expect(screen).toContain('Python 3');
    // The doctor finds CUDA 10.1 missing: Repair it comes first; New setup is the second answer.
    expect(screen).toMatch(/❯ Repair it/);
    await term.keys('Down');
    await term.waitFor(/❯ New setup/);
    await term.keys('Enter');
    screen = await term.waitFor('Which TensorFlow version?');
    // The pip-installed TF leads the list.
    expect(screen).toMatch(/❯ TensorFlow 2\.3\.0 +CUDA 10\.1 · cuDNN 7\.6/);
    await term.keys('Enter');
    screen = await term.waitFor('Go ahead?', 30_000);
    // Nine steps at 80×24 are taller than the screen: the lines wrap (none is cut with "…"), the titles
    // stay, and the plan scrolls under them with ↓, saying how many rows are below.
    expect(screen).toContain('cudawiz — TensorFlow on your NVIDIA GPU');
    expect(screen).toContain('The plan for TensorFlow 2.3.0');
    expect(screen).toMatch(/↓ \d+ more rows? · ↑\/↓ scroll the plan/);
    expect(screen).not.toMatch(/• 9\. Verify/);
    expect(screen).toContain('cuda_10.1.243_418.87.00_linux.run');
    // A path is never broken across rows: it is whole on one row.
    expect(screen.split('\n').some((l) => l.includes(machine!.toolkit))).toBe(true);
    const bottom = await downUntil(term, /• 9\. Verify/);
    expect(bottom).toContain('The plan for TensorFlow 2.3.0');
    expect(bottom).toMatch(/↑ \d+ more rows? · ↑\/↓ scroll the plan/);
    // Step 8's file whole (it was cut with "…" before).
    expect(bottom.split("\n").some((l) => l.includes(`${machine!.home}/.config/cudawiz/env-cuda-10.1.sh`)), bottom).toBe(true);
    expect(`${screen}\n${bottom}`).not.toContain('…');
    // Scrolling moved no answer: Enter still goes ahead.
    expect(bottom).toMatch(/❯ Yes, go ahead/);
    await term.keys('Enter');
    // The loader-path step asks before touching shell files; say no.
    screen = await term.waitFor(/TensorFlow\s+finds\s+CUDA\s+10\.1\?/, 60_000);
    await term.keys('Down');
    await term.waitFor(/❯ No/);
    await term.keys('Enter');
    screen = await term.waitFor('Your machine is ready', 60_000);
    // pip already has TF 2.3: the next step is a new terminal, never installing what is installed.
    expect(screen).not.toContain('pip install tensorflow==2.3.0');
    expect(screen).toContain('Open a new terminal');
    await term.keys('q');
    expect(await term.exitCode()).toBe(0);
    expect(await readdir(path.join(machine.toolkit, 'lib64'))).toEqual(expect.arrayContaining(['libcudart.so.10.1', 'libcudnn.so.7']));
  });

  it('Ctrl+C mid-download stops with 130, and the next run resumes the download where it stopped', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu'), runfilePadding: 3 * 1024 * 1024, linkBytesPerSec: 1024 * 1024 });
    const m = machine;
    const start = async () => {
      term = await openTerminal([process.execPath, builtCli, ...m.globals], { env: m.env });
      await term.waitFor('New setup', 30_000);
      await term.keys('Down');
      await term.waitFor(/❯ New setup/);
      await term.keys('Enter');
      await term.waitFor('Which TensorFlow version?');
      await term.keys('Enter');
      await term.waitFor('Go ahead?', 30_000);
      await term.keys('Enter');
    };
    await start();
    await term!.waitFor(/\d+% [\d.]+ (KiB|MiB) \/ 3\.0 MiB/, 30_000);
    await term!.keys('C-c');
    await term!.waitFor('Stop now?');
    await term!.keys('C-c');
    expect(await term!.exitCode()).toBe(130);
    await term!.kill();
    const first = m.mirror.fileRequests('cuda_10.1.243_418.87.00_linux.run').filter((q) => q.method === 'GET').length;

    await start();
    await term!.waitFor(/resumed from [\d.]+ (KiB|MiB)/, 30_000);
    await term!.waitFor(/TensorFlow\s+finds\s+CUDA\s+10\.1\?/, 60_000);
    await term!.keys('Down');
    await term!.waitFor(/❯ No/);
    await term!.keys('Enter');
    await term!.waitFor('Your machine is ready', 60_000);
    // The plan's size check asks with HEAD; the download's own requests are the GETs.
    const resumed = m.mirror.fileRequests('cuda_10.1.243_418.87.00_linux.run').filter((q) => q.method === 'GET').slice(first);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((q) => q.range && !q.range.startsWith('bytes=0-'))).toBe(true);
  });

  it("repairs the seed's machine by keystrokes: Repair → plan → CUDA 10.1 and cuDNN 7.6.5 go in beside 11.0", async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu') });
    const m = machine;
    const cuda110 = await installByHand(m, 'cuda_11.0.3_450.51.06_linux.run', '11.0', 'libcublas.so.11 libcufft.so.10 libcurand.so.10 libcusolver.so.10 libcusparse.so.11');
    await importInChild((await buildCudnnArchive(await tempDir('cw-cudnn8-'), { era: 'linux-cuda-folder', version: '8.0.4.30', cuda: '11.0' })).file, cuda110);
    term = await openTerminal([process.execPath, builtCli, ...m.globals], { env: m.env });
    let screen = await term.waitFor('Repair it', 30_000);
    expect(screen).toContain('CUDA 11.0');
    expect(screen).toMatch(/CUDA 10\.1 is not installed/);
    await term.keys('Enter');
    screen = await term.waitFor('Go ahead?', 30_000);
    expect(screen).toContain('The plan for TensorFlow 2.3.0');
    await term.keys('Enter');
    await term.waitFor(/TensorFlow\s+finds\s+CUDA\s+10\.1\?/, 60_000);
    await term.keys('Down');
    await term.waitFor(/❯ No/);
    await term.keys('Enter');
    // This host's Python is outside TF 2.3's range: the CUDA side is done and the Python is left to the user (exit 3).
    await term.waitFor('What is left to you is listed above', 60_000);
    await term.keys('q');
    expect(await term.exitCode()).toBe(3);
    expect(await readdir(path.join(m.cudaRoot, 'cuda-10.1', 'lib64'))).toContain('libcudnn.so.7');
    expect(await readdir(path.join(cuda110, 'lib64'))).toContain('libcudnn.so.8');
  });

  it('on a laptop without its nvidia-smi (no usable GPU), the 80×24 plan says where it stops and the fix, offers no Go ahead, and Quit exits 1', async () => {
    machine = await laptop(undefined, { pythonPath: path.join(repoRoot, 'test/fixtures/python/tf23-linux-gpu') });
    await rm(path.join(machine.home, 'bin', 'nvidia-smi'));
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: machine.env });
    await term.waitFor('New setup', 30_000);
    await term.keys('Down');
    await term.waitFor(/❯ New setup/);
    await term.keys('Enter');
    await term.waitFor('Which TensorFlow version?');
    await term.keys('Enter');
    const screen = await term.waitFor(/❯ Go back/, 30_000);
    expect(screen).not.toContain('Go ahead');
    // On the 24-row screen: the plan's title, the stopping step, the stop and its fix; the last step not reached below it.
    expect(screen).toContain('The plan for TensorFlow 2.3.0');
    expect(screen).toMatch(/✗ 1\. Check this machine — will stop/);
    expect(screen).toMatch(/✗ Will stop at "Check this machine": No NVIDIA driver/);
    expect(screen.replace(/\s+/g, ' ')).toContain('→ If this machine has an NVIDIA GPU, install its driver');
    expect(screen).toContain('Quit');
    expect(await downUntil(term, /– 9\. Verify \(not reached\)/)).toContain('The plan for TensorFlow 2.3.0');
    await downUntil(term, /❯ Quit/);
    await term.keys('Enter');
    expect(await term.exitCode()).toBe(1);
    expect(await readdir(machine.cudaRoot)).toEqual([]);
  });

  it('draws in colour, and without any under NO_COLOR', async () => {
    machine = await laptop();
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: machine.env });
    await term.waitFor('New setup', 30_000);
    expect(await term.coloredScreen()).toMatch(/\u001B\[3\dm/);
    await term.kill();
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: { ...machine.env, NO_COLOR: '1' } });
    await term.waitFor('New setup', 30_000);
    expect(await term.coloredScreen()).not.toMatch(/\u001B\[3\dm/);
  });

  it('Ctrl+C asks first, then stops with exit 130', async () => {
    machine = await laptop();
    term = await openTerminal([process.execPath, builtCli, ...machine.globals], { env: machine.env });
    await term.waitFor('New setup', 30_000);
    await term.keys('Down');
    await term.waitFor(/❯ New setup/);
    await term.keys('Enter');
    await term.waitFor('Which TensorFlow version?');
    await term.keys('C-c');
    await term.waitFor('Stop now?');
    await term.keys('C-c');
    expect(await term.exitCode()).toBe(130);
  });
});
