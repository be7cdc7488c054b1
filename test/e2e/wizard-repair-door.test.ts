// The built wizard at 80×24 as repair's front door (#39) and its lists (#40): on a venv whose pip
// wheels are off the loader path and on a conda env whose older cuDNN loads first, the scan offers
// "Repair it" first and repairs as `cudawiz repair` does; Esc and q leave the scan; typing a version
// jumps to it in the TF list. In English and in Chinese.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { condaCudnnFirst, condaNeedsNewerDriver, venvWheelsOffPath, type RepairClass } from '../fixtures/repair-classes.js';
import { builtCli } from '../helpers/cli.js';
import { pipLaptop } from '../helpers/pip-laptop.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
let open: RepairClass | undefined;
afterEach(async () => {
  await term?.kill();
  await open?.close();
  term = open = undefined;
});

const wizardOn = async (c: RepairClass, lang: string[] = []) => (term = await openTerminal([process.execPath, builtCli, ...lang, ...c.m.globals, ...c.flags], { env: c.env }));
const joined = (screen: string) => screen.replace(/\s+/g, ' ');

describe('the wizard is repair’s front door', () => {
  it("pip's wheels off the loader path: Repair it first, the cause whole, the venv fix, then open a new terminal (no pip install for the TF it has)", async () => {
    const c = (open = await venvWheelsOffPath());
    const t = await wizardOn(c);
    let screen = await t.waitFor('New setup', 30_000);
    expect(screen).toMatch(/❯ Repair it/);
    expect(joined(screen)).toContain('TensorFlow 2.16.1 will not find its pip-installed CUDA libraries: 7 wheel folder(s) are not on LD_LIBRARY_PATH');
    expect(screen).toContain('Esc or q quit');
    await t.keys('Enter');
    screen = await t.waitFor('Go ahead?', 30_000);
    expect(screen).toContain('The plan for TensorFlow 2.16.1');
    expect(screen).toMatch(/first for new shells/);
    await t.keys('Enter');
    // The wizard asks before it writes the venv's activate script, as repair does in a terminal.
    screen = await t.waitFor(/Put the right copies first for new shells by writing/, 60_000);
    expect(joined(screen)).toContain(`${c.at.venv}/bin/activate?`);
    await t.keys('Enter');
    screen = await t.waitFor('What now', 60_000);
    expect(screen).toContain('Open a new terminal');
    expect(screen).not.toContain('pip install tensorflow');
    expect(await readFile(path.join(c.at.venv, 'bin/activate'), 'utf8')).toContain('nvidia/cudnn/lib');
    await t.keys('q');
    expect(await t.exitCode()).toBe(0);
  }, 120_000);

  it("conda's older cuDNN first, in Chinese: 修复 first with the cause; Esc leaves the scan with 0, nothing changed", async () => {
    const c = (open = await condaCudnnFirst());
    const rc = await readFile(c.m.rc, 'utf8');
    const t = await wizardOn(c, ['--lang', 'zh']);
    const screen = await t.waitFor('Esc 或 q 退出', 30_000);
    expect(screen).toMatch(/❯ 修复/);
    expect(joined(screen)).toContain(`${c.at.prefix}/lib/`);
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(0);
    expect(await readFile(c.m.rc, 'utf8')).toBe(rc);
  }, 60_000);

  it('a driver too old for the conda env: ✗ on the driver, and New setup stops before anything changes (q leaves the scan too)', async () => {
    const c = (open = await condaNeedsNewerDriver());
    let t = await wizardOn(c);
    let screen = await t.waitFor('New setup', 30_000);
    expect(screen).toMatch(/✗ Driver: 470\.82\.01/);
    await t.keys('Down');
    await t.waitFor(/❯ New setup/);
    await t.keys('Enter');
    screen = await t.waitFor('No setup can work on this machine', 15_000);
    expect(joined(screen)).toContain("too old for the conda env's CUDA 12.2");
    await t.keys('Escape');
    await t.waitFor(/❯ Repair it/);
    await t.keys('q');
    expect(await t.exitCode()).toBe(0);
    await t.kill();
    t = await wizardOn(c, ['--lang', 'zh']);
    screen = await t.waitFor('Esc 或 q 退出', 30_000);
    expect(screen).toMatch(/✗ [^\n]*470\.82\.01/);
    await t.keys('q');
    expect(await t.exitCode()).toBe(0);
  }, 90_000);
});

describe('the TF list', () => {
  for (const lang of ['en', 'zh']) {
    it(`typing 2.3 jumps to TensorFlow 2.3 and the list says what is below (${lang})`, async () => {
      const m = await pipLaptop();
      const t = (term = await openTerminal([process.execPath, builtCli, '--lang', lang, ...m.globals], { env: m.env }));
      await t.waitFor(lang === 'en' ? 'New setup' : 'Esc 或 q 退出', 30_000);
      // The laptop has no problem to repair: New setup is the only answer.
      await t.keys('Enter');
      let screen = await t.waitFor(/❯ TensorFlow/);
      expect(screen).toMatch(lang === 'en' ? /↓ \d+ more · type a version \(2\.3\) to jump to it/ : /↓ 下面还有 \d+ 个/);
      await t.type('2.3');
      screen = await t.waitFor(/❯ TensorFlow 2\.3\.0 /);
      expect(screen).toMatch(lang === 'en' ? /↑ \d+ more/ : /↑ 上面还有 \d+ 个/);
      await t.keys('Escape');
      await t.waitFor(lang === 'en' ? 'New setup' : 'Esc 或 q 退出');
      await t.keys('Escape');
      expect(await t.exitCode()).toBe(0);
    }, 60_000);
  }
});
