// Story 6, the wizard on Windows: the built CLI on node.exe in a sized terminal (tmux, 80×24),
// drawn through Wine's console and driven by keys, from the scan to the plan and back. Wine's
// console wraps long lines near column 70 and repeats the title while Ink redraws; the plan itself
// and the keys are as on Windows.
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { downUntil } from '../helpers/plan-scroll.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';
import { PROFILE, V101, windowsLaptop, type WindowsLaptop } from './seed.js';

let laptop: WindowsLaptop | undefined;
let term: Terminal | undefined;
afterEach(async () => {
  await term?.kill();
  await laptop?.close();
  term = undefined;
  laptop = undefined;
});

describe('the wizard under Wine', () => {
  it('shows the scan of the seed laptop, takes keys, and reaches the plan for TF 2.3 without changing anything', async () => {
    laptop = await windowsLaptop();
    const m = laptop.machine;
    term = await openTerminal(m.cliCommand(laptop.globals), { env: m.unixEnv() as Record<string, string>, width: 80, height: 24 });
    let screen = await term.waitFor('New setup for a TensorFlow version', 90_000);
    // The status marks are ASCII or not as the console's locale allows; the facts are what counts.
    expect(screen).toMatch(/\S+ GPU: NVIDIA GeForce RTX 2060 \(compute capability 7\.5\)/);
    expect(screen).toMatch(/\S+ Driver: 528\.49/);
    expect(screen).toMatch(/\S+ CUDA toolkits: none found/);
    await term.keys('Enter');
    screen = await term.waitFor('Which TensorFlow version?');
    // Native Windows stops at 2.10; the rest are named as out of reach here.
    expect(screen).toMatch(/❯ TensorFlow 2\.10\.0 +CUDA 11\.2/);
    expect(screen).toContain('no native Windows GPU support');
    await term.keys('Down', 'Down', 'Down', 'Down', 'Down', 'Down', 'Down');
    await term.waitFor(/❯ TensorFlow 2\.3\.0 +CUDA 10\.1 · cuDNN 7\.6/);
    await term.keys('Enter');
    screen = await term.waitFor('Go ahead?', 60_000);
    expect(screen).toMatch(/❯ Yes, go ahead/);
    // The plan is taller than 24 rows: ↓ scrolls it (each row whole: a path is never broken, Wine's console
    // may still fold a row near column 70), then moves to the answers. Its Windows steps are on the way.
    const seen: string[] = [];
    await downUntil(term, /❯ No, go back/, seen);
    const flat = seen.join('\n').replace(/\s+/g, '');
    expect(flat).toContain('InstalltheCUDAtoolkit—intoC:\\ProgramFiles\\NVIDIAGPUComputingToolkit\\CUDA\\v10.1');
    expect(flat).toMatch(/Makethelibrariesfindable—.*theMachinePATH/);
    expect(flat).toContain('cuda_10.1.243_426.00_win10.exe');
    expect(flat).toContain('cudnn-10.1-windows10-x64-v7.6.5.32.zip');
    await term.keys('Enter');
    await term.waitFor(/Which TensorFlow version\?[\s\S]*❯ TensorFlow 2\.10\.0/);
    expect(m.exists(V101)).toBe(false);
    // Only the plan's size check asked the mirror (HEAD): nothing was downloaded.
    expect(laptop.mirror.requests.filter((q) => q.method !== 'HEAD')).toEqual([]);
    // And no installer byte was kept in the cache.
    const cache = m.host(`${PROFILE}\\AppData\\Local\\cudawiz\\Cache`);
    expect((existsSync(cache) ? readdirSync(cache) : []).filter((f) => f.startsWith('cuda_'))).toEqual([]);
  });
});
